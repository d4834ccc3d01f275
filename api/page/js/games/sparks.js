// Sparks: the round and phase, the junkyard's dice to draft from, the shared supply (bag, discard, decks, upgrade
// tile stacks, goals), the four score tracks with their bonus tiles and every player's marker, and per player its
// factory (level, upgrade section), assembly line (robots with their die spaces and the dice on them), completed
// robots and power boxes, production tiles, dice, cogs, sparks, assistants and pending choices; the seat's own
// hand (and draft hand, drawn robots) below. Dice are drawn as dice; the dice, spaces, robots, assistants, tiles
// and tracks that one of the seat's legal actions names are clickable. Everything is read from the view; the card
// texts (a robot's spaces, an assistant's effect) come from the default content (data.py), which is the only
// content a match of the service can have (content cannot be set over HTTP): a card not in it is drawn by name.

import { h, label } from "../dom.js";
import { backs, card, field, rest, seatName, section } from "./common.js";

const DRAWN = ["game", "phase", "actors", "turn", "turns", "round", "first_player", "active", "secondary_turn",
  "started", "terminal", "scores", "junkyard", "bag", "discard", "robot_deck", "assistant_deck", "stacks", "bonus",
  "goals", "taker", "players", "solo", "seat", "hand", "drawn", "draft_hand", "draft_pick", "drawn_known"];
const PLAYER_DRAWN = ["colour", "cogs", "sparks", "level", "tracks", "dice", "upgrade", "storage", "line", "tiles",
  "tableau", "boxes_used", "boxes_cog", "hand_size", "played", "conrad", "production_used", "pending", "marked",
  "recycle", "held", "silas", "upgrade_bonus", "used", "reroll_tile", "rearranged", "completed_this_turn", "done",
  "drawn", "draft_hand_size", "draft_committed", "goals_met"];

const COLOURS = ["red", "blue", "green", "yellow"];
const LETTER = { red: "R", blue: "B", green: "G", yellow: "Y" };
const BY_LETTER = { R: "red", B: "blue", G: "green", Y: "yellow" };

// -- the default content (src/robotcore/games/sparks/data.py) -----------------------------------------------------

/** The 15 robot templates: spaces [colour (X = the card's, O / O2 = the next ones, null = any), value (0 = any)],
 * the track advance, the immediate reward, the power box. Card "G7" is template 7 in green. */
const ROBOTS = [null,
  { s: [["X", 0], ["X", 0]], a: 1, r: "1 cog" },
  { s: [["X", 0], ["X", 0]], a: 1, b: "2 cogs" },
  { s: [["X", 0], [null, 6]], a: 2 },
  { s: [["X", 0], [null, 1]], a: 1, r: "1 spark" },
  { s: [["X", 5], ["X", 0]], a: 2 },
  { s: [["X", 2], ["X", 0]], a: 1, b: "reroll any of your dice" },
  { s: [["X", 0], ["O", 0]], a: 1, r: "draw 1 assistant" },
  { s: [["X", 0], ["X", 0], ["X", 0]], a: 3 },
  { s: [["X", 0], ["X", 0], ["O", 0]], a: 2, r: "1 cog", b: "±1 to one die" },
  { s: [["X", 6], ["X", 6]], a: 3 },
  { s: [["X", 1], ["X", 1]], a: 2, r: "1 spark" },
  { s: [["X", 0], [null, 4], [null, 4]], a: 2, b: "1 die from the bag" },
  { s: [["X", 3], ["X", 4]], a: 2, b: "advance 1 on any track" },
  { s: [["X", 0], ["O", 0], ["O2", 0]], a: 2, r: "1 die of its colour" },
  { s: [["X", 0], ["X", 0], [null, 5]], a: 2, b: "+2 towards the next upgrade" },
];

const ASSISTANTS = {
  Conrad: ["one-time", "copies another played assistant (effect and points)"],
  Emma: ["once a round", "a cog may stand for a spark on a power box"],
  Frank: ["once a turn", "discard a 1 or 2 die: advance 1 on its colour's track"],
  Gordon: ["permanent", "ignoring a colour costs 1 cog"],
  Max: ["permanent", "on completing a robot with a box: 1 cog fires it at once"],
  Margot: ["permanent", "+2 towards every upgrade"],
  Theodora: ["permanent", "+2 towards every upgrade"],
  Octavia: ["once a turn", "turn a die to its opposite face"],
  Olympia: ["one-time", "fire two different power boxes of yours"],
  Penelope: ["permanent", "a red advance may go to any track"],
  Walter: ["permanent", "a blue advance may go to any track"],
  Quincy: ["permanent", "on others' turns, take your die from anywhere"],
  Silas: ["permanent", "discard a die: spread its pips as ±1 over your dice"],
  Warren: ["one-time", "take every die left in the junkyard"],
  Terry: ["one-time", "1 cog: complete a green robot of your line"],
  John: ["one-time", "1 cog: complete a red robot of your line"],
  Graham: ["one-time", "1 cog: complete a blue robot of your line"],
  Michael: ["one-time", "1 cog: complete a yellow robot of your line"],
  D1: ["one-time", "3 cogs"],
  D2: ["one-time", "2 sparks"],
  D3: ["one-time", "take an upgrade tile"],
  D4: ["one-time", "2 dice from the bag"],
  D5: ["one-time", "advance 2 on any tracks"],
  D6: ["once a turn", "a free ±1 to one die"],
  D7: ["once a turn", "reroll one die"],
  D8: ["permanent", "sell dice for 1 more cog"],
  D9: ["once a turn", "ignore one value requirement"],
  D10: ["one-time", "play another assistant for free"],
  D11: ["one-time", "+3 towards the next upgrade"],
  D12: ["one-time", "a die of any colour and value"],
};

const TILES = {
  rearrange: "move your placed dice between spaces",
  discount: "assistants cost 1 cog less",
  sales_boost: "sell dice for 2 cogs",
  ignore_colour: "your colour's dice ignore colours for free",
  ignore_value: "your colour's dice ignore values for free",
  bonus_point: "slot: +1 track advance on completion",
  bonus_cog: "slot: +1 cog on completion",
  recycle: "slot: reuse a die of the completed robot",
};

const GOALS = {
  assistants: "play 5 assistants", level: "reach level 4", same_colour: "complete 4 robots of one colour",
  power_boxes: "complete 4 robots with a power box", sparks: "have 4 sparks", third_bonus: "pass the third bonus space of 2 tracks",
};

const PRODUCTION = [["t2", "2 dice from an end + 2 from the bag"], ["t3", "3 adjacent dice from anywhere"],
  ["t4", "4 dice from an end, and a reroll"], ["t5", "5 dice from an end"]];
const TRACK_POINTS = [1, 2, 3, 4, 5, 6, 8, 10, 12, 14, 17, 20];
const BONUS_AFTER = [2, 5, 8];
const THRESHOLDS = [5, 7, 9, 11, 13];
const LEVEL_REWARDS = ["spark", "tile", "spark", "tile", "spark"];
const PHASES = {
  draft: "Assistant draft: everyone keeps one assistant of the hand in front of them and passes the rest on.",
  refill: "Assembly lines: the players with a free slot draw robots and place them, one player at a time.",
  take: "Taking dice from the junkyard.",
  action: "Action phase: everyone builds robots, upgrades the factory, recruits and fires boxes at once, then says done.",
  over: "The game is over.",
};

// -- small pieces -------------------------------------------------------------------------------------------------

const lookup = (table, key) => (Object.prototype.hasOwnProperty.call(table, String(key)) ? table[String(key)] : undefined);
const letter = (colour) => lookup(LETTER, colour) || "X";
const arr = (x) => (Array.isArray(x) ? x : []);
const obj = (x) => (x && typeof x === "object" && !Array.isArray(x) ? x : {});
const num = (x) => (typeof x === "number" && Number.isFinite(x) ? x : 0);

/** The legal actions that name `text` and satisfy `pred` (on their JSON form). */
function acts(ctx, text, pred) {
  if (!ctx || !ctx.cardActions || text === null || text === undefined) return [];
  return ctx.cardActions(text).filter((a) => pred((a && a.json) || {}));
}

/** A ctx whose cardActions keep only the actions `pred` accepts (a robot "R3" and a die "R3" share a name). */
function only(ctx, pred) {
  return ctx ? { ...ctx, cardActions: (t) => acts(ctx, t, pred) } : null;
}

/** Make attrs clickable when actions name it: the choice goes through ctx.pick (one action plays, several filter
 * the side panel's buttons). */
function clickable(attrs, ctx, text, actions) {
  if (!actions.length || !ctx || !ctx.pick) return attrs;
  const go = (e) => { e.stopPropagation(); ctx.pick(text, actions); };     // a space inside a clickable slot
  return {
    ...attrs, class: attrs.class + " playable", role: "button", tabindex: "0", onclick: go,
    title: `${attrs.title ? attrs.title + " — " : ""}${actions.map((a) => a.text).slice(0, 6).join(", ")}${actions.length > 6 ? "…" : ""}`,
    onkeydown: (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); go(e); } },
  };
}

const PIPS = { 1: [4], 2: [2, 6], 3: [2, 4, 6], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8] };

/** A die "R3" as a die face (colour and pips); clickable for `actions`. Anything else as its text. */
function die(text, ctx = null, actions = [], extra = "") {
  const m = /^([RBGY])([1-6])$/.exec(String(text));
  if (!m) return h("span", { class: "sp-die odd" + (extra ? " " + extra : "") }, String(text));
  const [, c, v] = m;
  const on = PIPS[v];
  const attrs = clickable({ class: `sp-die d-${c}${extra ? " " + extra : ""}`, title: `${BY_LETTER[c]} ${v}`, dataset: { die: text } }, ctx, text, actions);
  return h("span", attrs, h("span", { class: "sp-sr" }, text),
    [0, 1, 2, 3, 4, 5, 6, 7, 8].map((k) => h("span", { class: on.includes(k) ? "pip on" : "pip" })));
}

/** One of the viewer's dice: clickable for the actions naming it (not a recycle or die choice). */
function ownDie(text, ctx, pred = (j) => j.die === text && j.type !== "recycle" && j.type !== "die_choice") {
  return die(text, ctx, acts(ctx, text, pred));
}

function dice(list, make) {
  const l = arr(list);
  if (!l.length) return h("span", { class: "none" }, "none");
  return h("span", { class: "sp-dice" }, l.map(make));
}

/** Counts by colour: {red: 3, ...} as coloured chips. */
/** An object keyed by colour as [colour, value] pairs, the four colours first in the board's order. */
function byColour(o) {
  const x = obj(o);
  return [...COLOURS.filter((c) => c in x), ...Object.keys(x).filter((c) => !COLOURS.includes(c))].map((c) => [c, x[c]]);
}

function counts(o) {
  const entries = byColour(o);
  if (!entries.length) return h("span", { class: "none" }, "none");
  return h("span", { class: "sp-counts" }, entries.map(([c, n]) =>
    h("span", { class: `sp-count d-${letter(c)}`, title: `${n} ${c}` }, String(n))));
}

function seatClass(i, ctx, base) {
  return base + ((ctx.actors || []).includes(i) ? " acting" : "") + (ctx.seat === i ? " mine" : "");
}

/** A seat's marker (a disc of its colour with its number). */
function marker(i, players, ctx) {
  const colour = obj(players[i]).colour;
  return h("span", { class: `sp-marker d-${letter(colour)}${ctx.seat === i ? " mine" : ""}`, title: seatName(i, ctx) }, String(i));
}

/** A bonus tile's text ("cogs x2", "die_colour green") read as words. */
function bonusText(t) {
  const m = /^([a-z_]+)(?: x(\d+))?(?: (red|blue|green|yellow))?$/.exec(String(t));
  if (!m) return String(t);
  const [, kind, n, colour] = m;
  const k = Number(n || 1);
  const words = {
    cogs: `${k} cog${k > 1 ? "s" : ""}`, sparks: `${k} spark${k > 1 ? "s" : ""}`, die: `${k} die from the bag`,
    die_colour: `${colour} die`, advance_any: `advance ${k} on any track`, advance: `advance ${k} ${colour || ""}`,
    tile: "an upgrade tile", cog_assistant: "1 cog + 1 assistant", assistant: `${k} assistant${k > 1 ? "s" : ""}`,
    reroll: "reroll", adjust: "±1 to a die", factory: `+${k} towards an upgrade`,
  };
  return lookup(words, kind) || String(t);
}

/** A robot card's template (spaces with their colours resolved), or null for a card outside the default content. */
function robotInfo(name) {
  const m = /^([RBGY])([0-9]{1,2})$/.exec(String(name));
  const t = m && ROBOTS[Number(m[2])];
  if (!t) return null;
  const ci = COLOURS.indexOf(BY_LETTER[m[1]]);
  const col = (x) => (x === "X" ? COLOURS[ci] : x === "O" ? COLOURS[(ci + 1) % 4] : x === "O2" ? COLOURS[(ci + 2) % 4] : null);
  return { colour: COLOURS[ci], spaces: t.s.map(([c, v]) => ({ colour: col(c), value: v })), advance: t.a, reward: t.r || null, box: t.b || null };
}

function robotNote(name) {
  const info = robotInfo(name);
  if (!info) return null;
  return h("span", { class: "sp-robot-note" },
    h("span", { class: "sp-adv", title: `completing it advances ${info.advance} on the ${info.colour} track` }, `+${info.advance}`),
    info.reward ? h("span", { class: "sp-reward", title: "immediate reward" }, info.reward) : null,
    info.box ? h("span", { class: "sp-box", title: "power box (a spark fires it once a round)" }, `▣ ${info.box}`) : null);
}

const robotCtx = (ctx) => only(ctx, (j) => ["assign", "spark_box", "cog_box", "free_box"].includes(j.type));
const assistantCtx = (ctx) => only(ctx, (j) => ["recruit", "draft", "copy"].includes(j.type));

function assistant(name, ctx, extra = "") {
  const info = lookup(ASSISTANTS, name);
  return h("span", { class: "sp-assistant", title: info ? `${name} (${info[0]}): ${info[1]}` : String(name) },
    card(name, ctx ? assistantCtx(ctx) : null, extra), info ? h("small", null, info[1]) : null);
}

function assistants(list, ctx, extra = "") {
  const l = arr(list);
  if (!l.length) return h("span", { class: "none" }, "none");
  return h("span", { class: "sp-assistants" }, l.map((a) => assistant(a, ctx, extra)));
}

// -- the shared table ---------------------------------------------------------------------------------------------

function pendingText(p, seatView) {
  const t = obj(p).type;
  const arg = obj(p).arg;
  switch (t) {
    case "advance": return arg >= 0 && arg < 4 ? `advance 1 on the ${COLOURS[arg]} track (or another, if it is full)` : "advance 1 on any track";
    case "tile": return "take an upgrade tile";
    case "reroll": return "mark dice to reroll, then roll";
    case "adjust": return `free ±1 steps on your dice (${arg} left), or skip`;
    case "silas": return `Silas: spread ${num(seatView.silas)} pips as ±1 steps, or skip`;
    case "recycle_pick": return "Recycle: choose a die of the completed robot, or skip";
    case "recycle_place": return "Recycle: place the held die on another robot, or skip";
    case "max": return "Max: pay 1 cog to fire the completed robot's box now, or skip";
    case "olympia": return `Olympia: fire ${num(arg) >> 6 || "the"} power box(es) for free, or skip`;
    case "conrad": return "Conrad: choose the played assistant to copy";
    case "complete": return `pay 1 cog to complete a ${COLOURS[arg] || ""} robot, or skip`;
    case "free_play": return "play an assistant from hand for free, or skip";
    case "die_choice": return "take a die of any colour and value";
    default: return String(t);
  }
}

function top(view, ctx) {
  const players = arr(view.players);
  const n = players.length || 1;
  const rounds = n === 1 ? Math.ceil(num(view.turns) / 2) : Math.ceil(num(view.turns) / n);
  const phase = String(view.phase);
  let decide = lookup(PHASES, phase) || `Phase: ${phase}.`;
  const taker = view.taker;
  if (phase === "take" && typeof taker === "number") {
    decide = taker === view.active && !view.secondary_turn
      ? `${seatName(taker, ctx)} plays a production tile and takes its dice from the junkyard.`
      : `${seatName(taker, ctx)} takes ${n <= 2 ? "2 dice" : "1 die"} from ${n <= 2 ? "the same end" : "an end"} of the junkyard.`;
  } else if (phase === "refill" && typeof taker === "number") {
    decide = `${seatName(taker, ctx)} refills its assembly line (draws robots, places them in free slots).`;
  } else if (phase === "action") {
    if (n === 1) decide = "Action phase: build robots, upgrade the factory, recruit assistants, fire power boxes, then say done.";
    const done = players.map((p, i) => (obj(p).done ? i : null)).filter((i) => i !== null);
    if (done.length) decide += ` Done: ${done.map((i) => seatName(i, ctx)).join(", ")}.`;
  } else if (phase === "over") {
    const scores = arr(view.scores);
    const best = Math.max(...scores.map(num), 0);
    const order = scores.map((s, i) => [num(s), i]).sort((a, b) => b[0] - a[0]);
    decide = `The game is over. Scores: ${order.map(([s, i]) => `${seatName(i, ctx)} ${s}`).join(", ")}` +
      (n > 1 ? ` (highest: ${order.filter(([s]) => s === best).map(([, i]) => seatName(i, ctx)).join(", ")}; ties break on cogs, level, robots).` : ".");
  }
  const title = phase === "draft" || phase === "over" && !view.started
    ? `Sparks · ${phase}`
    : `Round ${num(view.round) + 1} of ${rounds} · turn ${num(view.turn) + 1} of ${num(view.turns)}` +
      (view.secondary_turn ? " (secondary turn)" : n === 1 ? " (regular turn)" : "") + ` · ${phase}`;
  const solo = view.solo && typeof view.solo === "object" ? view.solo : null;
  return section(title,
    h("p", { class: "sp-decide" }, decide),
    h("div", { class: "row" },
      n > 1 && phase !== "over" ? field("active player", typeof view.active === "number" ? seatName(view.active, ctx) : String(view.active), ctx) : null,
      n > 1 ? field("first player", typeof view.first_player === "number" ? seatName(view.first_player, ctx) : String(view.first_player), ctx) : null,
      field("goal tiles", arr(view.goals).length
        ? h("span", { class: "sp-goals" }, arr(view.goals).map((g) => h("span", { class: "sp-goal", title: String(g) }, lookup(GOALS, g) || label(g))))
        : h("span", { class: "none" }, "none"), ctx),
      solo ? field("solo game", `${solo.won ? "won! " : phase === "over" ? "lost: " : ""}to win, ${num(solo.target)} points and every goal tile met (goals: ${solo.goals_met ? "all met" : phase === "over" ? "not all met" : "not all met yet"})`, ctx) : null),
    solo ? rest(solo, ["target", "goals_met", "won"], ctx, "solo: more") : null);
}

function junkyard(view, ctx) {
  const jy = arr(view.junkyard);
  const posActs = (i) => acts(ctx, String(i), (j) => (j.type === "pick" || j.type === "take") && j.position === String(i));
  return h("div", { class: "sp-junkyard" },
    jy.length ? jy.map((d, i) => h("span", { class: "sp-jpos" }, die(d, ctx, posActs(i), "big"), h("small", null, String(i))))
      : h("span", { class: "none" }, "empty"));
}

function supply(view, ctx) {
  const deck = obj(view.robot_deck);
  const bottom = arr(deck.bottom);
  const stacks = arr(view.stacks);
  const tileCtx = (t) => acts(ctx, t, (j) => j.type === "tile" && j.tile === t);
  return h("div", { class: "row sp-supply" },
    section("Junkyard", junkyard(view, ctx), arr(view.junkyard).length ? h("p", { class: "note" }, "dice are taken as a run from the left or right end (numbers: positions)") : null),
    section("Supply",
      field("bag", counts(view.bag), ctx),
      field("discard", counts(view.discard), ctx),
      field("robot deck", h("span", null, `${num(deck.shuffled)} shuffled`,
        bottom.length ? h("span", { class: "sp-under" }, " · under it: ",
          bottom.map((c) => (typeof c === "string" ? card(c, null, "small") : h("span", { class: "card back", title: "unknown", "aria-hidden": "true" })))) : null), ctx),
      rest(deck, ["shuffled", "bottom"], ctx, "robot deck: more"),
      field("assistant deck", `${num(view.assistant_deck)} cards`, ctx),
      field("upgrade tiles", stacks.length ? h("span", { class: "sp-tiles" }, stacks.map((t) =>
        h("span", clickable({ class: "sp-tile", title: lookup(TILES, t) || String(t) }, ctx, t, tileCtx(t)), label(t)))) : h("span", { class: "none" }, "none"), ctx)));
}

function tracks(view, ctx) {
  const players = arr(view.players);
  const bonus = obj(view.bonus);
  const rows = COLOURS.map((c) => {
    const on = (pos) => players.map((p, i) => (num(obj(obj(p).tracks)[c]) === pos ? marker(i, players, ctx) : null));
    const cells = [h("div", { class: "sp-cell start" }, h("small", null, "start"), h("span", { class: "sp-markers" }, on(0)))];
    const tiles = arr(bonus[c]);
    TRACK_POINTS.forEach((pts, k) => {
      cells.push(h("div", { class: "sp-cell" }, h("small", null, String(pts)), h("span", { class: "sp-markers" }, on(k + 1))));
      const b = BONUS_AFTER.indexOf(k + 1);
      if (b >= 0) {
        const t = tiles[b];
        cells.push(h("div", { class: "sp-cell bonus", title: t === undefined ? "bonus space" : String(t) }, h("small", null, "bonus"), t === undefined ? null : bonusText(t)));
      }
    });
    const pick = acts(ctx, c, (j) => j.type === "track" && j.track === c);
    return h("div", { class: `sp-track t-${letter(c)}` },
      h("div", clickable({ class: `sp-track-name d-${letter(c)}`, title: `${c} track` }, ctx, c, pick), c), cells);
  });
  const extra = Object.keys(bonus).filter((c) => !COLOURS.includes(c));
  return section("Score tracks",
    h("div", { class: "sp-tracks" }, rows),
    h("p", { class: "note" }, "numbers: points of each space; a bonus space pays its tile to every player who passes it"),
    extra.length ? rest(bonus, COLOURS, ctx, "other bonus tiles") : null);
}

// -- a player -----------------------------------------------------------------------------------------------------

function space(id, content, ctx, extra = "", title = "") {
  const a = acts(ctx, id, (j) => j.space === id || j.to === id || j.type === "rearrange" && j.space === id);
  return h("span", clickable({ class: "sp-space" + (extra ? " " + extra : ""), title: title || id, dataset: { space: id } }, ctx, id, a), content);
}

/** A robot card as on the table: its chip, what completing it gives, its die spaces (the requirement, or the die
 * placed there). `id` is its slot ("s1"), whose spaces ("s1.2") the seat's actions may name; null off the line. */
function robot(name, placed, id, ctx, head) {
  const info = robotInfo(name);
  const spaces = info ? info.spaces : arr(placed).map(() => ({ colour: null, value: 0 }));
  const spaceEls = spaces.map((req, j) => {
    const d = arr(placed)[j];
    const want = `${req.colour || "any colour"}${req.value ? ", value " + req.value : ""}`;
    const inner = typeof d === "string" ? die(d)
      : h("span", { class: `sp-req d-${req.colour ? letter(req.colour) : "X"}` }, req.value ? String(req.value) : "");
    const full = typeof d === "string" ? "full" : "";
    return id ? space(`${id}.${j + 1}`, inner, ctx, full, `${id}.${j + 1}: ${want}`) : h("span", { class: "sp-space " + full, title: want }, inner);
  });
  const colour = info ? info.colour : BY_LETTER[String(name)[0]];
  return h("div", { class: `sp-robot${colour ? " r-" + letter(colour) : ""}` },
    h("div", { class: "sp-robot-head" }, head, card(name, robotCtx(ctx), "small")),
    robotNote(name),
    h("div", { class: "sp-spaces" }, spaceEls));
}

function robotSlot(slot, k, ctx) {
  const s = obj(slot);
  const id = `s${k + 1}`;
  const slotActs = acts(ctx, id, (j) => j.slot === id);
  const name = typeof s.robot === "string" ? s.robot : null;
  const body = name ? robot(name, s.dice, id, ctx, h("small", null, id))
    : h("div", { class: "sp-robot empty" }, h("div", { class: "sp-robot-head" }, h("small", null, id), h("span", { class: "none" }, "empty slot")));
  return h("div", clickable({ class: "sp-slot", title: `slot ${id}` }, ctx, id, slotActs), body,
    s.tile ? h("div", { class: "sp-slot-tile", title: lookup(TILES, s.tile) || String(s.tile) }, label(s.tile)) : null,
    rest(s, ["robot", "dice", "tile"], ctx, "slot: more"));
}

function tableau(p, ctx) {
  const used = arr(p.boxes_used);
  const cog = arr(p.boxes_cog);
  const boxState = (b) => (cog.includes(b) ? "cog on it" : used.includes(b) ? "spark on it" : "free");
  const robots = arr(p.tableau).map((r) => {
    const info = robotInfo(r);
    return h("span", { class: "sp-done-robot" }, card(r, robotCtx(ctx), "small"),
      info && info.box ? h("small", { class: "sp-boxstate" + (used.includes(r) ? " used" : ""), title: info.box }, `▣ ${boxState(r)}`) : null);
  });
  const boardActs = acts(ctx, "board", (j) => j.box === "board");
  const board = h("span", clickable({ class: "sp-board-box" + (used.includes("board") ? " used" : ""), title: "the board's own power box: 1 cog" }, ctx, "board", boardActs),
    `board box (1 cog): ${boxState("board")}`);
  return h("div", { class: "sp-tableau" }, robots.length ? robots : h("span", { class: "none" }, "no completed robot"), board);
}

function factory(p, ctx) {
  const level = num(p.level);
  const up = obj(p.upgrade);
  let sum = num(p.upgrade_bonus);
  for (const d of Object.values(up)) {
    const m = /^[RBGY]([1-6])$/.exec(String(d));
    if (m) sum += Number(m[1]);
  }
  const next = level < THRESHOLDS.length
    ? `level ${level + 1} at ${THRESHOLDS[level]} (reward: ${LEVEL_REWARDS[level]})` : "top level";
  const meter = h("span", { class: "sp-levels", title: `level ${level} of 5` },
    [0, 1, 2, 3, 4, 5].map((l) => h("span", { class: "sp-level" + (l === level ? " on" : l < level ? " past" : "") }, String(l))));
  const cols = Object.keys(up).length ? byColour(up) : COLOURS.map((c) => [c, null]);
  const spaces = cols.map(([c, d]) => {
    return space(`up-${c}`, typeof d === "string" ? die(d) : h("span", { class: `sp-req d-${letter(c)}` }), ctx, typeof d === "string" ? "full" : "", `upgrade section, ${c} space`);
  });
  return h("div", { class: "sp-factory" }, meter,
    h("span", { class: "sp-upgrade" }, spaces),
    h("small", { class: "sp-sum" }, `section ${sum}${num(p.upgrade_bonus) ? ` (${num(p.upgrade_bonus)} of it bonus)` : ""} · ${next}`));
}

function production(p, ctx, n) {
  const used = arr(p.production_used);
  return h("span", { class: "sp-prod" }, PRODUCTION.map(([t, text], k) => {
    const a = acts(ctx, t, (j) => j.type === "take" && j.tile === t);
    const desc = t === "t5" && n === 4 ? "4 dice from an end and 1 cog" : text;
    return h("span", clickable({ class: "sp-ptile" + (used.includes(k) ? " used" : ""), title: `${t}: ${desc}${used.includes(k) ? " (used)" : ""}` }, ctx, t, a),
      t === "t5" && n === 4 ? "4+⚙" : t.slice(1));
  }));
}

function player(p0, i, view, ctx) {
  const p = obj(p0);
  const mine = ctx.seat === i;
  const pctx = mine ? ctx : null;              // only the viewer's own things can be named by its actions
  const n = arr(view.players).length;
  const badges = [
    p.colour ? h("span", { class: `sp-badge d-${letter(p.colour)}` }, String(p.colour)) : null,
    view.active === i && n > 1 ? h("span", { class: "sp-badge" }, "active") : null,
    view.first_player === i && n > 1 ? h("span", { class: "sp-badge" }, "first") : null,
    view.taker === i ? h("span", { class: "sp-badge" }, view.phase === "refill" ? "refilling" : "taking") : null,
    view.phase === "action" && p.done ? h("span", { class: "sp-badge done" }, "done") : null,
  ];
  const handSize = num(p.hand_size);
  const hand = mine && Array.isArray(view.hand) ? `${view.hand.length} (your cards, above)` : handSize ? backs(handSize) : h("span", { class: "none" }, "none");
  const trackChips = h("span", { class: "sp-counts" }, byColour(p.tracks).map(([c, v]) =>
    h("span", { class: `sp-count d-${letter(c)}`, title: `${c} track: space ${num(v)}` }, String(num(v)))));
  const pending = arr(p.pending);
  const used = Object.entries(obj(p.used)).filter(([, v]) => v).map(([k]) => label(k));
  if (p.reroll_tile) used.push("t4 reroll available");
  const drawnKnown = arr(arr(view.drawn_known)[i]).filter((c) => typeof c === "string");
  const drawn = num(p.drawn);
  const stats = h("div", { class: "sp-stats" },
    h("span", { class: "sp-stat score", title: "score now" }, h("strong", null, String(num(arr(view.scores)[i]))), " points"),
    h("span", { class: "sp-stat cogs", title: "cogs" }, h("strong", null, String(num(p.cogs))), " ⚙ cogs"),
    h("span", { class: "sp-stat sparks", title: "sparks in storage" }, h("strong", null, String(num(p.sparks))), " ϟ sparks"),
    h("span", { class: "sp-stat" }, "tracks ", trackChips),
    h("span", { class: "sp-stat" }, "hand ", hand));
  const extraDice = [];
  if (p.held) extraDice.push(field("held (recycle)", die(p.held, pctx, acts(pctx, p.held, (j) => j.die === p.held && j.type === "place")), ctx));
  if (arr(p.marked).length) extraDice.push(field("marked to reroll", dice(p.marked, (d) => die(d)), ctx));
  if (arr(p.recycle).length) extraDice.push(field("recycle: pick one", dice(p.recycle, (d) => die(d, pctx, acts(pctx, d, (j) => j.type === "recycle" && j.die === d))), ctx));
  return h("div", { class: seatClass(i, ctx, "panel sub seat sp-seat"), dataset: { seat: String(i) } },
    h("h4", null, seatName(i, ctx), " ", badges),
    stats,
    pending.length ? h("div", { class: "sp-pending" }, h("strong", null, "to decide: "),
      h("ol", null, pending.map((x, k) => h("li", { class: k === 0 ? "head" : "" }, pendingText(x, p))))) : null,
    field("production", production(p, pctx, n), ctx),
    field("dice", h("span", { class: "sp-dicerow" }, dice(p.dice, (d) => ownDie(d, pctx)),
      h("span", { class: "sp-storage" }, h("small", null, "storage"), space("store", typeof p.storage === "string" ? die(p.storage) : h("span", { class: "sp-req d-X" }), pctx, typeof p.storage === "string" ? "full" : "", "storage: keeps 1 die for the next turn"))), ctx),
    extraDice,
    field("factory", factory(p, pctx), ctx),
    h("div", { class: "sp-line" }, arr(p.line).map((s, k) => robotSlot(s, k, pctx))),
    field("completed", tableau(p, pctx), ctx),
    field("assistants played", h("span", null, assistants(p.played, pctx),
      p.conrad ? h("small", { class: "sp-conrad" }, ` Conrad copies ${p.conrad}`) : null), ctx),
    arr(p.tiles).length ? field("upgrade tiles", h("span", { class: "sp-tiles" }, arr(p.tiles).map((t) => h("span", { class: "sp-tile own", title: lookup(TILES, t) || String(t) }, label(t)))), ctx) : null,
    arr(p.goals_met).length ? field("goals met", arr(p.goals_met).map((g) => lookup(GOALS, g) || label(g)).join("; "), ctx) : null,
    drawn && !mine ? field("robots drawn", h("span", null, drawnKnown.map((c) => card(c, null, "small")), drawn > drawnKnown.length ? backs(drawn - drawnKnown.length) : null), ctx) : null,
    view.phase === "draft" ? field("draft", `${num(p.draft_hand_size)} cards to choose from${p.draft_committed ? " · has chosen" : ""}`, ctx) : null,
    used.length || num(p.rearranged) || num(p.completed_this_turn) ? h("p", { class: "note" },
      [used.length ? `used this turn/round: ${used.join(", ")}` : null,
        num(p.rearranged) ? `${num(p.rearranged)} rearranged` : null,
        num(p.completed_this_turn) ? `${num(p.completed_this_turn)} completed this turn` : null].filter(Boolean).join(" · ")) : null,
    rest(p, PLAYER_DRAWN, ctx, "more"));
}

// -- the viewer's own cards ---------------------------------------------------------------------------------------

function own(view, ctx) {
  if (typeof view.seat !== "number" || !Array.isArray(view.hand)) return null;
  const me = obj(arr(view.players)[view.seat]);
  const parts = [];
  const head = obj(arr(me.pending)[0]);
  if (head.type === "die_choice") {
    const choices = (ctx.legal || []).filter((a) => a && a.json && a.json.type === "die_choice").map((a) => a.json.die);
    if (choices.length) parts.push(field("choose a die", dice(choices, (d) => die(d, ctx, acts(ctx, d, (j) => j.type === "die_choice" && j.die === d))), ctx));
  }
  if (arr(view.draft_hand).length || view.draft_pick) {
    parts.push(field("draft: keep one", assistants(view.draft_hand, ctx), ctx));
    if (view.draft_pick) parts.push(field("your pick", assistant(view.draft_pick, null), ctx));
  }
  if (arr(view.drawn).length) parts.push(field("robots drawn", h("span", { class: "sp-drawn" }, arr(view.drawn).map((r) => robot(r, [], null, ctx, null)),
    h("small", { class: "note" }, "place them one by one in your free slots; the last one goes under the deck")), ctx));
  parts.push(field("assistants in hand", assistants(view.hand, ctx), ctx));
  return h("section", { class: "panel mine sp-own" }, h("h3", null, "Your cards"), parts);
}

export function render(view, ctx) {
  view = obj(view);
  ctx = ctx || {};
  const panels = arr(view.players).map((p, i) => player(p, i, view, ctx));
  const me = typeof ctx.seat === "number" && panels[ctx.seat] ? ctx.seat : -1;
  if (me > 0) panels.unshift(...panels.splice(me, 1));      // the viewer's own board first, the others in seat order
  return h("div", { class: "table sparks" },
    top(view, ctx),
    supply(view, ctx),
    own(view, ctx),
    h("div", { class: "seats sp-seats" }, panels),
    tracks(view, ctx),
    rest(view, DRAWN, ctx, "what else this seat knows (draft record…)"));
}
