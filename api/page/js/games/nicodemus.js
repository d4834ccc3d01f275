// Nicodemus: the shared bric-a-brac line, the reserve, the projects, each player's resources and workshop, and
// the seat's own hand (cards that one of its legal actions names are clickable). Everything read from the view;
// under a machine its VP and production, under a project tile its VP and what it needs, read from the game's
// content document (ctx.content) when the page has it (ids only when it has not).

import { h } from "../dom.js";
import { backs, card, cards, classWord, clickable, field, generic, legal, onlyTypes, rest, seatName, section } from "./common.js";

const DRAWN = ["game", "phase", "actors", "turn", "first_player", "end_triggered", "terminal", "scores",
  "bric_a_brac", "deck_size", "reserve", "players", "projects", "discard", "turn_state", "seat", "hand",
  "project_choice"];

function resources(res) {
  return h("span", { class: "resources" }, Object.entries(res || {}).map(([k, n]) =>
    h("span", { class: "res r-" + classWord(k), title: k }, `${k} ${n}`)));
}

/** The content document's entry of that name in its list `kind` ("machines", "projects"), or null (no content,
 * or one of a shape this renderer does not know). */
function entry(ctx, kind, id) {
  const content = ctx && ctx.content && typeof ctx.content === "object" ? ctx.content : null;
  const list = content && Array.isArray(content[kind]) ? content[kind] : [];
  return list.find((x) => x && typeof x === "object" && x.name === id) || null;
}

const vp = (x) => (typeof x === "number" ? `${x} VP` : null);

/** A machine chip with its VP and production under it (when the content names it). */
function machine(id, ctx) {
  if (typeof id !== "string") return generic(id, "", ctx, 1);
  const m = entry(ctx, "machines", id);
  const prod = m && typeof m.production === "string" ? m.production : null;
  return h("div", { class: "slot" }, card(id, ctx),
    m && vp(m.vp) ? h("small", null, vp(m.vp)) : null,
    prod ? h("span", { class: "res r-" + classWord(prod), title: "production" }, prod) : null);
}

/** What a project needs, short: "2× blue", "charcoalium + wood", "1 VP + 1 VP", "2 identical". */
function needs(p) {
  if (p.condition === "identical") return typeof p.machines === "number" ? `${p.machines} identical` : "identical";
  if (!Array.isArray(p.requires)) return null;
  if (p.condition === "vp") return p.requires.map((v) => `${v} VP`).join(" + ") || null;
  const counts = new Map();
  for (const v of p.requires) counts.set(String(v), (counts.get(String(v)) || 0) + 1);
  return [...counts].map(([key, n]) => (n > 1 ? `${n}× ${key}` : key)).join(" + ") || null;
}

/** Project tiles, each with its VP and what it needs under it (when the content names it). */
function projects(list, ctx) {
  if (!Array.isArray(list) || !list.length) return h("span", { class: "none" }, "none");
  return h("div", { class: "line" }, list.map((id) => {
    if (typeof id !== "string") return generic(id, "", ctx, 1);
    const p = entry(ctx, "projects", id);
    const need = p ? needs(p) : null;
    return h("div", { class: "slot" }, card(id, ctx), p && vp(p.vp) ? h("small", null, vp(p.vp)) : null,
      need ? h("small", null, need) : null);
  }));
}

export function render(view, ctx) {
  const top = section(`Turn ${view.turn} · ${view.phase}`,
    h("div", { class: "row" },
      field("first player", seatName(view.first_player, ctx), ctx),
      field("end triggered", view.end_triggered, ctx),
      field("deck", `${view.deck_size} cards`, ctx),
      field("reserve", resources(view.reserve), ctx)));

  // a machine of the line is named alike by the hand's copies: its chip answers to copying it only (the slot
  // itself stands for repairing or discarding it)
  const lineCtx = onlyTypes(ctx, ["copy"]);
  const line = section("Bric-a-brac", h("div", { class: "line" }, (view.bric_a_brac || []).map((slot, n) =>
    slot && typeof slot === "object"
      ? clickable(h("div", { class: "slot" }, h("small", null, `${n + 1}`), machine(slot.machine, lineCtx),
        slot.charcoalium ? h("small", null, `+${slot.charcoalium} charcoalium`) : null),
        n + 1, legal(ctx, (j) => j.slot === n + 1), ctx)        // repair it, or discard it
      : generic(slot, "", ctx, 1))));

  const shared = view.projects || {};
  const choice = Array.isArray(view.project_choice) ? view.project_choice : [];
  const projectsPanel = section("Projects", h("div", { class: "row" },
    field("public", projects(shared.public, ctx), ctx),
    choice.length ? field("keep one", projects(choice, ctx), ctx) : null,
    field("pile", shared.pile_size, ctx),
    field("discard", cards(view.discard, null), ctx)),
    "project_choice" in view && !Array.isArray(view.project_choice) ? field("project choice", view.project_choice, ctx) : null);

  const players = (view.players || []).map((p, i) =>
    h("div", { class: "panel sub seat" + (ctx.actors.includes(i) ? " acting" : "") + (i === ctx.seat ? " mine" : ""), dataset: { seat: String(i) } },
      h("h4", null, seatName(i, ctx)),
      field("score", p.score, ctx),
      field("resources", resources(p.resources), ctx),
      field("workshop", generic(p.workshop, "workshop", ctx, 2), ctx),
      field("hand", i === view.seat && Array.isArray(view.hand) ? `${view.hand.length} cards (below)` : backs(p.hand_size), ctx),
      field("completed projects", cards(p.completed_projects, null), ctx),
      p.private_projects && p.private_projects.length ? field("private projects", projects(p.private_projects, ctx), ctx) : null,
      p.set_aside && p.set_aside.length ? field("set aside", generic(p.set_aside, "", ctx, 2), ctx) : null,
      rest(p, ["score", "resources", "workshop", "hand_size", "completed_projects", "private_projects", "set_aside"], ctx)));

  const hand = Array.isArray(view.hand) ? section("Your hand", view.hand.length
    ? h("div", { class: "line" }, view.hand.map((m) => machine(m, ctx))) : h("span", { class: "none" }, "none")) : null;
  const turn = view.turn_state ? h("details", { class: "panel rest", open: true }, h("summary", null, "this turn"), generic(view.turn_state, "turn_state", ctx, 1)) : null;

  return h("div", { class: "table nicodemus" }, top, hand, line, projectsPanel, h("div", { class: "seats" }, players), turn,
    rest(view, DRAWN, ctx, "what else this seat knows"));
}
