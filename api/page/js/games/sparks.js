// Sparks: the round and phase, the junkyard's dice to draft from, the shared supply (bag, discard, decks, upgrade
// tile stacks, goals), the four score tracks with their bonus tiles and every player's marker, and per player its
// factory (level, upgrade section), assembly line (robots with their die spaces and the dice on them), completed
// robots and power boxes, production tiles, dice, cogs, sparks, assistants and pending choices; the seat's own
// hand (and draft hand, drawn robots) below. Dice are drawn as dice; the dice, spaces, robots, assistants, tiles
// and tracks that one of the seat's legal actions names are clickable. Everything is read from the view; what the
// cards and boards say comes from the match's content (ctx.content: a robot's spaces, reward and box, the track
// points, the factory thresholds, the goal targets...) and the glossary (gloss: an assistant's effect, an effect
// symbol's words). Without
// the content (the page could not read it) the cards are drawn by id, the tracks and the factory without numbers.

import { h, label } from "../dom.js";
import { actionButton, arr, backs, card, clickable, field, gloss, legal, lookup, num, obj, onlyTypes, rest, seatName, section, tooltip } from "./common.js";

const DRAWN = ["game", "phase", "actors", "turn", "turns", "round", "first_player", "active", "secondary_turn",
  "started", "terminal", "scores", "junkyard", "bag", "discard", "robot_deck", "assistant_deck", "stacks", "bonus",
  "goals", "taker", "players", "solo", "seat", "hand", "drawn", "draft_hand", "draft_pick", "drawn_known"];
const PLAYER_DRAWN = ["colour", "cogs", "sparks", "level", "tracks", "dice", "upgrade", "storage", "line", "tiles",
  "tableau", "boxes_used", "boxes_cog", "hand_size", "played", "conrad", "production_used", "pending", "marked",
  "recycle", "held", "held_marked", "silas", "upgrade_bonus", "used", "reroll_tile", "rearranged", "completed_this_turn", "done",
  "drawn", "draft_hand_size", "draft_committed", "goals_met"];

const COLOURS = ["red", "blue", "green", "yellow"];
const LETTER = { red: "R", blue: "B", green: "G", yellow: "Y" };
const BY_LETTER = { R: "red", B: "blue", G: "green", Y: "yellow" };

// -- the content (ctx.content: the content document of GET /v1/games/sparks) -----------------------------------------

// Rule words only here (what a tile type, a goal or a production tile does); the numbers on the cards and boards
// (robots' spaces, rewards and boxes, track points, thresholds, targets, prices) come from the match's content,
// and the words of each assistant and each effect symbol (a reward, a power box, a bonus tile) from the glossary.

/** The upgrade tile types in the engine's order (content.tile_points follows it), with what each does. */
const TILE_TYPES = ["rearrange", "discount", "sales_boost", "ignore_colour", "ignore_value", "bonus_point", "bonus_cog", "recycle"];
const TILES = {
  rearrange: () => "move your placed dice between spaces",
  discount: () => "assistants cost 1 cog less",
  sales_boost: (c) => (c && typeof c.sales_boost_value === "number" ? `sell dice for ${c.sales_boost_value} cogs` : "sell dice for more cogs"),
  ignore_colour: () => "your colour's dice ignore colours for free",
  ignore_value: () => "your colour's dice ignore values for free",
  bonus_point: () => "slot: +1 track advance on completion",
  bonus_cog: () => "slot: +1 cog on completion",
  recycle: () => "slot: reuse a die of the completed robot",
};

/** The goal tiles in the engine's order (content.goal_targets follows it): their text from the target. */
const GOAL_TYPES = ["assistants", "level", "same_colour", "power_boxes", "sparks", "third_bonus"];
const GOALS = {
  assistants: (t) => `play ${t} assistants`, level: (t) => `reach level ${t}`,
  same_colour: (t) => `complete ${t} robots of one colour`, power_boxes: (t) => `complete ${t} robots with a power box`,
  sparks: (t) => `have ${t} sparks (in storage and on boxes)`, third_bonus: (t) => `pass the third bonus space of ${t} tracks`,
};

const PRODUCTION = [["t2", "2 dice from an end + 2 from the bag"], ["t3", "3 adjacent dice from anywhere"],
  ["t4", "4 dice from an end, and a reroll"], ["t5", "5 dice from an end"]];
const PHASES = {
  draft: "Assistant draft: everyone keeps one assistant of the hand in front of them and passes the rest on.",
  refill: "Assembly lines: the players with a free slot draw robots and place them, one player at a time.",
  take: "Taking dice from the junkyard.",
  action: "Action phase: everyone builds robots, upgrades the factory, recruits and fires boxes at once, then says done.",
  over: "The game is over.",
};

// -- small pieces -------------------------------------------------------------------------------------------------

const letter = (colour) => lookup(LETTER, colour) || "X";

/** The match's content document (ctx.content), set by render; null when the page could not read it (then the
 * cards are drawn by id, the tracks and the factory without their numbers). */
let content = null;
/** A list of numbers of the content ("track_points", "thresholds"...), [] without it. */
const ints = (key) => (content ? arr(content[key]).filter((x) => typeof x === "number" && Number.isFinite(x)) : []);
/** A number of the content ("goal_points", "storage"...), null without it. */
const contentNum = (key) => (content && typeof content[key] === "number" && Number.isFinite(content[key]) ? content[key] : null);
const points = (n) => `${n} point${n === 1 ? "" : "s"}`;

/** The storage's title: how many dice it keeps for the next turn (content.storage). */
function storageText() {
  const n = contentNum("storage");
  return n === null ? "storage" : `storage: keeps ${n ? n : "no"} ${n === 1 ? "die" : "dice"} for the next turn`;
}

/** An upgrade tile type: what it does, and its points (content.tile_points). */
function tileText(t) {
  const say = lookup(TILES, t);
  if (!say) return String(t);
  const pts = ints("tile_points")[TILE_TYPES.indexOf(t)];
  return say(content) + (pts === undefined ? "" : ` · ${points(pts)}`);
}

/** A goal tile: its target (content.goal_targets) and what meeting it scores (content.goal_points). */
function goalText(g, withPoints = true) {
  const say = lookup(GOALS, g);
  const target = ints("goal_targets")[GOAL_TYPES.indexOf(g)];
  if (!say || target === undefined) return label(g);
  const pts = contentNum("goal_points");
  return say(target) + (withPoints && pts !== null ? ` (${points(pts)})` : "");
}

/** The legal actions that name `text` and satisfy `pred` (on their JSON form). */
function acts(ctx, text, pred) {
  if (!ctx || !ctx.cardActions || text === null || text === undefined) return [];
  return ctx.cardActions(text).filter((a) => pred((a && a.json) || {}));
}


const PIPS = { 1: [4], 2: [2, 6], 3: [2, 4, 6], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8] };

/** A die "R3" as a die face (colour and pips); clickable for `actions` (the side panel filtered on `filter`, a
 * value their JSON holds: a junkyard die is taken by its position; its heading names a die, not the robot "R3").
 * Anything else as its text. */
function die(text, ctx = null, actions = [], extra = "", filter = text, label = `die ${text}`) {
  const m = /^([RBGY])([1-6])$/.exec(String(text));
  if (!m) return h("span", { class: "sp-die odd" + (extra ? " " + extra : "") }, String(text));
  const [, c, v] = m;
  const on = PIPS[v];
  return clickable(h("span", { class: `sp-die d-${c}${extra ? " " + extra : ""}`, title: `${BY_LETTER[c]} ${v}`, dataset: { die: text } },
    h("span", { class: "sp-sr" }, text),
    [0, 1, 2, 3, 4, 5, 6, 7, 8].map((k) => h("span", { class: on.includes(k) ? "pip on" : "pip" }))), filter, actions, ctx, "playable", label);
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

/** An effect symbol in words, by the glossary's entry of its text ("cogs x2", as a view writes a bonus tile); the
 * text itself when the glossary has none. */
function effectText(key) {
  const entry = gloss(key);
  return entry && typeof entry.name === "string" && entry.name ? entry.name : String(key);
}

/** The text of a content's effect symbol ({kind, n, colour}: a reward, a power box): as the engine writes it. */
function symbolKey(sym) {
  const s = obj(sym);
  const n = Number.isInteger(s.n) ? s.n : 1;
  return `${s.kind === undefined ? "?" : s.kind}${n === 1 ? "" : " x" + n}${typeof s.colour === "string" && s.colour ? " " + s.colour : ""}`;
}

const symbolText = (sym) => effectText(symbolKey(sym));

/** A robot card of the content: its colour, die spaces ({colour or null = any, value or 0 = any}), track advance,
 * reward and power box in words; null without the content or for a card it does not hold. */
function robotInfo(name) {
  const r = content ? arr(content.robots).map(obj).find((x) => x.name === name) : null;
  if (!r) return null;
  const colour = COLOURS.includes(r.colour) ? r.colour : null;
  const spaces = arr(r.spaces).map((sp) => {
    const [c, v] = arr(sp);
    return { colour: COLOURS.includes(c) ? c : null, value: num(v) };
  });
  return { colour, spaces, advance: num(r.advance), reward: r.reward ? symbolText(r.reward) : null, box: r.box ? symbolText(r.box) : null };
}

function robotNote(name) {
  const info = robotInfo(name);
  if (!info) return null;
  return h("span", { class: "sp-robot-note" },
    h("span", { class: "sp-adv", title: `completing it advances ${info.advance} on the ${info.colour || "robot's"} track` }, `+${info.advance}`),
    info.reward ? h("span", { class: "sp-reward", title: "immediate reward" }, info.reward) : null,
    info.box ? h("span", { class: "sp-box", title: "power box (a spark fires it once a round)" }, `▣ ${info.box}`) : null);
}

const robotCtx = (ctx) => onlyTypes(ctx, ["assign", "spark_box", "cog_box", "free_box"]);
const assistantCtx = (ctx) => onlyTypes(ctx, ["recruit", "draft", "copy"]);

/** An assistant: its chip and, from the glossary, what it does (timing, effect, points). */
function assistant(name, ctx, extra = "") {
  const entry = gloss(name);
  const text = entry && typeof entry.text === "string" && entry.text ? entry.text : null;
  return h("span", { class: "sp-assistant", title: tooltip(name) },
    card(name, ctx ? assistantCtx(ctx) : null, extra), text ? h("small", null, text) : null);
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
    case "recycle_place": return "Recycle: alter the held die if you like (cogs, Octavia, D6, D7, Silas, the reroll, a box), then place it on another robot, or skip";
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
  // the seat's actions that name nothing on the table (done, draw, skip, roll, reroll, adjust) as buttons here
  const bare = legal(ctx, (j) => Object.keys(j).length === 1);
  return section(title,
    h("p", { class: "sp-decide" }, decide),
    bare.length ? h("div", { class: "row sp-bare" }, bare.map((a) => actionButton(a, ctx))) : null,
    h("div", { class: "row" },
      n > 1 && phase !== "over" ? field("active player", typeof view.active === "number" ? seatName(view.active, ctx) : String(view.active), ctx) : null,
      n > 1 ? field("first player", typeof view.first_player === "number" ? seatName(view.first_player, ctx) : String(view.first_player), ctx) : null,
      field("goal tiles", arr(view.goals).length
        ? h("span", { class: "sp-goals" }, arr(view.goals).map((g) => h("span", { class: "sp-goal", title: String(g) }, goalText(g))))
        : h("span", { class: "none" }, "none"), ctx),
      solo ? field("solo game", `${solo.won ? "won! " : phase === "over" ? "lost: " : ""}to win, ${num(solo.target)} points and every goal tile met (goals: ${solo.goals_met ? "all met" : phase === "over" ? "not all met" : "not all met yet"})`, ctx) : null),
    solo ? rest(solo, ["target", "goals_met", "won"], ctx, "solo: more") : null);
}

/** How many dice a production tile takes from the junkyard (RULES.md, "A turn": t5 takes four and a cog with four
 * players, five with fewer). */
const tileDice = (tile, players) => (tile === "t5" ? (players === 4 ? 4 : 5) : lookup({ t2: 2, t3: 3, t4: 4 }, tile) || 1);

function junkyard(view, ctx) {
  const jy = arr(view.junkyard);
  // a die offers every take whose run covers it (a run is named by its first die's position: a player reaches
  // for the end die as well) and the pick of its position
  const covers = (j, i) => {
    const start = Number(j.position);
    if (j.type === "pick") return start === i;
    return j.type === "take" && start <= i && i < start + tileDice(j.tile, arr(view.players).length);
  };
  const posActs = (i) => legal(ctx, (j) => covers(j, i));
  return h("div", { class: "sp-junkyard" },
    jy.length ? jy.map((d, i) => {
      const a = posActs(i);
      return h("span", { class: "sp-jpos" }, die(d, ctx, a, "big", a.length ? String(obj(a[0].json).position) : String(i),
        `junkyard die ${d} (position ${i})`),
        h("small", null, String(i)));
    }) : h("span", { class: "none" }, "empty"));
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
        bottom.length ? h("span", { class: "sp-under" }, "· under it: ",
          bottom.map((c) => (typeof c === "string" ? card(c, null, "small") : h("span", { class: "card back", title: "unknown", "aria-hidden": "true" })))) : null), ctx),
      rest(deck, ["shuffled", "bottom"], ctx, "robot deck: more"),
      field("assistant deck", `${num(view.assistant_deck)} cards`, ctx),
      field("upgrade tiles", stacks.length ? h("span", { class: "sp-tiles" }, stacks.map((t) =>
        clickable(h("span", { class: "sp-tile", title: tileText(t) }, label(t)), t, tileCtx(t), ctx))) : h("span", { class: "none" }, "none"), ctx)));
}

function tracks(view, ctx) {
  const players = arr(view.players);
  const bonus = obj(view.bonus);
  // the points of each scoring space and where the bonus spaces sit (the content); without the content, as many
  // numbered spaces as the furthest marker needs, the bonus tiles after them
  const trackPoints = ints("track_points");
  const bonusAfter = ints("bonus_after");
  const known = trackPoints.length > 0;
  const furthest = Math.max(0, ...players.flatMap((p) => COLOURS.map((c) => num(obj(obj(p).tracks)[c]))));
  const length = known ? trackPoints.length : Math.min(furthest, 40);
  const bonusCell = (t) => h("div", { class: "sp-cell bonus", title: t === undefined ? "bonus space" : tooltip(t) },
    h("small", null, "bonus"), t === undefined ? null : effectText(t));
  const rows = COLOURS.map((c) => {
    const on = (pos) => players.map((p, i) => (num(obj(obj(p).tracks)[c]) === pos ? marker(i, players, ctx) : null));
    const cells = [h("div", { class: "sp-cell start" }, h("small", null, "start"), h("span", { class: "sp-markers" }, on(0)))];
    const tiles = arr(bonus[c]);
    for (let k = 0; k < length; k += 1) {
      cells.push(h("div", { class: "sp-cell" }, h("small", null, known ? String(trackPoints[k]) : `#${k + 1}`), h("span", { class: "sp-markers" }, on(k + 1))));
      const b = bonusAfter.indexOf(k + 1);
      if (known && b >= 0) cells.push(bonusCell(tiles[b]));
    }
    if (!known) cells.push(...tiles.map(bonusCell));
    const pick = acts(ctx, c, (j) => j.type === "track" && j.track === c);
    return h("div", { class: `sp-track t-${letter(c)}` },
      clickable(h("div", { class: `sp-track-name d-${letter(c)}`, title: `${c} track` }, c), c, pick, ctx), cells);
  });
  const extra = Object.keys(bonus).filter((c) => !COLOURS.includes(c));
  return section("Score tracks",
    h("div", { class: "sp-tracks" }, rows),
    h("p", { class: "note" }, known
      ? "numbers: points of each space; a bonus space pays its tile to every player who passes it"
      : "#: the spaces the markers reached (their points and where the bonus spaces sit are not known here)"),
    extra.length ? rest(bonus, COLOURS, ctx, "other bonus tiles") : null);
}

// -- a player -----------------------------------------------------------------------------------------------------

function space(id, content, ctx, extra = "", title = "") {
  const a = acts(ctx, id, (j) => j.space === id || j.to === id || j.type === "rearrange" && j.space === id);
  return clickable(h("span", { class: "sp-space" + (extra ? " " + extra : ""), title: title || id, dataset: { space: id } }, content), id, a, ctx);
}

/** A robot card as on the table: its chip, what completing it gives, its die spaces (the requirement, or the die
 * placed there). `id` is its slot ("s1"), whose spaces ("s1.2") the seat's actions may name; null off the line. */
function robot(name, placed, id, ctx, head) {
  const info = robotInfo(name);
  // without the card in the content: the slot's three spaces, their requirements not known
  const spaces = info ? info.spaces : arr(placed).map(() => ({ colour: null, value: 0, unknown: true }));
  const spaceEls = spaces.map((req, j) => {
    const d = arr(placed)[j];
    const want = req.unknown ? "requirement not known" : `${req.colour || "any colour"}${req.value ? ", value " + req.value : ""}`;
    const inner = typeof d === "string" ? die(d)
      : h("span", { class: `sp-req d-${req.colour ? letter(req.colour) : "X"}` }, req.unknown ? "?" : req.value ? String(req.value) : "");
    const full = typeof d === "string" ? "full" : "";
    return id ? space(`${id}.${j + 1}`, inner, ctx, full, `${id}.${j + 1}: ${want}`) : h("span", { class: "sp-space " + full, title: want }, inner);
  });
  const colour = info ? info.colour : null;
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
  return clickable(h("div", { class: "sp-slot", title: `slot ${id}` }, body, s.tile ? h("div", { class: "sp-slot-tile", title: tileText(s.tile) }, label(s.tile)) : null, rest(s, ["robot", "dice", "tile"], ctx, "slot: more")), id, slotActs, ctx);
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
  const gives = content && content.board_box ? symbolText(content.board_box) : null;
  const board = clickable(h("span", { class: "sp-board-box" + (used.includes("board") ? " used" : ""), title: `the board's own power box${gives ? ": " + gives : ""}` }, `board box${gives ? ` (${gives})` : ""}: ${boxState("board")}`), "board", boardActs, ctx);
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
  // the sums that reach each level and their rewards (the content); without it, the level alone
  const thresholds = ints("thresholds").slice(0, 20);
  const rewards = content ? arr(content.level_rewards) : [];
  const levels = thresholds.length;
  const reward = typeof rewards[level] === "string" ? ` (reward: ${rewards[level]})` : "";
  const next = !levels ? `level ${level}` : level < levels ? `level ${level + 1} at ${thresholds[level]}${reward}` : "top level";
  const meter = levels
    ? h("span", { class: "sp-levels", title: `level ${level} of ${levels}` }, Array.from({ length: levels + 1 }, (_, l) =>
      h("span", { class: "sp-level" + (l === level ? " on" : l < level ? " past" : "") }, String(l))))
    : h("span", { class: "sp-levels", title: `level ${level}` }, h("span", { class: "sp-level on" }, String(level)));
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
    return clickable(h("span", { class: "sp-ptile" + (used.includes(k) ? " used" : ""), title: `${t}: ${desc}${used.includes(k) ? " (used)" : ""}` }, t === "t5" && n === 4 ? "4+⚙" : t.slice(1)), t, a, ctx);
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
  // while the Recycle placement is the head, the die actions (place, up, down, flip, reroll_one) name the held die
  const holding = pending.length > 0 && obj(pending[0]).type === "recycle_place";
  const HELD_TYPES = ["place", "up", "down", "flip", "reroll_one"];
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
  if (p.held) extraDice.push(field(p.held_marked ? "held (recycle), marked to reroll" : "held (recycle)", die(p.held, pctx, acts(pctx, p.held, (j) => j.die === p.held && holding && HELD_TYPES.includes(j.type))), ctx));
  if (arr(p.marked).length) extraDice.push(field("marked to reroll", dice(p.marked, (d) => die(d)), ctx));
  if (arr(p.recycle).length) extraDice.push(field("recycle: pick one", dice(p.recycle, (d) => die(d, pctx, acts(pctx, d, (j) => j.type === "recycle" && j.die === d))), ctx));
  return h("div", { class: seatClass(i, ctx, "panel sub seat sp-seat"), dataset: { seat: String(i) } },
    h("h4", null, seatName(i, ctx), " ", badges),
    stats,
    pending.length ? h("div", { class: "sp-pending" }, h("strong", null, "to decide: "),
      h("ol", null, pending.map((x, k) => h("li", { class: k === 0 ? "head" : "" }, pendingText(x, p))))) : null,
    field("production", production(p, pctx, n), ctx),
    field("dice", h("span", { class: "sp-dicerow" }, dice(p.dice, (d) => ownDie(d, pctx,
      (j) => j.die === d && j.type !== "recycle" && j.type !== "die_choice" && !(holding && HELD_TYPES.includes(j.type)))),
      h("span", { class: "sp-storage" }, h("small", null, "storage"), space("store", typeof p.storage === "string" ? die(p.storage) : h("span", { class: "sp-req d-X" }), pctx, typeof p.storage === "string" ? "full" : "", storageText()))), ctx),
    extraDice,
    field("factory", factory(p, pctx), ctx),
    h("div", { class: "sp-line" }, arr(p.line).map((s, k) => robotSlot(s, k, pctx))),
    field("completed", tableau(p, pctx), ctx),
    field("assistants played", h("span", null, assistants(p.played, pctx),
      p.conrad ? h("small", { class: "sp-conrad" }, ` Conrad copies ${p.conrad}`) : null), ctx),
    arr(p.tiles).length ? field("upgrade tiles", h("span", { class: "sp-tiles" }, arr(p.tiles).map((t) => h("span", { class: "sp-tile own", title: tileText(t) }, label(t)))), ctx) : null,
    arr(p.goals_met).length ? field("goals met", arr(p.goals_met).map((g) => goalText(g, false)).join("; "), ctx) : null,
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
  content = ctx.content && typeof ctx.content === "object" && !Array.isArray(ctx.content) ? ctx.content : null;
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
