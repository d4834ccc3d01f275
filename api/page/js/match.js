// The match page: /play/<match_id> (live) and /replay/<match_id> (a finished match, step by step), for a seat
// (its token in the fragment, "#token=...") or a spectator (no token). Reads only documented endpoints:
// GET /v1/matches/{id}, .../stream (server-sent events, live updates; .../events, the long-poll, as fallback),
// .../log, .../replay; POST .../moves.

import { fragmentToken, get, idempotencyKey, post, seg } from "./api.js";
import { h, replace } from "./dom.js";
import { renderGeneric, seatName, useGlossary } from "./games/common.js";
import { renderView } from "./games/index.js";

const [, mode, rawId] = window.location.pathname.split("/");
const matchId = decodeURIComponent(rawId || "");
const token = fragmentToken();
const base = `/v1/matches/${seg(matchId)}`;

const ui = {
  title: document.getElementById("title"),
  whoami: document.getElementById("whoami"),
  turn: document.getElementById("turn"),
  board: document.getElementById("board"),
  actions: document.getElementById("actions"),
  events: document.getElementById("events"),
  error: document.getElementById("error"),
  controls: document.getElementById("controls"),
};

const page = { doc: null, game: null, log: new Map(), filter: null, busy: false, stopped: false };

function showError(err) {
  if (!err) { replace(ui.error); ui.error.hidden = true; return; }
  ui.error.hidden = false;
  replace(ui.error, err.code ? `${err.code}: ${err.message}` : String(err.message || err));
}

/** Does this action's JSON form name that card (a value, or an element of a list value)? */
function mentions(json, text) {
  return Object.values(json || {}).some((v) => v === text || (Array.isArray(v) && v.includes(text)));
}

/** The match's game under its parameters, with its content and glossary (GET /v1/games/{game}?params...), read
 * once: renderers name content ids from it. Until it arrives, or when it cannot be read, the table is drawn with
 * ids only. */
async function loadGame(doc) {
  const query = new URLSearchParams(Object.entries(doc.params || {}).map(([k, v]) => [k, String(v)])).toString();
  try {
    page.game = await get(`/v1/games/${seg(doc.game)}${query ? "?" + query : ""}`);
  } catch (err) {
    console.error(err);
    page.game = { content: null, glossary: {}, values: doc.params || {} };
  }
  useGlossary(page.game.glossary);
}

function context(doc, legal) {
  return {
    content: page.game ? page.game.content : null,
    params: page.game ? page.game.values : doc.params || {},
    seat: doc.seat,
    seats: doc.seats,
    actors: doc.actors || [],
    legal,
    cardActions: (text) => legal.filter((a) => mentions(a.json, text)),
    pick: (text, actions, label = text) => {
      if (actions.length === 1) play(actions[0]);
      else { page.filter = { text: label, ids: new Set(actions.map((a) => a.id)) }; drawActions(); }
    },
  };
}

/** The table; its cards are clickable only while the seat may act and no move of its own is in flight (a
 * click then would be dropped by ``play``: a live update can redraw the table before the move's answer). */
function drawBoard() {
  const doc = page.doc;
  draw(doc, doc.to_act && !page.busy ? doc.legal_actions : []);
}

function draw(doc, legal) {
  replace(ui.board, renderView(doc.game, doc.view, context(doc, legal)));
}

function header(doc) {
  replace(ui.title, `${doc.game} · match ${doc.match_id}`);
  replace(ui.whoami, doc.seat === null || doc.seat === undefined ? "You are watching as a spectator" : `You play ${seatName(doc.seat, { seats: doc.seats })}`);
}

function turnText(doc, ctx) {
  if (doc.status === "finished" || (doc.outcome && doc.at === undefined)) {
    const out = doc.outcome;
    if (!out) return "The match is over.";
    // one seat: a solo game is won or lost by its own goal (its table shows the target); a lost one has no winner
    if (out.scores.length === 1) return `The match is over. Score ${out.scores[0]}: ${out.winners.length ? "won" : "lost"}.`;
    const winners = out.winners.map((w) => seatName(w, ctx)).join(", ");
    return `The match is over. Scores ${out.scores.join(" / ")} — winner${out.winners.length > 1 ? "s" : ""}: ${winners}${out.shared ? " (shared)" : ""}.`;
  }
  const actors = doc.actors.map((a) => seatName(a, ctx)).join(", ");
  if (doc.to_act) return doc.actors.length > 1 ? `Your turn (simultaneous: ${actors} choose now).` : "Your turn.";
  return doc.actors.length > 1 ? `Waiting for ${actors} (simultaneous).` : `Waiting for ${actors}.`;
}

// -- live -----------------------------------------------------------------------------------------------------

function show(doc) {
  if (page.doc && doc.version < page.doc.version) return;       // an older answer arriving late
  // the side panel's filter (a clicked card's actions) holds while the match stays at its version: a live
  // update that redraws the same version (the stream's catch-up of the move's own answer) keeps it
  if (!page.doc || doc.version !== page.doc.version) page.filter = null;
  page.doc = doc;
  header(doc);
  document.body.dataset.version = String(doc.version);
  document.body.dataset.status = doc.status;
  const ctx = context(doc, doc.to_act ? doc.legal_actions : []);
  replace(ui.turn, turnText(doc, ctx));
  ui.turn.className = doc.to_act ? "turn mine" : "turn";
  drawBoard();
  drawActions();
  if (doc.status === "finished") {
    replace(ui.controls, h("a", { class: "button", id: "replay-link", href: `/replay/${seg(matchId)}${token ? "#token=" + encodeURIComponent(token) : ""}` }, "Replay this match step by step"));
  }
}

function drawActions() {
  const doc = page.doc;
  if (!doc || !doc.to_act) { replace(ui.actions); ui.actions.hidden = true; return; }
  ui.actions.hidden = false;
  let legal = doc.legal_actions;
  const filter = page.filter;
  if (filter) legal = legal.filter((a) => filter.ids.has(a.id));      // what the clicked thing stands for
  const groups = new Map();
  for (const a of legal) {
    const kind = (a.json && a.json.type) || "action";
    if (!groups.has(kind)) groups.set(kind, []);
    groups.get(kind).push(a);
  }
  replace(ui.actions,
    h("h3", null, filter ? `Actions with ${filter.text}` : "Your legal actions"),
    filter ? h("button", { class: "link", onclick: () => { page.filter = null; drawActions(); } }, "show all actions") : null,
    [...groups].map(([kind, list]) => h("div", { class: "group" }, h("span", { class: "kind" }, kind),
      list.map((a) => h("button", { class: "action", type: "button", dataset: { actionId: String(a.id) }, disabled: page.busy, onclick: () => play(a) }, a.text)))));
}

async function play(action) {
  if (page.busy || !page.doc) return;
  page.busy = true;
  drawBoard();
  drawActions();
  try {
    const res = await post(`${base}/moves`, { action: { id: action.id }, expected_version: page.doc.version },
      { token, headers: { "Idempotency-Key": idempotencyKey() } });
    addEvents([{ ...res.accepted, by: "human", hidden: false }]);
    showError(null);
    // the answer is the match after the bots' moves this one made due, not those moves: read them, or the
    // stream's next news (asked for after the version shown) would never list them
    let shown = false;
    if (res.match.version > res.accepted.version) {
      try { await readAfter(res.accepted.version); shown = true; } catch (_) { /* the answer's match, below */ }
    }
    page.busy = false;
    if (!shown) show(res.match);
    drawBoard();          // enabled again: a newer match the stream showed meanwhile was drawn while busy
    drawActions();
  } catch (err) {
    page.busy = false;
    showError(err);
    if (err.code === "stale-version" || err.code === "not-your-turn") show(await get(base, { token }));
    else { drawBoard(); drawActions(); }
  }
}

function addEvents(entries) {
  for (const e of entries) page.log.set(e.version, e);
  const last = [...page.log.values()].sort((a, b) => b.version - a.version).slice(0, 12);
  const ctx = { seat: page.doc ? page.doc.seat : null, seats: page.doc ? page.doc.seats : [] };
  replace(ui.events, h("h3", null, "What just happened"),
    last.length ? h("ul", { class: "log" }, last.map((e) => h("li", { dataset: { version: String(e.version) } },
      h("span", { class: "v" }, `#${e.version} `), `${seatName(e.seat, ctx)}: `,
      e.action ? h("strong", null, e.action.text) : h("em", null, "a hidden choice")))) : h("p", { class: "none" }, "nothing yet"));
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** What changed after the version shown, as this page's seat sees it (a spectator: the stream's own data). */
async function catchUp(data) {
  if (!token) {
    if (data) { addEvents(data.events); show(data.match); }
    return;
  }
  // the stream is a spectator's (an EventSource sends no Authorization header, and the token never goes into
  // a URL): on each change the seat reads its own view, with its own actions unredacted
  await readAfter(page.doc.version);
}

/** The actions after ``version`` as this page's seat sees them, then the match. */
async function readAfter(version) {
  const ev = await get(`${base}/events?after=${version}`, { token });
  addEvents(ev.events);
  show(ev.match);
}

/**
 * Live updates through the event stream (GET .../stream, server-sent events): resolves true when the match is
 * over, false when the stream cannot be used (no EventSource, or the server refused it: too many watchers),
 * for the long-poll to take over. A dropped connection is retried by EventSource itself (Last-Event-ID).
 */
function follow() {
  if (!window.EventSource) return Promise.resolve(false);
  return new Promise((resolve) => {
    const source = new EventSource(`${base}/stream`);
    let queue = Promise.resolve();
    let opened = false;
    const done = (result) => { source.close(); queue.then(() => resolve(result)); };
    source.addEventListener("open", () => { opened = true; showError(null); });
    source.addEventListener("match", (msg) => {
      const data = JSON.parse(msg.data);
      if (page.doc && data.version <= page.doc.version && !data.events.length) return;
      queue = queue.then(() => catchUp(data)).then(() => showError(null), showError);
    });
    source.addEventListener("end", () => done(true));
    source.addEventListener("error", () => {
      if (source.readyState === EventSource.CLOSED) done(page.doc.status === "finished" || (opened ? null : false));
    });
  });
}

/** Live updates by long-poll (GET .../events?wait=20): the fallback. */
async function poll() {
  let failures = 0;
  while (!page.stopped && page.doc.status !== "finished") {
    try {
      const asked = Date.now();
      const ev = await get(`${base}/events?after=${page.doc.version}&wait=20`, { token });
      addEvents(ev.events);
      show(ev.match);
      failures = 0;
      showError(null);
      // an answer at once with no news: the server holds its most watchers; poll again a little later
      if (!ev.events.length && Date.now() - asked < 1000) await sleep(1000);
    } catch (err) {
      failures += 1;
      showError(err);
      await sleep(Math.min(10000, 500 * 2 ** failures));
    }
  }
}

async function live() {
  const first = await get(base, { token });
  const game = loadGame(first);           // beside the log's read: the first drawing does not wait for it
  show(first);
  const log = await get(`${base}/log`, { token });
  page.doc = page.doc || first;
  addEvents(log.entries.slice(-12));
  await game;
  drawBoard();
  document.body.dataset.live = "stream";
  let streamed = page.doc.status === "finished" || await follow();
  while (streamed === null) streamed = await follow();        // closed after it had worked: open it again
  if (!streamed) {
    document.body.dataset.live = "poll";
    await poll();
  }
  if (page.doc.status === "finished") {
    const log2 = await get(`${base}/log`, { token });       // the end reveals every action of the log
    addEvents(log2.entries.slice(-12));
  }
}

// -- replay ---------------------------------------------------------------------------------------------------

async function replay() {
  const log = await get(`${base}/log`, { token });
  await loadGame(log);
  header({ ...log, seat: null });
  if (log.status !== "finished") {
    replace(ui.turn, "This match is not over yet: its replay opens at the end.");
    replace(ui.controls, h("a", { class: "button", href: `/play/${seg(matchId)}${window.location.hash}` }, "Watch it live"));
    return;
  }
  const cache = new Map();
  const total = log.version;
  const slider = h("input", { type: "range", id: "step", min: "0", max: String(total), value: "0", "aria-label": "step" });
  const counter = h("span", { id: "step-label" });
  const seatPick = h("select", { id: "viewpoint", "aria-label": "whose view" },
    h("option", { value: "" }, "spectator"), log.seats.map((s) => h("option", { value: String(s.seat) }, seatName(s.seat, { seats: log.seats }))));
  let timer = null;
  const go = async (at) => {
    at = Math.max(0, Math.min(total, at));
    slider.value = String(at);
    const seat = seatPick.value;
    const key = `${at}/${seat}`;
    let step = cache.get(key);
    if (!step) {
      step = await get(`${base}/replay?at=${at}${seat === "" ? "" : "&seat=" + seat}`, { token });
      cache.set(key, step);
    }
    if (String(at) !== slider.value || seat !== seatPick.value) return;     // moved on meanwhile
    document.body.dataset.step = String(at);
    replace(ui.whoami, seat === "" ? "Replay, as a spectator sees it"
      : `Replay, as ${seatName(Number(seat), { seats: log.seats })} saw it`);
    replace(counter, `step ${at} of ${total}`);
    const ctx = context(step, []);
    const entry = step.entry;
    replace(ui.turn, entry ? `#${entry.version} ${seatName(entry.seat, ctx)}: ${entry.action ? entry.action.text : "a hidden choice"}` : "The start of the match.",
      at === total && step.outcome ? ` — final scores ${step.outcome.scores.join(" / ")}` : "");
    ui.turn.className = "turn";
    draw(step, []);
    const around = log.entries.filter((e) => e.version <= at).slice(-12);
    page.log = new Map();
    page.doc = { seat: seat === "" ? null : Number(seat), seats: log.seats };
    addEvents(around);
  };
  const stop = () => { if (timer) { clearInterval(timer); timer = null; playBtn.textContent = "play"; } };
  const playBtn = h("button", { type: "button", id: "autoplay", onclick: () => {
    if (timer) { stop(); return; }
    playBtn.textContent = "pause";
    timer = setInterval(() => { if (Number(slider.value) >= total) stop(); else go(Number(slider.value) + 1); }, 600);
  } }, "play");
  slider.addEventListener("input", () => { stop(); go(Number(slider.value)); });
  seatPick.addEventListener("change", () => go(Number(slider.value)));
  replace(ui.controls, h("div", { class: "replay" },
    h("button", { type: "button", id: "prev", onclick: () => { stop(); go(Number(slider.value) - 1); } }, "◀"),
    slider,
    h("button", { type: "button", id: "next", onclick: () => { stop(); go(Number(slider.value) + 1); } }, "▶"),
    playBtn, counter, h("label", null, " view of ", seatPick)),
    h("details", { class: "panel rest" }, h("summary", null, "the reveal (everything hidden, at the end)"), renderGeneric(log.reveal.final_state, context({ seats: log.seats, seat: null }, []))));
  await go(0);
}

// a seat's link pasted over this page (only the fragment changes, which loads nothing): read the page anew with it
window.addEventListener("hashchange", () => window.location.reload());

(mode === "replay" ? replay() : live()).catch(showError);
