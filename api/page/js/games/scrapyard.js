// Scrapyard: the day, its phase and the dice; the seat's own hand (the draft's cards to keep, the workshop's cards
// to place), its Reserve, its pending choice and the hands it held today; then each seat's workshop as the table
// sees it — the robot (Head, Body, Arms, Legs: Structure and Upgrades in their slots), the workbenches (the card
// and its REP column, the cubes placed on it), the stock against capacity, Waste, Hours, hand and Reserve (backs
// while hidden) — and the discard pile. The seat's own robot slots, workbenches, stock and covers are clickable
// where one of its legal actions names them. Everything read from the view: no game rule here. Cards on the
// robots, the workbenches and in the seat's hand carry their name from the game's glossary (gloss), when the
// page has it; every chip's tooltip says what the card does.

import { h } from "../dom.js";
import { actionButton, arr, card, clickable, field, gloss, legal, lookup, num, obj, plural, rest, seatName, section, tooltip } from "./common.js";

const DRAWN = ["game", "day", "days", "phase", "terminal", "actors", "direction", "pass", "dice", "deck", "discard",
  "players", "scores", "seat", "hand", "reserve", "pending", "seen", "known_discard", "my_position", "my_score"];
const SEAT_DRAWN = ["robot", "complete", "benches", "stock", "capacity", "extensions", "hours", "hand_size",
  "hand_backs", "hand", "seat", "broke_at_pass", "reserve_backs", "committed", "done", "worked"];

const TYPES = ["head", "body", "arms", "legs"];
/** The tops of the Waste and Hours counters (RULES.md; a view gives the Waste's as its capacity). */
const MAX_WASTE = 12;
const MAX_HOURS = 7;
/** The stock's keys, the letter actions use for each, and its name. */
const RES = [["mech", "M", "Mechanical"], ["motor", "O", "Motor"], ["elec", "E", "Electronics"], ["energy", "N", "Energy"]];
const RES_NAME = Object.fromEntries(RES.map(([, l, n]) => [l, n]));
/** Stock zones: the capacity key, the cover that extends it, its resources. */
const ZONES = [["mech_motor", "left", ["mech", "motor"]], ["elec_energy", "right", ["elec", "energy"]]];
/** A card code's family (its prefix), for colour only. */
const FAMILIES = [[/^SW\d/, "software"], [/^SH\d/, "shield"], [/^WP\d/, "weapon"], [/^MV\d/, "movement"],
  [/^BO\d/, "boost"], [/^[HBAL]\d/, "structure"]];
const PHASES = {
  delivery: ["Delivery", "the dice are rolled and every seat gains what they show; a seat over capacity chooses the cubes it discards"],
  draft: ["Scavenging", "each seat still scavenging keeps one card of its hand face down, or breaks the whole hand for Waste and Hours"],
  purchase: ["Purchase", "a seat may buy one standard Structure from the Merchant for 6 Waste"],
  workshop: ["Workshop", "the Reserves are revealed; each seat places, repairs, dismantles and assembles, then is done"],
  over: ["Game over", "a robot without its four Structures scores 0"],
};

/** Clearer words on the table's buttons for the actions that name no element of the table. */
const LABELS = { break: "break this hand", "buy none": "buy nothing", done: "done for today", clean: "clean (+1 Waste, 1 Hour)",
  subcontract: "subcontract (4 Waste → +1 Hour)" };


function family(code) {
  const hit = FAMILIES.find(([re]) => re.test(String(code)));
  return hit ? hit[1] : "other";
}

/** A card chip, coloured by family (a Structure also by its frame). */
function chip(code, ctx, extra = "") {
  return card(String(code), ctx, ["sy-f-" + family(code), extra].filter(Boolean).join(" "));
}

/** The card's name from the game's glossary ("" when the page has none for it). */
function nameOf(code) {
  const entry = gloss(code);
  const name = entry && typeof entry.name === "string" ? entry.name.trim() : "";
  return name && name !== String(code) ? name : "";
}

/** A card chip with its name in small print beside it (``under``: below it); the chip alone without a name. */
function named(code, ctx, extra = "", under = false) {
  const c = chip(code, ctx, extra);
  const name = nameOf(code);
  if (!name) return c;
  return h("span", { class: "sy-named" + (under ? " sy-under" : "") }, c, h("small", { class: "sy-name", title: tooltip(code) }, name));
}

function chips(list, ctx, extra = "") {
  const items = arr(list);
  if (!items.length) return h("span", { class: "none" }, "none");
  return h("span", { class: "cards" }, items.map((c) => chip(c, ctx, extra)));
}

/** Face-down cards whose back tells a Structure from an Upgrade. */
function kindBacks(kinds) {
  const list = arr(kinds);
  if (!list.length) return h("span", { class: "none" }, "none");
  const s = list.filter((k) => k === "structure").length;
  return h("span", { class: "cards", title: `${s} Structure, ${list.length - s} Upgrade backs` },
    list.map((k) => h("span", { class: "card back sy-back-" + (k === "structure" ? "s" : "u"), "aria-hidden": "true" })),
    h("span", { class: "count" }, `${list.length} (${plural(s, "Structure")}, ${plural(list.length - s, "Upgrade")})`));
}

function backsOf(b) {
  const o = obj(b);
  const s = Math.min(num(o.structures), 30);
  const u = Math.min(num(o.upgrades), 30);
  return kindBacks([...Array(s).fill("structure"), ...Array(u).fill("upgrade")]);
}

/** Cubes as coloured squares, each with its letter: "MMO". Hollow ones are still missing. */
function cube(letter, extra = "") {
  return h("span", { class: `sy-cube sy-r-${letter} ${extra}`.trim(), title: RES_NAME[letter] || letter }, letter);
}

function cubes(text) {
  const s = String(text || "");
  if (!s) return h("span", { class: "none" }, "—");
  return h("span", { class: "sy-cubes" }, [...s].map((l) => cube(l)));
}

/** A REP column against the cubes placed on it: placed ones filled, missing ones hollow. */
function repColumn(rep, placed) {
  const left = {};
  for (const l of String(placed || "")) left[l] = (left[l] || 0) + 1;
  const missing = [];
  const col = [...String(rep || "")].map((l) => {
    if (left[l]) { left[l] -= 1; return cube(l); }
    missing.push(l);
    return cube(l, "sy-hollow");
  });
  return { col: h("span", { class: "sy-cubes sy-rep" }, col), missing: missing.join("") };
}

/** Pips: n filled of max. */
function pips(n, max, cls = "") {
  const out = [];
  const m = Math.min(Math.max(num(max), 0), 20);
  for (let i = 0; i < Math.max(m, Math.min(num(n), 20)); i += 1) {
    out.push(h("span", { class: "sy-pip " + cls + (i < n ? " on" : "") + (i >= m ? " over" : "") }));
  }
  return h("span", { class: "sy-pips", title: `${n} / ${max}` }, out);
}



/** A button on the table for one action. */
function button(a, text, ctx) {
  return actionButton(a, ctx, text, "sy-btn");
}

function describe(json) {
  const j = obj(json);
  switch (j.type) {
    case "keep": return ["keep ", chip(j.card, null)];
    case "break": return "break the hand";
    case "buy": return j.structure === "none" ? "buy nothing" : `buy a standard ${j.structure}`;
    case "overflow": return ["discard ", cubes(j.discard)];
    default: return Object.values(j).map(String).join(" ");
  }
}

// -- the robot, the workbenches, the stock ---------------------------------------------------------------------

function robot(p, mine, ctx) {
  const r = obj(p.robot);
  return h("div", { class: "sy-robot" + (p.complete ? " sy-complete" : "") }, TYPES.map((t) => {
    const slot = obj(r[t]);
    const s = slot.structure;
    const ups = arr(slot.upgrades);
    const free = Math.max(0, num(slot.slots) - ups.length);
    const std = gloss("standard");
    const body = s === null || s === undefined ? h("span", { class: "sy-nostruct" }, "empty")
      : s === "standard" ? h("span", { class: "sy-std", title: std && typeof std.text === "string" ? `Standard Structure — ${std.text}`
        : "a standard Structure from the Merchant" }, "standard")
        : named(s, null, "sy-structure");
    const el = h("div", { class: "sy-slot sy-t-" + t + (s ? "" : " sy-free"), dataset: { slot: t } },
      h("small", { class: "sy-label" }, t),
      body,
      h("span", { class: "cards sy-ups" }, ups.map((u) => named(u, null, "sy-up")),
        Array.from({ length: Math.min(free, 8) }, () => h("span", { class: "sy-openslot", title: "free Upgrade slot" }))));
    if (mine) clickable(el, t, legal(ctx, (j) => (j.type === "buy" || j.type === "assemble") && j.structure === t), ctx, "sy-act");
    return el;
  }));
}

function benches(p, mine, ctx) {
  const list = arr(p.benches);
  if (!list.length) return null;
  return h("div", { class: "sy-benches" }, list.map((b0, n) => {
    const b = obj(b0);
    const no = b.bench !== undefined ? b.bench : n + 1;
    const acts = mine ? legal(ctx, (j) => j.bench === no) : [];
    if (!b.card) {
      return h("div", { class: "sy-bench sy-empty" }, h("small", { class: "sy-label" }, `bench ${no}`),
        h("span", { class: "none" }, "empty"), acts.length ? h("div", { class: "sy-btns" }, acts.map((a) => button(a, a.text, ctx))) : null);
    }
    const { col, missing } = repColumn(b.rep, b.placed);
    return h("div", { class: "sy-bench" + (b.repaired ? " sy-repaired" : "") },
      h("small", { class: "sy-label" }, `bench ${no}`),
      named(b.card, null),
      h("div", { class: "sy-need" }, h("small", null, "REP "), col),
      h("small", { class: b.repaired ? "sy-ok" : "sy-missing" }, b.repaired ? "repaired" : missing ? `needs ${missing}` : ""),
      acts.length ? h("div", { class: "sy-btns" }, acts.map((a) => button(a, String(a.text).replace(/\s+b\d+\b/, ""), ctx))) : null);
  }));
}

function stock(p, mine, ctx) {
  const st = obj(p.stock);
  const cap = obj(p.capacity);
  const ext = obj(p.extensions);
  const zones = ZONES.map(([key, side, keys]) => {
    const used = keys.reduce((sum, k) => sum + num(st[k]), 0);
    const capacity = num(cap[key]);
    const res = RES.filter(([k]) => keys.includes(k)).map(([k, letter, name]) => {
      const el = h("span", { class: `sy-res sy-r-${letter}`, title: name }, `${letter} ${num(st[k])}`);
      return mine ? clickable(el, letter, legal(ctx, (j) => j.type === "exchange" && j.resource === letter), ctx, "sy-act") : el;
    });
    const coverText = ext[side] ? `${side} cover removed` : `${side} cover on`;
    let cover = h("small", { class: "sy-cover" + (ext[side] ? " off" : "") }, coverText);
    if (mine) cover = clickable(cover, side, legal(ctx, (j) => j.type === "expand" && j.side === side), ctx, "sy-act");
    return h("div", { class: "sy-zone" + (used > capacity ? " sy-over" : "") },
      res, pips(used, capacity), h("small", null, `${used}/${capacity}`), cover);
  });
  const waste = h("div", { class: "sy-zone" }, h("span", { class: "sy-res sy-waste", title: "Waste (the currency)" }, `Waste ${num(st.waste)}`),
    h("small", null, `/${cap.waste !== undefined ? cap.waste : MAX_WASTE}`),
    h("span", { class: "sy-res sy-hours", title: "Hours" }, `Hours ${num(p.hours)}`), pips(num(p.hours), MAX_HOURS, "sy-h"));
  const overflow = mine ? legal(ctx, (j) => j.type === "overflow") : [];
  return h("div", { class: "sy-stock" }, zones, waste,
    overflow.length ? h("div", { class: "sy-btns sy-overflow" }, h("small", null, "over capacity: discard "),
      overflow.map((a) => button(a, cubes(a.json.discard), ctx))) : null);
}

function status(p, i, view, ctx) {
  const phase = view.phase;
  const acting = arr(ctx.actors).includes(i);
  const out = [];
  if (phase === "draft") {
    if (p.broke_at_pass !== null && p.broke_at_pass !== undefined) out.push(`broke at pass ${num(p.broke_at_pass) + 1}`);
    else if (p.committed) out.push("has chosen");
    else out.push(acting ? "choosing" : "scavenging");
  } else if (phase === "purchase" || phase === "delivery") {
    if (p.committed) out.push("has chosen");
    else if (acting) out.push(phase === "delivery" ? "discarding cubes" : "buying?");
  } else if (phase === "workshop") {
    out.push(p.done ? "done" : "working");
  } else if (phase === "over") {
    out.push(p.complete ? "robot complete" : "robot incomplete");
  }
  // a closed workshop: the others see a seat as revealed, and how many actions it has taken since
  if (p.worked !== undefined && phase === "workshop") {
    out.push(i === ctx.seat ? `${plural(num(p.worked), "action")} the others see only as a count`
      : `${plural(num(p.worked), "hidden action")} (shown as revealed)`);
  }
  return out.join(" · ");
}

function seatPanel(p0, i, view, ctx) {
  const mine = i === ctx.seat;
  // a seat sees its own live position in the workshop (in a closed workshop the others see it as revealed)
  const p = mine && view.my_position && typeof view.my_position === "object" ? { ...obj(p0), ...view.my_position } : obj(p0);
  const score = mine && typeof view.my_score === "number" ? view.my_score : arr(view.scores)[i];
  const ownHand = mine && Array.isArray(view.hand) && arr(view.hand).length > 0;
  const hand = ownHand ? h("span", { class: "note" }, `${plural(arr(view.hand).length, "card")} (above)`)
    : Array.isArray(p.hand) ? chips(p.hand, null) : backsOf(p.hand_backs);
  // the Reserve is face down until the workshop; from then on its cards are in hand, and its backs only say
  // what the seat kept today
  const hidden = view.phase === "draft" || view.phase === "purchase";
  const kept = arr(p.reserve_backs);
  const reserve = !hidden ? null
    : mine && arr(view.reserve).length ? field("reserve", h("span", { class: "note" }, `${plural(arr(view.reserve).length, "card")} (above)`), ctx)
      : kept.length ? field("reserve", kindBacks(kept), ctx) : null;
  const keptNote = !hidden && kept.length ? h("small", { class: "note" }, `kept ${plural(kept.length, "card")} today`) : null;
  const st = status(p, i, view, ctx);
  return h("div", { class: "panel sub seat sy-seat" + (arr(ctx.actors).includes(i) ? " acting" : "") + (mine ? " mine" : ""), dataset: { seat: String(i) } },
    h("h4", null, seatName(i, ctx), h("span", { class: "sy-score", title: "score (a robot without its four Structures scores 0)" }, `${score === undefined || score === null ? "—" : score} VP`),
      st ? h("span", { class: "sy-status" }, st) : null),
    robot(p, mine, ctx),
    benches(p, mine, ctx),
    stock(p, mine, ctx),
    h("div", { class: "sy-cardsrow" }, field("hand", hand, ctx), reserve, keptNote),
    rest(p, [...SEAT_DRAWN, "my_position"], ctx));
}

// -- the seat's own cards ---------------------------------------------------------------------------------------

function yours(view, ctx) {
  if (view.seat === null || view.seat === undefined || !Array.isArray(view.hand)) return null;
  const me = obj(arr(view.players)[view.seat]);
  const pending = obj(view.pending);
  const chosen = pending.type === "keep" ? pending.card : null;
  const hand = arr(view.hand).map((c) => named(c, ctx, c === chosen ? "sy-chosen" : "", true));
  if (view.phase === "over" && !hand.length && !arr(view.reserve).length && !arr(ctx.legal).length) return null;
  const handled = (j) => ["keep", "place", "exchange", "expand", "overflow"].includes(j.type) || j.bench !== undefined
    || ((j.type === "buy" || j.type === "assemble") && TYPES.includes(j.structure));
  const others = legal(ctx, (j) => !handled(j));
  const reserve = arr(view.reserve);
  if (!hand.length && !reserve.length && !view.pending && !others.length && !arr(view.seen).length) return null;
  let hint = null;
  if (view.phase === "draft" && me.broke_at_pass !== null && me.broke_at_pass !== undefined) hint = `You broke a hand at pass ${num(me.broke_at_pass) + 1}: you are out of today's draft.`;
  else if (view.phase === "draft" && hand.length) {
    // a break gains a Waste and an Hour a card, up to the counters' tops (12 Waste, 7 Hours: RULES.md)
    const top = num(obj(me.capacity).waste) || MAX_WASTE;
    const waste = Math.max(0, Math.min(hand.length, top - num(obj(me.stock).waste)));
    const hours = Math.max(0, Math.min(hand.length, MAX_HOURS - num(me.hours)));
    hint = `Keep one card (face down in your Reserve), or break the hand: +${waste} Waste, +${hours} Hours` +
      (waste < hand.length || hours < hand.length ? ` (the counters stop at ${top} Waste and ${MAX_HOURS} Hours).` : ".");
  }
  else if (view.phase === "workshop" && hand.length) hint = "Click a card to place it on your lowest-numbered empty workbench.";
  return section("Your hand",
    h("div", { class: "row" },
      hand.length ? h("div", { class: "sy-hand" }, h("span", { class: "cards" }, hand))
        : reserve.length ? null : h("span", { class: "none" }, "no card in hand"),
      reserve.length ? field("your reserve", chips(reserve, null, "down"), ctx) : null,
      view.pending ? field("your choice", h("span", { class: "sy-pending" }, describe(view.pending), h("small", null, " (hidden until everybody has chosen)")), ctx) : null,
      others.length ? h("div", { class: "sy-btns" }, others.map((a) => button(a, lookup(LABELS, a.text) || a.text, ctx))) : null),
    hint ? h("p", { class: "note" }, hint) : null,
    seen(view, ctx));
}

function seen(view, ctx) {
  const list = arr(view.seen);
  if (!list.length) return null;
  return h("details", { class: "sy-seen" }, h("summary", null, `hands you held today (${list.length})`),
    h("table", { class: "grid" },
      h("thead", null, h("tr", null, h("th", null, "pass"), h("th", null, "dealt to"), h("th", null, "hand"), h("th", null, "you"))),
      h("tbody", null, list.map((s0) => {
        const s = obj(s0);
        const did = obj(s.did);
        return h("tr", null, h("td", null, String(num(s.pass) + 1)), h("td", null, seatName(s.dealt_to, ctx)),
          h("td", null, chips(s.hand, null)),
          h("td", null, s.did ? (did.type === "keep" ? ["kept ", chip(did.card, null)] : describe(did)) : h("span", { class: "none" }, "now")));
      }))));
}

// -- the table --------------------------------------------------------------------------------------------------

function dice(d) {
  const o = obj(d);
  return h("span", { class: "sy-dice" }, RES.filter(([k]) => k in o).map(([k, letter, name]) =>
    h("span", { class: `sy-die sy-r-${letter}`, title: `${name} die: ${o[k]}` }, h("strong", null, String(o[k])), h("small", null, letter))));
}

function top(view, ctx) {
  const [name, what] = lookup(PHASES, view.phase) || [String(view.phase), ""];
  const deck = obj(view.deck);
  const disc = obj(view.discard);
  const day = view.day !== undefined ? `Day ${view.day} of ${view.days}` : "";
  let sub = name;
  if (view.phase === "draft") sub += ` · pass ${num(view.pass) + 1} · hands go to the ${view.direction}`;
  const scores = arr(view.scores);
  return section(`${day} · ${sub}`,
    what ? h("p", { class: "note" }, what[0].toUpperCase() + what.slice(1) + ".") : null,
    h("div", { class: "row" },
      field("dice", dice(view.dice), ctx),
      field("deck", `${num(deck.size)} cards (${num(deck.structures)} S · ${num(deck.upgrades)} U)`, ctx),
      field("discard pile", `${num(disc.size)} cards (${num(disc.structures)} S · ${num(disc.upgrades)} U)`, ctx),
      view.phase !== "draft" && view.phase !== "over" && view.direction ? field("today's hands pass", `to the ${view.direction}`, ctx) : null),
    view.phase === "over" && scores.length ? h("div", { class: "row sy-final" }, scores.map((s, i) =>
      h("span", { class: "sy-final-score" + (i === ctx.seat ? " mine" : "") }, `${seatName(i, ctx)}: `, h("strong", null, `${s} VP`)))) : null);
}

function discard(view) {
  const disc = obj(view.discard);
  const pub = arr(disc.public);
  const known = new Set(pub);
  const more = arr(view.known_discard).filter((c) => !known.has(c));
  return h("section", { class: "panel sy-discard" }, h("h3", null, `Discard pile (${plural(num(disc.size), "card")})`),
    field("face up", chips(pub, null), null),
    more.length ? field("you also know", chips(more, null, "down"), null) : null,
    rest(disc, ["size", "structures", "upgrades", "public"], null));
}

export function render(view0, ctx0) {
  const view = obj(view0);
  const ctx = { ...obj(ctx0), actors: arr(ctx0 && ctx0.actors), legal: arr(ctx0 && ctx0.legal) };
  const players = arr(view.players);
  return h("div", { class: "table scrapyard" },
    top(view, ctx),
    yours(view, ctx),
    h("div", { class: "seats sy-seats" }, players.map((p, i) => seatPanel(p, i, view, ctx))),
    discard(view),
    rest(view, DRAWN, ctx, "what else this seat knows"));
}
