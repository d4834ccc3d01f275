"""Tools over the common protocol: golden playthroughs, match runners, simulations."""
