"""Adapters to other frameworks' APIs (optional dependencies, imported only when used):

- ``robotcore.adapters.pettingzoo.env(name, **params)``: a PettingZoo AEC environment;
- ``robotcore.adapters.openspiel.register(name)``: the game as a pyspiel game, for OpenSpiel's algorithms.
"""
