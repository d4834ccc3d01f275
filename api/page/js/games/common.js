// Pieces every renderer uses, and the generic renderer: any JSON view drawn readably, so that a game without a
// renderer of its own is watchable the day it is registered. Renderers read views only: no game rule here.

import { h, label } from "../dom.js";

/** Strings that read as a card or tile id ("B7", "R11", "T3", "H1", "Ab12"). */
export const CARD_ID = /^[A-Z][A-Za-z]{0,2}[0-9]{1,3}$/;

export function isCard(value) {
  return typeof value === "string" && CARD_ID.test(value);
}

/** What the content ids of the game on the page stand for (GET /v1/games/{game}'s glossary: id -> {name, text}),
 * set once by the page before it draws; every card chip names its card in its tooltip from it. */
let GLOSSARY = {};

export function useGlossary(glossary) {
  GLOSSARY = glossary && typeof glossary === "object" ? glossary : {};
}

/** The glossary's entry of an id ({name, text}), or null. */
export function gloss(id) {
  const entry = Object.prototype.hasOwnProperty.call(GLOSSARY, String(id)) ? GLOSSARY[String(id)] : null;
  return entry && typeof entry === "object" ? entry : null;
}

/** A tooltip for an id: "H1 · Armoured Head — Head Structure, 3 VP..." (the id alone when the glossary has none). */
export function tooltip(id) {
  const entry = gloss(id);
  if (!entry) return String(id);
  const name = entry.name && entry.name !== String(id) ? ` · ${entry.name}` : "";
  return `${id}${name}${entry.text ? " — " + entry.text : ""}`;
}

/** Safe readers of a view's parts: a view is JSON, but a renderer must not count on a field being there. */
export const arr = (x) => (Array.isArray(x) ? x : []);
export const obj = (x) => (x && typeof x === "object" && !Array.isArray(x) ? x : {});
export const num = (x) => (typeof x === "number" && Number.isFinite(x) ? x : 0);
export const has = (x) => x !== null && x !== undefined;
export const plural = (n, one, many = one + "s") => `${n} ${n === 1 ? one : many}`;
/** ``table[key]`` for a table of the renderer's own, or undefined: a key from a view ("constructor") never
 * reaches an object's inherited properties. */
export const lookup = (table, key) => (Object.prototype.hasOwnProperty.call(table, String(key)) ? table[String(key)] : undefined);
/** A word from a view fit to end a class name ("r-" + it), or "x". */
export const classWord = (value) => (/^[A-Za-z0-9_-]{1,32}$/.test(String(value)) ? String(value) : "x");

/** The seat's legal actions ({id, text, json}) whose JSON form passes ``test``. */
export function legal(ctx, test) {
  return arr(ctx && ctx.legal).filter((a) => a && test(obj(a.json)));
}

/** A ctx whose cards answer only to the seat's actions of these types (one name may stand for several things: a
 * hand card that one may give or ask for, a Sparks robot and die named alike, a machine in hand and on the line). */
export function onlyTypes(ctx, types) {
  return ctx ? { ...ctx, cardActions: (text) => arr(ctx.cardActions ? ctx.cardActions(text) : []).filter((a) => types.includes(obj(a.json).type)) } : null;
}

/** Makes an element of the table play the action it stands for, or narrow the side panel to them when there are
 * several (ctx.pick decides; ``text`` is what the panel filters on: a value their JSON holds; ``label`` what its
 * heading calls the element, when the value alone could name two things: a Sparks die and the robot named
 * alike), by click or by keyboard; its tooltip lists them. A click goes to the innermost such element only. */
export function clickable(el, text, actions, ctx, cls = "playable", label = text) {
  if (!ctx || !ctx.pick || !actions || !actions.length) return el;
  el.classList.add(cls);
  Object.assign(el.dataset, { pick: String(text), picks: String(actions.length), ids: actions.map((a) => a.id).join(" ") });
  el.setAttribute("role", "button");
  el.setAttribute("tabindex", "0");
  const listed = actions.slice(0, 6).map((a) => a.text).join(" · ") + (actions.length > 6 ? " …" : "");
  const before = el.getAttribute("title");
  el.setAttribute("title", before ? `${before} — ${listed}` : listed);
  const go = (e) => {
    const fold = e.target instanceof Element ? e.target.closest("details") : null;
    if (fold && el.contains(fold)) return;           // opening a folded panel inside it is not a move
    e.stopPropagation();
    ctx.pick(text, actions, String(label));
  };
  el.addEventListener("click", go);
  // its own keys only: a key on something inside it (a fold's summary, a button) keeps its own meaning
  el.addEventListener("keydown", (e) => { if (e.target === el && (e.key === "Enter" || e.key === " ")) { e.preventDefault(); go(e); } });
  return el;
}

/** A button on the table for one of the seat's legal actions that no card or part of the table stands for (done,
 * skip, draw, an answer...): it plays that action; ``text`` may say it better than the action's own text. */
export function actionButton(a, ctx, text = a.text, cls = "table-btn") {
  const go = (e) => { e.stopPropagation(); ctx.pick(a.text, [a]); };
  return h("button", { type: "button", class: cls, title: a.text, dataset: { ids: String(a.id) }, onclick: go }, text);
}

/** A card chip; when one of the seat's legal actions names it, it is clickable (ctx.pick decides). */
export function card(text, ctx, extra = "") {
  const actions = ctx && ctx.cardActions ? ctx.cardActions(text) : [];
  const cls = ["card", "c-" + String(text)[0], extra].filter(Boolean).join(" ");
  return clickable(h("span", { class: cls, dataset: { card: text }, title: tooltip(text) }, text), text, actions, ctx);
}

/** ``el`` (a card chip) drawn a second time: the same card is drawn elsewhere on the table (a seat's malus in its
 * panel and beside its hand). Marked, so that whoever counts the cards on the table counts each card once. */
export function again(el) {
  el.dataset.again = "";
  return el;
}

/** A row of cards (or a dash for none). */
export function cards(list, ctx, extra = "") {
  if (!list || !list.length) return h("span", { class: "none" }, "none");
  return h("span", { class: "cards" }, list.map((c) => (isCard(c) ? card(c, ctx, extra) : generic(c, "", ctx, 1))));
}

/** Face-down cards: n backs. */
export function backs(n) {
  const count = Math.max(0, Math.min(Number(n) || 0, 60));
  const out = [];
  for (let i = 0; i < count; i += 1) out.push(h("span", { class: "card back", "aria-hidden": "true" }));
  return h("span", { class: "cards", title: `${n} face down` }, out, h("span", { class: "count" }, `×${n}`));
}

/** Who sits there: "seat 1 (you)", "seat 2 (bot: greedy)", or an automaton's name. */
export function seatName(seat, ctx) {
  if (typeof seat !== "number") return String(seat);
  const spec = ctx.seats && ctx.seats[seat];
  let who = `seat ${seat}`;
  if (ctx.seat === seat) who += " (you)";
  else if (spec && spec.type === "bot") who += ` (bot: ${spec.bot})`;
  return who;
}

export function section(title, ...body) {
  return h("section", { class: "panel" }, h("h3", null, title), ...body);
}

export function field(name, value, ctx) {
  return h("div", { class: "field" }, h("span", { class: "key" }, label(name)), h("span", { class: "val" }, value instanceof Node ? value : generic(value, name, ctx, 1)));
}

function scalar(value) {
  if (value === null || value === undefined) return h("span", { class: "none" }, "—");
  if (typeof value === "boolean") return h("span", { class: "bool" }, value ? "yes" : "no");
  return h("span", { class: "scalar" }, String(value));
}

const isScalar = (v) => v === null || v === undefined || ["string", "number", "boolean"].includes(typeof v);

/** Any JSON value as readable DOM: scalars as text, card ids as cards, lists of scalars as rows, lists of
 * same-shaped flat objects as tables, per-seat lists ("players", "seats"...) as one panel per seat, objects as
 * labelled fields (deep ones folded). Depth is bounded. */
export function generic(value, key, ctx, depth = 0) {
  if (depth > 10) return h("code", null, JSON.stringify(value));
  if (isCard(value)) return card(value, ctx);
  if (isScalar(value)) return scalar(value);
  if (Array.isArray(value)) {
    if (!value.length) return h("span", { class: "none" }, "none");
    if (value.every(isScalar)) {
      if (value.some(isCard)) return cards(value, ctx);
      return h("span", { class: "list" }, value.map((v) => h("span", { class: "item" }, scalar(v))));
    }
    if (value.every((v) => v && typeof v === "object" && !Array.isArray(v))) {
      const keys = Object.keys(value[0]);
      const flat = value.every((v) => Object.keys(v).length === keys.length && keys.every((k) => k in v && (isScalar(v[k]) || (Array.isArray(v[k]) && v[k].every(isScalar)))));
      const perSeat = /players|seats|hands|boards|robots|tableaus?/i.test(String(key)) && ctx && ctx.seats && value.length === ctx.seats.length;
      if (flat && !perSeat && keys.length <= 8) {
        return h("table", { class: "grid" },
          h("thead", null, h("tr", null, keys.map((k) => h("th", null, label(k))))),
          h("tbody", null, value.map((row) => h("tr", null, keys.map((k) => h("td", null, generic(row[k], k, ctx, depth + 1)))))));
      }
      return h("div", { class: perSeat ? "seats" : "objects" }, value.map((v, i) =>
        h("div", { class: "panel sub" + (perSeat && ctx.actors && ctx.actors.includes(i) ? " acting" : "") + (perSeat && ctx.seat === i ? " mine" : ""), dataset: perSeat ? { seat: String(i) } : {} },
          h("h4", null, perSeat ? seatName(i, ctx) : `#${i + 1}`), generic(v, "", ctx, depth + 1))));
    }
    return h("ol", { class: "mixed" }, value.map((v) => h("li", null, generic(v, key, ctx, depth + 1))));
  }
  const entries = Object.entries(value);
  if (!entries.length) return h("span", { class: "none" }, "none");
  const fields = entries.map(([k, v]) => {
    const big = v && typeof v === "object" && JSON.stringify(v).length > 400 && depth > 0;
    const inner = generic(v, k, ctx, depth + 1);
    if (big) return h("details", { class: "field" }, h("summary", null, label(k)), inner);
    return h("div", { class: "field" }, h("span", { class: "key" }, label(k)), h("span", { class: "val" }, inner));
  });
  return h("div", { class: "object" }, fields);
}

/** The keys a game renderer did not draw, drawn generically (so a new field of a view is never lost). */
export function rest(view, drawn, ctx, title = "more") {
  const left = {};
  for (const [k, v] of Object.entries(view)) if (!drawn.includes(k)) left[k] = v;
  if (!Object.keys(left).length) return null;
  return h("details", { class: "panel rest" }, h("summary", null, title), generic(left, "", ctx, 1));
}

/** The generic renderer: the view's scalars first (as a grid of fields), small flat objects as tiles, then
 * per-seat lists (one panel per seat, the acting seats and the viewer's own marked) and every other structure
 * in its own panel. */
export function renderGeneric(view, ctx) {
  const flat = {};
  const tiles = [];
  const seats = [];
  const panels = [];
  const flatObject = (v) => v && typeof v === "object" && !Array.isArray(v) && Object.values(v).every((x) => isScalar(x) || (Array.isArray(x) && x.every(isScalar) && x.length <= 8));
  for (const [k, v] of Object.entries(view)) {
    if (isScalar(v) || (Array.isArray(v) && v.every(isScalar) && !v.some(isCard))) flat[k] = v;
    else if (flatObject(v) && Object.keys(v).length <= 8) tiles.push(h("section", { class: "panel tile" }, h("h3", null, label(k)), generic(v, k, ctx, 1)));
    else if (Array.isArray(v) && ctx && ctx.seats && v.length === ctx.seats.length && v.every((x) => x && typeof x === "object")) seats.push(section(label(k), generic(v, "players", ctx, 1)));
    else panels.push(section(label(k), generic(v, k, ctx, 1)));
  }
  return h("div", { class: "table generic" },
    section("state", h("div", { class: "flat" }, generic(flat, "", ctx, 1))),
    tiles.length ? h("div", { class: "tiles" }, tiles) : null,
    seats, panels);
}
