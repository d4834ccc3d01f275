// The renderers by game name; any game without one gets the generic renderer.

import { renderGeneric } from "./common.js";
import { render as nicodemus } from "./nicodemus.js";
import { render as robotrick } from "./robotrick.js";

const RENDERERS = { robotrick, nicodemus };

export function rendererFor(game) {
  return Object.prototype.hasOwnProperty.call(RENDERERS, game) ? RENDERERS[game] : renderGeneric;
}
