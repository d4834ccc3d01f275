// The lobby: the catalogue (GET /v1/games, /v1/bots), a form to create a match (POST /v1/matches), the links to
// hand each human seat (its token in the fragment: "#token=...", never in a query string), and the recent
// listed matches (GET /v1/matches).

import { get, post, seg } from "./api.js";
import { h, label, replace } from "./dom.js";

const ui = {
  catalogue: document.getElementById("catalogue"),
  form: document.getElementById("create"),
  game: document.getElementById("game"),
  params: document.getElementById("params"),
  seats: document.getElementById("seats"),
  seed: document.getElementById("seed"),
  listed: document.getElementById("listed"),
  created: document.getElementById("created"),
  recent: document.getElementById("recent"),
  error: document.getElementById("error"),
};

let games = [];
let bots = [];

function showError(err) {
  ui.error.hidden = !err;
  replace(ui.error, err ? `${err.code || "error"}: ${err.message}` : "");
}

function drawCatalogue() {
  replace(ui.catalogue, h("table", { class: "grid" },
    h("thead", null, h("tr", null, ["game", "players", "parameters", "actions"].map((t) => h("th", null, t)))),
    h("tbody", null, games.map((g) => h("tr", null,
      h("td", null, h("strong", null, g.title)),
      h("td", null, g.min_players === g.max_players ? String(g.min_players) : `${g.min_players}–${g.max_players}`),
      h("td", null, g.parameters.map((p) => h("div", { title: p.doc }, `${label(p.name)} = ${JSON.stringify(p.default)}`))),
      h("td", null, String(g.num_actions)))))));
}

function currentGame() {
  return games.find((g) => g.name === ui.game.value);
}

function paramInput(p) {
  const id = "param-" + p.name;
  let input;
  if (p.type === "bool") input = h("input", { type: "checkbox", id, checked: p.default === true });
  else if (p.choices) input = h("select", { id }, p.choices.map((c) => h("option", { value: String(c), selected: c === p.default }, String(c))));
  else if (p.type === "int" || p.type === "float") input = h("input", { type: "number", id, value: String(p.default), min: p.min, max: p.max, step: p.type === "float" ? "any" : "1" });
  else input = h("input", { type: "text", id, value: p.default === null ? "" : String(p.default) });
  input.dataset.param = p.name;
  input.dataset.type = p.type;
  if (p.name === "players") input.addEventListener("input", drawSeats);
  return h("div", { class: "field" }, h("label", { for: id, title: p.doc }, label(p.name)), input, h("small", null, p.doc));
}

function drawParams() {
  const g = currentGame();
  replace(ui.params, g.parameters.map(paramInput));
  drawSeats();
}

function seatCount() {
  const g = currentGame();
  const players = ui.params.querySelector('[data-param="players"]');
  const n = players ? Number(players.value) : g.num_players;
  return Number.isInteger(n) && n >= g.min_players && n <= g.max_players ? n : g.num_players;
}

function drawSeats() {
  const n = seatCount();
  const rows = [];
  for (let i = 0; i < n; i += 1) {
    const kind = h("select", { id: `seat-${i}`, dataset: { seat: String(i) } },
      h("option", { value: "human" }, "human (a link with its token)"),
      bots.map((b) => h("option", { value: b.name, title: b.doc, selected: i > 0 && b.name === "greedy" }, `bot: ${b.name}`)));
    const budget = h("input", { type: "number", id: `budget-${i}`, min: "0", max: "10000", placeholder: "budget (ms)", title: "time budget per move in ms (search bots use it all; empty: the bot's own)", "aria-label": "time budget (ms)" });
    rows.push(h("div", { class: "field" }, h("label", { for: `seat-${i}` }, `seat ${i}`), kind, budget));
  }
  replace(ui.seats, rows);
}

function readParams() {
  const params = {};
  for (const input of ui.params.querySelectorAll("[data-param]")) {
    const type = input.dataset.type;
    if (type === "bool") params[input.dataset.param] = input.checked;
    else if (type === "int") params[input.dataset.param] = parseInt(input.value, 10);
    else if (type === "float") params[input.dataset.param] = parseFloat(input.value);
    else params[input.dataset.param] = input.value;
  }
  return params;
}

function readSeats() {
  const seats = [];
  for (let i = 0; i < seatCount(); i += 1) {
    const kind = document.getElementById(`seat-${i}`).value;
    if (kind === "human") { seats.push({ type: "human" }); continue; }
    const seat = { type: "bot", bot: kind };
    const budget = document.getElementById(`budget-${i}`).value;
    if (budget !== "") seat.budget_ms = parseInt(budget, 10);
    seats.push(seat);
  }
  return seats;
}

function link(path) {
  return new URL(path, window.location.origin).href;
}

async function create(event) {
  event.preventDefault();
  showError(null);
  const body = { game: ui.game.value, params: readParams(), seats: readSeats(), listed: ui.listed.checked };
  if (ui.seed.value !== "") body.seed = parseInt(ui.seed.value, 10);
  try {
    const doc = await post("/v1/matches", body);
    const watch = link(`/play/${seg(doc.match_id)}`);
    replace(ui.created,
      h("h3", null, `Match ${doc.match_id} (${doc.game}) created`),
      h("p", { class: "note" }, "Hand each player their own link: it holds their seat's secret token (after the #, so it never reaches a server log). It is shown this once only."),
      h("ul", { class: "links" }, doc.seats.filter((s) => s.token).map((s) => {
        const href = link(`/play/${seg(doc.match_id)}#token=${encodeURIComponent(s.token)}`);
        return h("li", null, `seat ${s.seat}: `, h("a", { href, class: "seat-link", dataset: { seat: String(s.seat) } }, "open seat " + s.seat),
          " ", h("input", { type: "text", readonly: true, value: href, class: "copy", "aria-label": `link of seat ${s.seat}`, onfocus: (e) => e.target.select() }));
      }),
      h("li", null, "spectators: ", h("a", { href: watch, id: "watch-link" }, watch))));
    loadRecent();
  } catch (err) {
    showError(err);
  }
}

async function loadRecent() {
  try {
    const doc = await get("/v1/matches?limit=20");
    replace(ui.recent, doc.matches.length ? h("table", { class: "grid" },
      h("thead", null, h("tr", null, ["match", "game", "seats", "status", "actions played", ""].map((t) => h("th", null, t)))),
      h("tbody", null, doc.matches.map((m) => h("tr", { dataset: { match: m.match_id } },
        h("td", null, h("code", null, m.match_id)),
        h("td", null, m.game),
        h("td", null, m.seats.map((s) => (s.type === "bot" ? s.bot : "human")).join(", ")),
        h("td", null, m.status),
        h("td", null, String(m.version)),
        h("td", null, m.status === "finished"
          ? h("a", { href: `/replay/${seg(m.match_id)}` }, "replay")
          : h("a", { href: `/play/${seg(m.match_id)}` }, "watch")))))) : h("p", { class: "none" }, "no listed match yet"));
  } catch (err) {
    showError(err);
  }
}

async function main() {
  const [catalogue, botList] = await Promise.all([get("/v1/games"), get("/v1/bots")]);
  games = catalogue.games;
  bots = botList.bots;
  drawCatalogue();
  replace(ui.game, games.map((g) => h("option", { value: g.name }, g.title)));
  ui.game.addEventListener("change", drawParams);
  drawParams();
  ui.form.addEventListener("submit", create);
  document.getElementById("refresh").addEventListener("click", loadRecent);
  await loadRecent();
  setInterval(loadRecent, 15000);
  document.body.dataset.ready = "true";
}

main().catch(showError);
