// Smartphone: the round, the phase and what is being decided, the rules in force and the event track (drawn,
// current, upcoming); the seat's own hand by supplier (its cards, malus and buildable components clickable where
// one of its legal actions names them); the market (each supplier's face-up row and deck, clickable to supply,
// take or draw), the malus pile and what left the game; a trade offer in progress; and each player's table:
// score, hand by supplier (the cards everybody saw face up, the rest as backs), the smartphone board (components
// built, cards laid), malus cards and recycled cards. Everything read from the view, and what its names and
// numbers stand for from the game's content (ctx.content: events, components, suppliers) and glossary (the
// cards' tooltips); without them (ctx.content null) the table shows the names and numbers alone.

import { h } from "../dom.js";
import { actionButton, again, arr, backs, card, clickable, field, gloss, has, legal, lookup, num, obj, onlyTypes, plural, rest, seatName, section, tooltip } from "./common.js";

const DRAWN = ["game", "phase", "actors", "round", "first_player", "terminal", "end_triggered", "end_reason",
  "scores", "market", "deck_sizes", "malus_pile", "malus_set_aside", "out_of_game", "events", "rules", "players",
  "turn_state", "seat", "hand"];
const SEAT_DRAWN = ["hand_by_supplier", "known_in_hand", "at_most_in_hand", "laid", "built", "malus", "malus_count",
  "malus_weight", "recycled_owned", "recycled_laid", "blocked", "blocked_next", "score"];
const TURN_DRAWN = ["turn_player", "supplier", "picks_left", "malus_left", "lose_type", "offer", "offered", "event",
  "event_order", "event_position", "event_left", "event_target", "quiz_ranks"];
const RULES_DRAWN = ["trading", "malus_penalty", "malus_multiplier", "no_depollution", "refreshed"];

/** Resource types, in the engine's order, with their names (rules, not content: data.py TYPES). */
const TYPES = [["MP", "precious metal"], ["MR", "rare metal"], ["MC", "common metal"], ["TR", "rare earth"], ["AM", "other material"]];
const TYPE_NAME = Object.fromEntries(TYPES);
const TYPE_ORDER = TYPES.map(([t]) => t);
/** The suppliers (the view's names) and their card codes (kinds read "P-MR"): fixed by the rules (data.py
 * SUPPLIERS, SUPPLIER_CODES); what a supply takes is content (ctx.content.suppliers). */
const SUPPLIERS = [["PolluPlus", "P"], ["PolluMoins", "M"], ["Recyclage", "R"]];
const CODE = Object.fromEntries(SUPPLIERS);
const END_REASONS = {
  smartphone: "a smartphone was completed",
  end_event: "the end-of-game event was drawn",
  malus_pile: "the malus pile ran out",
  events_exhausted: "no event was left",
};


/** A kind "P-MR" as [supplier code, type], or null. */
function parseKind(kind) {
  const m = /^([A-Z])-([A-Z]{2})$/.exec(String(kind));
  return m ? [m[1], m[2]] : null;
}

/** The colour classes of a resource card: its type's fill, its supplier's frame. */
function kindClass(kind) {
  const k = parseKind(kind);
  if (!k) return "";
  return ["sp-card", TYPE_NAME[k[1]] ? "sp-t-" + k[1] : "", /^[PMR]$/.test(k[0]) ? "sp-s-" + k[0] : ""].filter(Boolean).join(" ");
}

/** A resource card of a hand or a board ("P-MR", a key of the view's {kind: count} objects): a card whose
 * tooltip comes from the glossary; clickable through ctx when one of its actions names it. */
function kindCard(kind, ctx, extra = "") {
  return card(String(kind), ctx, [kindClass(kind), extra].filter(Boolean).join(" "));
}

function supplierOf(code) {
  const s = SUPPLIERS.find(([, c]) => c === code);
  return s ? s[0] : code;
}

/** A malus card ("M06"). */
function malusCard(name, ctx, extra = "") {
  return card(String(name), ctx, ["sp-malus", extra].filter(Boolean).join(" "));
}

// -- the content (ctx.content: the game's content document; null when the page could not read it) ---------------

/** The objects of one list of the content ("events", "components", "suppliers"), or none. */
function contentList(ctx, key) {
  const doc = ctx && ctx.content && typeof ctx.content === "object" ? ctx.content : {};
  return arr(doc[key]).filter((x) => x && typeof x === "object" && !Array.isArray(x));
}

const str = (x) => (typeof x === "string" ? x : "");

/** The content's event of this number: {title, text, star, kind}, or null. */
function eventOf(n, ctx) {
  const e = contentList(ctx, "events").find((x) => x.number === n);
  if (!e) return null;
  return { title: str(e.title_en) || str(e.title_fr), text: str(e.text_en) || str(e.text_fr), star: e.star === true, kind: str(e.kind) };
}

/** "event 6" for the content's event of that kind (what a rule in force comes from), or null. */
function eventOfKind(kind, ctx) {
  const e = contentList(ctx, "events").find((x) => x.kind === kind);
  return e && typeof e.number === "number" ? `event ${e.number}` : null;
}

/** The content's supplier of that name ({take, malus} read as numbers), or null. */
function supplierInfo(name, ctx) {
  const s = contentList(ctx, "suppliers").find((x) => x.name === name);
  return s && typeof s.take === "number" && typeof s.malus === "number" ? s : null;
}

/** A recipe {MR: 1, AM: 3} as its cards "MR AM AM AM" (types in order; bounded). */
function recipeText(recipe) {
  const entries = Object.entries(obj(recipe)).filter(([, n]) => num(n) > 0);
  entries.sort((a, b) => (TYPE_ORDER.indexOf(a[0]) + 1 || 99) - (TYPE_ORDER.indexOf(b[0]) + 1 || 99));
  return entries.map(([t, n]) => Array(Math.min(Math.floor(num(n)), 20)).fill(t).join(" ")).join(" ");
}

/** {key: count} as a list of keys, each repeated count times (bounded), kinds sorted by supplier then type. */
function expand(counts) {
  const out = [];
  for (const [k, n] of sortedKinds(counts)) for (let i = 0; i < Math.min(num(n), 30); i += 1) out.push(k);
  return out;
}

function sortedKinds(counts) {
  const rank = (k) => {
    const p = parseKind(k);
    if (!p) return 1000;
    const s = SUPPLIERS.findIndex(([, c]) => c === p[0]);
    const t = TYPE_ORDER.indexOf(p[1]);
    return (s < 0 ? 3 : s) * 10 + (t < 0 ? 9 : t);
  };
  return Object.entries(obj(counts)).sort((a, b) => rank(a[0]) - rank(b[0]) || (a[0] < b[0] ? -1 : 1));
}

/** Kinds grouped by supplier code: {P: [...], M: [...], R: [...], other: [...]} of repeated kinds. */
function bySupplier(list) {
  const out = {};
  for (const k of list) {
    const p = parseKind(k);
    const key = p ? p[0] : "?";
    (out[key] = out[key] || []).push(k);
  }
  return out;
}

function none(text = "none") {
  return h("span", { class: "none" }, text);
}

/** Distinct cards with a "×n" when several (for long public lists: set aside, out of the game). */
function tally(counts, draw) {
  const entries = sortedKinds(counts).filter(([, n]) => num(n) > 0);
  if (!entries.length) return none();
  return h("span", { class: "cards sp-tally" }, entries.map(([k, n]) =>
    h("span", { class: "sp-multi" }, draw(k), num(n) > 1 ? h("small", null, `×${n}`) : null)));
}



function who(seat, ctx) {
  return typeof seat === "number" ? seatName(seat, ctx) : has(seat) ? String(seat) : "—";
}

function eventTitle(n, ctx) {
  const e = eventOf(n, ctx);
  return e && e.title ? `${n} · ${e.title}${e.star ? " ★" : ""}` : `event ${n}`;
}

// -- the headline -----------------------------------------------------------------------------------------------

function prompt(view, ctx) {
  const ts = obj(view.turn_state);
  const actors = arr(view.actors).map((a) => who(a, ctx)).join(", ") || "nobody";
  const tp = who(ts.turn_player, ctx);
  const offer = obj(ts.offer);
  const ev = has(ts.event) ? `Event ${eventTitle(ts.event, ctx)}: ` : "";
  const left = num(ts.event_left) > 1 ? ` (${ts.event_left} to go)` : "";
  const rules = obj(view.rules);
  switch (view.phase) {
    case "main": return `${tp} plays: supply at a supplier, build a component or depollute` +
      (rules.trading && !ts.offered ? " — a trade offer may come first" : "") + (rules.no_depollution ? " (no depollution this round)" : "") + ".";
    case "pick": return `${tp} supplies at ${ts.supplier || "a supplier"}: ${plural(num(ts.picks_left), "card")} still to take (a face-up card or the top of the deck)` +
      (num(ts.malus_left) ? `, then ${plural(num(ts.malus_left), "malus card")}` : "") + ".";
    case "lose": return `${tp} drew a malus that costs a ${ts.lose_type || "resource"} card (${TYPE_NAME[ts.lose_type] || "a type"}): they discard one of that type.`;
    case "depollute": return `${tp} may discard a second malus card, or stop.`;
    case "offer": return `${tp} composes a trade offer to ${who(offer.to, ctx)} (1–2 cards given, 1–2 asked).`;
    case "answer": return `${who(offer.to, ctx)} accepts or refuses ${tp}'s offer.`;
    case "event_pick": return `${ev}${actors} takes a face-up card.`;
    case "event_discard": return `${ev}${actors} chooses what to discard${left}.`;
    case "event_tax": return `${ev}${actors} decides` + (has(ts.event_target) ? ` about ${who(ts.event_target, ctx)}` : "") + `${left}.`;
    case "vote": return `Market refresh: ${actors} to vote on replacing every face-up card (malus cards pay for it).`;
    case "over": return `Game over: ${lookup(END_REASONS, view.end_reason) || String(view.end_reason || "the game ended")}.`;
    default: return `${String(view.phase)}: ${actors} to act.`;
  }
}

function rulesInForce(rules0, ctx) {
  const r = obj(rules0);
  const badge = (on, label, title) => h("span", { class: "sp-rule" + (on ? " on" : ""), title }, label);
  const from = (kind) => eventOfKind(kind, ctx);
  const trading = from("trading");
  const penalty = from("malus_penalty");
  const out = [
    badge(!!r.trading, r.trading ? "trading open" : "no trading yet", "one trade offer per turn, before the action" + (trading ? ` (from ${trading} on)` : "")),
    num(r.malus_penalty) ? badge(true, `−${r.malus_penalty} per malus at the end`, "polluter pays" + (penalty ? ` (${penalty})` : ""))
      : badge(false, "malus cost no points yet", "until the polluter-pays event" + (penalty ? ` (${penalty})` : "")),
    num(r.malus_multiplier) > 1 ? badge(true, `supply malus ×${r.malus_multiplier}`, from("double_malus") || "") : null,
    r.no_depollution ? badge(true, "no depollution this round", from("no_depollution") || "") : null,
    r.refreshed ? badge(true, "market refreshed this round", "") : null,
  ];
  const more = Object.entries(r).filter(([k]) => !RULES_DRAWN.includes(k));
  return h("div", { class: "sp-rules" }, out, more.map(([k, v]) => field(k, v, null)));
}

function eventCard(n, cls, ctx) {
  const e = eventOf(n, ctx);
  return h("div", { class: "sp-event " + cls, title: e ? [e.title + (e.star ? " ★" : ""), e.text].filter(Boolean).join(": ") : `event ${n}` },
    h("strong", null, String(n)), e && e.title ? h("span", null, e.title + (e.star ? " ★" : "")) : null);
}

function events(view, ctx) {
  const ev = obj(view.events);
  const drawn = arr(ev.drawn);
  const upcoming = arr(ev.upcoming);
  const ts = obj(view.turn_state);
  const last = drawn.length ? drawn[drawn.length - 1] : null;
  const current = has(ts.event) ? ts.event : null;
  const shown = has(current) ? current : last;
  const e = has(shown) ? eventOf(shown, ctx) : null;
  const next = upcoming.length ? eventOf(upcoming[0], ctx) : null;
  const order = arr(ts.event_order);
  const ranks = arr(ts.quiz_ranks);
  const ranked = ranks.some((r) => num(r) !== 0) ? ranks.map((r, i) => [num(r), i]).sort((a, b) => a[0] - b[0]).map(([, i]) => i) : [];
  return h("div", { class: "sp-events" },
    h("div", { class: "sp-track" },
      drawn.map((n, i) => eventCard(n, "past" + (i === drawn.length - 1 ? " last" : "") + (n === current ? " now" : ""), ctx)),
      upcoming.map((n, i) => eventCard(n, "next" + (i === 0 && view.phase !== "over" ? " first" : ""), ctx)),
      !drawn.length && !upcoming.length ? none("no event") : null),
    has(shown) ? h("p", { class: "sp-eventtext" }, h("strong", null, has(current) ? `Now: event ${eventTitle(shown, ctx)}` : `Last event: ${eventTitle(shown, ctx)}`),
      e && e.text ? ` — ${e.text}` : "") : null,
    upcoming.length && view.phase !== "over" ? h("p", { class: "note" }, `Next: ${eventTitle(upcoming[0], ctx)}` + (next && next.text ? ` — ${next.text}` : "") + ` · ${plural(upcoming.length, "event")} left`) : null,
    order.length ? field("order", h("span", { class: "sp-order" }, order.map((s, i) =>
      h("span", { class: "sp-who" + (i === num(ts.event_position) && view.phase !== "main" ? " now" : "") }, who(s, ctx)))), ctx) : null,
    ranked.length ? field("quiz draw", h("span", { class: "sp-order" }, ranked.map((s) => h("span", { class: "sp-who" }, who(s, ctx)))), ctx) : null);
}

/** The decisions that no card, supplier or seat of the table stands for, as buttons under the prompt (the side
 * panel lists them too). */
const ANSWERS = ["accept", "refuse", "send", "cancel", "stop", "pass", "done", "take_malus", "tax_take", "vote_yes",
  "vote_no", "decline"];

function answers(ctx) {
  const list = legal(ctx, (j) => ANSWERS.includes(j.type));
  if (!list.length) return null;
  return h("div", { class: "sp-answers" }, list.map((a) => actionButton(a, ctx, a.text, "sp-btn")));
}

function top(view, ctx) {
  const ts = obj(view.turn_state);
  const scores = arr(view.scores);
  const phase = String(view.phase || "");
  const title = `Round ${has(view.round) ? view.round : "?"} · ${phase.replace(/_/g, " ")}`;
  const best = scores.length ? Math.max(...scores.map(num)) : null;
  return section(title,
    h("p", { class: "sp-prompt" }, prompt(view, ctx)),
    answers(ctx),
    h("div", { class: "row" },
      field("first player", who(view.first_player, ctx), ctx),
      has(ts.turn_player) ? field("turn", who(ts.turn_player, ctx), ctx) : null,
      view.end_triggered && view.phase !== "over" ? field("end", "the game ends after this round", ctx) : null,
      view.phase === "over" && has(view.end_reason) && !lookup(END_REASONS, view.end_reason) ? field("ended by", view.end_reason, ctx) : null),
    rulesInForce(view.rules, ctx),
    events(view, ctx),
    view.phase === "over" && scores.length ? h("div", { class: "row sp-final" }, scores.map((s, i) =>
      h("span", { class: "sp-final-score" + (i === ctx.seat ? " mine" : "") + (num(s) === best ? " best" : ""), title: num(s) === best ? "most points (ties are broken by laid cards: the header names the winners)" : null }, `${who(i, ctx)}: `, h("strong", null, `${s} pts`)))) : null,
    rest(ts, TURN_DRAWN, ctx, "more of this turn"));
}

// -- the market ---------------------------------------------------------------------------------------------------

function supplierPanel(name, row, view, ctx) {
  const code = lookup(CODE, name) || "";
  const ts = obj(view.turn_state);
  const deck = obj(view.deck_sizes)[name];
  const mult = Math.max(1, num(obj(view.rules).malus_multiplier));
  const info = supplierInfo(name, ctx);
  const active = ts.supplier === name && (view.phase === "pick" || view.phase === "lose");
  const slots = arr(row).map((t, i) => {
    const el = h("div", { class: "sp-slot" },
      has(t) ? card(String(t), null, ["sp-card", TYPE_NAME[t] ? "sp-t-" + t : "", code ? "sp-s-" + code : ""].filter(Boolean).join(" "))
        : h("span", { class: "sp-empty", title: "refilled at the end of the turn" }, "—"),
      h("small", null, `${code || name}${i + 1}`));
    return clickable(el, name, legal(ctx, (j) => j.type === "take" && j.supplier === name && j.slot === i + 1), ctx, "sp-act");
  });
  const pile = h("div", { class: "sp-slot sp-deck sp-back-" + (code || "x") },
    h("span", { class: "card back", "aria-hidden": "true" }),
    h("small", null, has(deck) ? `deck ${deck}` : "deck"));
  clickable(pile, name, legal(ctx, (j) => (j.type === "supply" || j.type === "draw") && j.supplier === name), ctx, "sp-act");
  const head = h("h4", null, h("span", { class: "sp-sname sp-s-" + (code || "x"), title: tooltip(name) }, name),
    info ? h("small", { class: "note" }, ` takes ${plural(info.take, "card")} + ${plural(info.malus * mult, "malus", "malus")}`) : null);
  const blockedFor = arr(view.players).map((p, i) => (arr(obj(p).blocked).includes(name) ? i : null)).filter(has);
  return h("div", { class: "panel sub sp-supplier" + (active ? " acting" : ""), dataset: { supplier: name } },
    head,
    h("div", { class: "sp-rowcards" }, slots.length ? slots : none("no face-up card"), pile),
    active ? h("p", { class: "note" }, `${who(ts.turn_player, ctx)} is supplying here: ${plural(num(ts.picks_left), "card")} left` +
      (num(ts.malus_left) ? `, ${plural(num(ts.malus_left), "malus", "malus")} to come` : "")) : null,
    blockedFor.length ? h("p", { class: "note" }, `closed to ${blockedFor.map((i) => who(i, ctx)).join(", ")} on their next turn`) : null);
}

function market(view, ctx) {
  const m = obj(view.market);
  const names = Object.keys(m).length ? Object.keys(m) : Object.keys(obj(view.deck_sizes));
  const setAside = obj(view.malus_set_aside);
  const out = obj(view.out_of_game);
  const pileN = num(view.malus_pile);
  const malusPanel = h("div", { class: "panel sub sp-malusbox" },
    h("h4", null, "Malus pile"),
    h("div", { class: "sp-rowcards" },
      h("div", { class: "sp-slot sp-deck sp-back-malus" }, pileN ? h("span", { class: "card back", "aria-hidden": "true" }) : h("span", { class: "sp-empty" }, "—"),
        h("small", null, `${pileN} left`))),
    h("details", { class: "sp-fold" }, h("summary", null, `set aside (${Object.values(setAside).reduce((a, n) => a + num(n), 0)})`), tally(setAside, (k) => malusCard(k, null))),
    h("details", { class: "sp-fold" }, h("summary", null, `resources out of the game (${Object.values(out).reduce((a, n) => a + num(n), 0)})`), tally(out, (k) => kindCard(k, null))));
  return section("Market",
    h("div", { class: "sp-market" }, names.map((n) => supplierPanel(n, m[n], view, ctx)), malusPanel),
    h("div", { class: "sp-legend" }, TYPES.map(([t, name]) => h("span", { class: "sp-key sp-t-" + t }, `${t} ${name}`)),
      h("span", { class: "note" }, "· frame: the supplier · dotted: a card in a hand that everybody has seen")));
}

// -- a trade offer ----------------------------------------------------------------------------------------------

function trade(view, ctx) {
  const ts = obj(view.turn_state);
  if (!ts.offer) return null;
  const offer = obj(ts.offer);
  const give = arr(offer.give);
  const ask = arr(offer.ask);
  const asks = legal(ctx, (j) => j.type === "ask");
  const askKinds = [...new Set(asks.map((a) => obj(a.json).card))].filter((k) => typeof k === "string");
  const askCtx = onlyTypes(ctx, ["ask"]);
  const item = (x) => card(String(x), null, parseKind(x) ? kindClass(x) : "sp-malus");
  const from = who(ts.turn_player, ctx);
  const to = who(offer.to, ctx);
  return h("section", { class: "panel sp-trade" + (view.phase === "answer" ? " acting" : "") },
    h("h3", null, `Trade offer: ${from} → ${to}`, h("small", { class: "note" }, view.phase === "answer" ? " · awaiting the answer" : " · being composed")),
    h("div", { class: "row" },
      field(`${from} gives`, give.length ? h("span", { class: "cards" }, give.map(item)) : none("nothing yet"), ctx),
      field(`${from} asks`, ask.length ? h("span", { class: "cards" }, ask.map(item)) : none("nothing yet"), ctx)),
    askKinds.length ? field("ask for", h("span", { class: "cards" }, askKinds.map((k) => kindCard(k, askCtx))), ctx) : null,
    rest(offer, ["to", "give", "ask"], ctx));
}

// -- the players --------------------------------------------------------------------------------------------------

/** Component tiles (the content's, in its order, then any other the view or the actions name): built ones
 * filled, the others dashed; the seat's own buildable ones clickable. */
function components(built0, mine, ctx) {
  const built = arr(built0).map(String);
  const buildable = mine ? legal(ctx, (j) => j.type === "build") : [];
  const known = contentList(ctx, "components").filter((c) => typeof c.name === "string");
  const names = known.map((c) => c.name);
  for (const n of [...built, ...buildable.map((a) => String(obj(a.json).component))]) if (!names.includes(n)) names.push(n);
  return h("div", { class: "sp-phone" }, names.map((n) => {
    const c = known.find((k) => k.name === n);
    const title = (gloss(n) && gloss(n).name) || (c && (str(c.title_en) || str(c.title_fr))) || n;
    // the 2025 board's recipe where the match plays it (its parameter) and the content gives one
    const later = c && obj(ctx.params).screen_precious_metal === true && c.later_recipe ? c.later_recipe : null;
    const recipe = c ? recipeText(later || c.recipe) : "";
    const isBuilt = built.includes(n);
    const el = h("div", { class: "sp-comp" + (isBuilt ? " built" : ""), title: tooltip(n) },
      h("strong", null, title), c && typeof c.points === "number" ? h("small", null, `${c.points} pts`) : null,
      mine && !isBuilt && recipe ? h("small", { class: "sp-recipe" }, recipe) : null);
    return clickable(el, n, buildable.filter((a) => obj(a.json).component === n), ctx, "sp-act");
  }));
}

/** Another player's hand, by supplier: the cards everybody saw go in, face up (dotted), the others as backs. */
function handRows(p) {
  const bySup = obj(p.hand_by_supplier);
  const known = bySupplier(expand(p.known_in_hand));
  const names = Object.keys(bySup);
  const total = names.reduce((a, n) => a + num(bySup[n]), 0);
  if (!total) return null;
  return h("div", { class: "sp-hand" }, names.filter((n) => num(bySup[n]) > 0).map((n) => {
    const code = lookup(CODE, n) || "?";
    const seen = arr(known[code]);
    const hidden = Math.max(0, num(bySup[n]) - seen.length);
    return h("div", { class: "sp-handrow" }, h("small", { class: "sp-sname sp-s-" + code, title: tooltip(n) }, n),
      h("span", { class: "cards" }, seen.map((k) => kindCard(k, null, "sp-seen")),
        hidden ? h("span", { class: "sp-backs sp-back-" + code }, backs(hidden)) : null));
  }));
}

/** What a hand holds at most (the view's at_most_in_hand: non-recycled cards of a type, PolluPlus and PolluMoins
 * together, that event 9 or a harsh 'lose' answered 'done' bounded), as the viewer knows it; on the seat's own
 * panel, what the others know of its hand. */
function atMost(p, ctx, mine) {
  const bounds = Object.entries(obj(p.at_most_in_hand));
  if (!bounds.length) return null;
  const text = bounds.map(([t, n]) => `${num(n)} ${lookup(TYPE_NAME, t) || t}`).join(" · ");
  return field(mine ? "others know you hold at most" : "holds at most", h("span", { class: "note" }, text), ctx);
}

function seatPanel(p0, i, view, ctx) {
  const p = obj(p0);
  const mine = i === ctx.seat;
  const ts = obj(view.turn_state);
  const score = has(p.score) ? p.score : arr(view.scores)[i];
  const tags = [];
  if (i === view.first_player && view.phase !== "over") tags.push("first player");
  if (i === ts.turn_player) tags.push("turn");
  if (obj(ts.offer).to === i) tags.push("trade offered to them");
  if (i === ts.event_target) tags.push("target");
  const offer = legal(ctx, (j) => j.type === "offer" && j.seat === i);
  const offerBtn = offer.length ? clickable(h("span", { class: "sp-offerbtn" }, "offer a trade"), "offer", offer, ctx, "sp-act") : null;
  const malus = expand(p.malus);
  const laid = expand(p.laid);
  const ownHand = mine && view.hand && typeof view.hand === "object";
  const handTotal = Object.values(obj(p.hand_by_supplier)).reduce((a, n) => a + num(n), 0);
  return h("div", { class: "panel sub seat sp-seat" + (arr(ctx.actors).includes(i) ? " acting" : "") + (mine ? " mine" : ""), dataset: { seat: String(i) } },
    h("h4", null, who(i, ctx), h("span", { class: "sp-score", title: "score now (components, recycling bonus, malus penalty)" }, `${has(score) ? score : "—"} pts`),
      tags.map((t) => h("span", { class: "sp-tag" }, t)), offerBtn),
    components(p.built, false, ctx),
    field("laid", laid.length ? h("span", { class: "cards sp-laid" }, laid.map((k) => kindCard(k, null))) : none(), ctx),
    h("div", { class: "sp-block" }, h("span", { class: "key" }, `hand · ${plural(handTotal, "card")}`),
      ownHand ? h("span", { class: "note" }, " (yours, above)") : handRows(p)),
    atMost(p, ctx, mine),
    field("malus", malus.length ? h("span", { class: "cards" }, malus.map((m) => malusCard(m, null)),
      num(p.malus_weight) !== num(p.malus_count) ? h("small", { class: "note" }, ` weight ${p.malus_weight}`) : null) : none(), ctx),
    field("recycled", `${num(p.recycled_owned)} owned · ${num(p.recycled_laid)} laid`, ctx),
    arr(p.blocked).length ? field("blocked", arr(p.blocked).join(", ") + (i === ts.turn_player ? " (this turn)" : " (next turn)"), ctx) : null,
    arr(p.blocked_next).length ? field("blocked", arr(p.blocked_next).join(", ") + " (next turn)", ctx) : null,
    rest(p, SEAT_DRAWN, ctx));
}

// -- the seat's own hand ----------------------------------------------------------------------------------------

function yours(view, ctx) {
  if (!has(view.seat) || !view.hand || typeof view.hand !== "object" || Array.isArray(view.hand)) return null;
  const me = obj(arr(view.players)[view.seat]);
  // in an offer a hand card gives (asking is in the offer's panel); otherwise it discards
  const handCtx = onlyTypes(ctx, view.phase === "offer" ? ["give"] : ["discard"]);
  const cardsHeld = expand(view.hand);
  const known = { ...obj(me.known_in_hand) };
  const groups = bySupplier(cardsHeld);
  const codes = [...SUPPLIERS.map(([, c]) => c), ...Object.keys(groups).filter((c) => !SUPPLIERS.some(([, s]) => s === c))];
  const rows = codes.filter((c) => arr(groups[c]).length).map((c) =>
    h("div", { class: "sp-handrow" }, h("small", { class: "sp-sname sp-s-" + c, title: tooltip(supplierOf(c)) }, supplierOf(c)),
      h("span", { class: "cards" }, arr(groups[c]).map((k) => {
        const seen = num(known[k]) > 0;
        if (seen) known[k] -= 1;
        return kindCard(k, handCtx, seen ? "sp-seen" : "");
      }))));
  const malus = expand(me.malus);
  const malusCtx = onlyTypes(ctx, ["depollute", "give_malus"]);
  const build = legal(ctx, (j) => j.type === "build");
  return h("section", { class: "panel sp-yours" + (arr(ctx.actors).includes(view.seat) ? " acting" : "") },
    h("h3", null, "Your hand", h("small", { class: "note" }, ` · ${plural(cardsHeld.length, "card")}; dotted ones everybody has seen`)),
    h("div", { class: "sp-hand" }, rows.length ? rows : none("no resource card")),
    h("div", { class: "row" },
      field("your malus", malus.length ? h("span", { class: "cards" }, malus.map((m) => again(malusCard(m, malusCtx)))) : none(), ctx),
      field("your phone", components(me.built, true, ctx), ctx)),
    build.length ? h("p", { class: "note" }, "Click a highlighted component to build it (then choose whose cards you lay).") : null);
}

export function render(view0, ctx0) {
  const view = obj(view0);
  const ctx = { ...obj(ctx0), actors: arr(ctx0 && ctx0.actors), legal: arr(ctx0 && ctx0.legal) };
  const players = arr(view.players);
  return h("div", { class: "table smartphone" },
    top(view, ctx),
    yours(view, ctx),
    trade(view, ctx),
    market(view, ctx),
    h("div", { class: "seats sp-seats" }, players.map((p, i) => seatPanel(p, i, view, ctx))),
    rest(view, DRAWN, ctx, "what else this seat knows"));
}
