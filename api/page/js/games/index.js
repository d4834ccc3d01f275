// The renderers by game name; any game without one gets the generic renderer.

import { renderGeneric } from "./common.js";
import { render as nicodemus } from "./nicodemus.js";
import { render as robotrick } from "./robotrick.js";
import { render as scrapyard } from "./scrapyard.js";
import { render as smartphone } from "./smartphone.js";
import { render as sparks } from "./sparks.js";

const RENDERERS = { robotrick, nicodemus, scrapyard, sparks, smartphone };

export function rendererFor(game) {
  return Object.prototype.hasOwnProperty.call(RENDERERS, game) ? RENDERERS[game] : renderGeneric;
}

/** The board for a view: the game's renderer, or the generic one when the game has none or its renderer fails
 * on a view it does not expect (a new field, a new phase): the table is always drawn. */
export function renderView(game, view, ctx) {
  try {
    return rendererFor(game)(view, ctx);
  } catch (err) {
    console.error(err);
    return renderGeneric(view, ctx);
  }
}
