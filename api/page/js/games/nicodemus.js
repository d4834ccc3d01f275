// Nicodemus: the shared bric-a-brac line, the reserve, the projects, each player's resources and workshop, and
// the seat's own hand (cards that one of its legal actions names are clickable). Everything read from the view.

import { h } from "../dom.js";
import { backs, card, cards, field, generic, rest, seatName, section } from "./common.js";

const DRAWN = ["game", "phase", "actors", "turn", "first_player", "end_triggered", "terminal", "scores",
  "bric_a_brac", "deck_size", "reserve", "players", "projects", "discard", "turn_state", "seat", "hand"];

function resources(res) {
  return h("span", { class: "resources" }, Object.entries(res || {}).map(([k, n]) =>
    h("span", { class: "res r-" + k, title: k }, `${k} ${n}`)));
}

export function render(view, ctx) {
  const top = section(`Turn ${view.turn} · ${view.phase}`,
    h("div", { class: "row" },
      field("first player", seatName(view.first_player, ctx), ctx),
      field("end triggered", view.end_triggered, ctx),
      field("deck", `${view.deck_size} cards`, ctx),
      field("reserve", resources(view.reserve), ctx)));

  const line = section("Bric-a-brac", h("div", { class: "line" }, (view.bric_a_brac || []).map((slot, n) =>
    h("div", { class: "slot" }, h("small", null, `${n + 1}`), card(slot.machine, ctx), slot.charcoalium ? h("small", null, `+${slot.charcoalium} charcoalium`) : null))));

  const projects = view.projects || {};
  const shared = section("Projects", h("div", { class: "row" },
    field("public", cards(projects.public, ctx), ctx),
    field("pile", projects.pile_size, ctx),
    field("discard", cards(view.discard, null), ctx)));

  const players = (view.players || []).map((p, i) =>
    h("div", { class: "panel sub seat" + (ctx.actors.includes(i) ? " acting" : "") + (i === ctx.seat ? " mine" : ""), dataset: { seat: String(i) } },
      h("h4", null, seatName(i, ctx)),
      field("score", p.score, ctx),
      field("resources", resources(p.resources), ctx),
      field("workshop", generic(p.workshop, "workshop", ctx, 2), ctx),
      field("hand", i === view.seat && Array.isArray(view.hand) ? `${view.hand.length} cards (below)` : backs(p.hand_size), ctx),
      field("completed projects", cards(p.completed_projects, null), ctx),
      p.private_projects && p.private_projects.length ? field("private projects", generic(p.private_projects, "", ctx, 2), ctx) : null,
      p.set_aside && p.set_aside.length ? field("set aside", generic(p.set_aside, "", ctx, 2), ctx) : null,
      rest(p, ["score", "resources", "workshop", "hand_size", "completed_projects", "private_projects", "set_aside"], ctx)));

  const hand = Array.isArray(view.hand) ? section("Your hand", cards(view.hand, ctx)) : null;
  const turn = view.turn_state ? h("details", { class: "panel rest", open: true }, h("summary", null, "this turn"), generic(view.turn_state, "turn_state", ctx, 1)) : null;

  return h("div", { class: "table nicodemus" }, top, hand, line, shared, h("div", { class: "seats" }, players), turn,
    rest(view, DRAWN, ctx, "what else this seat knows"));
}
