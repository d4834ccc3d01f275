// The renderers by game name; any game without one gets the generic renderer.

import { h } from "../dom.js";
import { actionButton, arr, renderGeneric, section } from "./common.js";
import { render as nicodemus } from "./nicodemus.js";
import { render as robotrick } from "./robotrick.js";
import { render as scrapyard } from "./scrapyard.js";
import { render as smartphone } from "./smartphone.js";
import { render as sparks } from "./sparks.js";

const RENDERERS = { robotrick, nicodemus, scrapyard, sparks, smartphone };

export function rendererFor(game) {
  return Object.prototype.hasOwnProperty.call(RENDERERS, game) ? RENDERERS[game] : renderGeneric;
}

/** The game's own renderer's table, with a row of buttons for the seat's legal actions that nothing drawn on it
 * stands for (every move can be made from the table; the side panel lists them all as well). Throws what the
 * renderer throws. */
export function renderOwn(game, view, ctx) {
  return withEveryMove(rendererFor(game)(view, ctx), ctx);
}

/** The board for a view: the game's renderer, or the generic one when the game has none or its renderer fails
 * on a view it does not expect (a new field, a new phase): the table is always drawn. */
export function renderView(game, view, ctx) {
  try {
    return renderOwn(game, view, ctx);
  } catch (err) {
    console.error(err);
    return withEveryMove(renderGeneric(view, ctx), ctx);
  }
}

function withEveryMove(table, ctx) {
  const shown = new Set();
  for (const el of table.querySelectorAll("[data-ids]")) for (const id of el.dataset.ids.split(" ")) shown.add(id);
  const others = arr(ctx && ctx.legal).filter((a) => a && !shown.has(String(a.id)));
  if (others.length && ctx.pick) {
    const row = section("Other moves", h("div", { class: "row" }, others.map((a) => actionButton(a, ctx))));
    row.classList.add("other-moves");
    table.append(row);
  }
  return table;
}
