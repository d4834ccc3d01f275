// Robotrick: the trump, Droco's open hand and its AI card, the trick on the table and the last one, each seat's
// captures and hand size, and the seat's own hand (its playable cards clickable). Everything read from the view.

import { h } from "../dom.js";
import { backs, card, cards, field, rest, seatName, section } from "./common.js";

const DRAWN = ["game", "phase", "round", "rounds", "tricks_played", "actors", "seating", "ai_card", "trump",
  "droco_hand", "hand_sizes", "pass_chosen", "trick", "last_trick", "captures", "hangars", "scores", "terminal",
  "seat", "hand", "pass", "tricks"];

function who(x, ctx) {
  return x === "droco" ? "Droco" : seatName(x, ctx);
}

function trick(t, ctx, title) {
  if (!t) return null;
  const played = (t.cards || []).map(([by, c]) =>
    h("div", { class: "played" + (t.winner !== undefined && t.winner === by ? " winner" : "") }, card(c, null), h("small", null, who(by, ctx))));
  const lead = t.leader !== undefined && t.leader !== null ? `led by ${who(t.leader, ctx)}` : "";
  const won = t.winner !== undefined && t.winner !== null ? ` · won by ${who(t.winner, ctx)}` : "";
  return section(title, h("div", { class: "trick" }, played.length ? played : h("span", { class: "none" }, "no card yet")),
    h("p", { class: "note" }, lead + won));
}

export function render(view, ctx) {
  const top = section(`Round ${view.round} of ${view.rounds} · ${view.phase}`,
    h("div", { class: "row" },
      field("trump", view.trump ? card(view.trump, null, "trump") : "none", ctx),
      field("tricks played", view.tricks_played, ctx),
      field("hangars", view.hangars, ctx)),
    view.ai_card ? h("p", { class: "note" }, `Droco's AI card: ${view.ai_card.name} — leads ${view.ai_card.lead}; follows with ${view.ai_card.follow}; discards ${view.ai_card.discard}`) : null);

  const seating = (view.seating || []).map((s) => {
    const droco = s === "droco";
    const i = droco ? null : s;
    const panel = h("div", { class: "panel sub seat" + (!droco && ctx.actors.includes(i) ? " acting" : "") + (!droco && i === ctx.seat ? " mine" : ""), dataset: { seat: droco ? "droco" : String(i) } },
      h("h4", null, who(s, ctx)));
    if (droco) {
      const hand = view.droco_hand || {};
      panel.append(field("hand (open)", cards(Object.values(hand).flat(), null), ctx));
    } else {
      panel.append(field("score", (view.scores || [])[i], ctx));
      const mine = i === view.seat && Array.isArray(view.hand);
      panel.append(field("hand", mine ? `${view.hand.length} cards (below)` : backs((view.hand_sizes || [])[i]), ctx));
      if (view.phase === "pass" && view.pass_chosen) panel.append(field("pass chosen", view.pass_chosen[i], ctx));
      const cap = (view.captures || [])[i];
      if (cap) {
        panel.append(field("captured face up", cards(cap.face_up, null), ctx));
        panel.append(field("captured face down", Array.isArray(cap.face_down) ? cards(cap.face_down, null, "down") : backs(cap.face_down), ctx));
      }
    }
    return panel;
  });

  const hand = Array.isArray(view.hand)
    ? section("Your hand", cards(view.hand, ctx), view.pass ? h("div", { class: "row" }, field("you pass", cards(view.pass.given, null), ctx), field("you received", cards(view.pass.received, null), ctx)) : null)
    : null;

  return h("div", { class: "table robotrick" }, top, hand,
    h("div", { class: "row" }, trick(view.trick, ctx, "Trick on the table"), trick(view.last_trick, ctx, "Last trick")),
    h("div", { class: "seats" }, seating),
    rest(view, DRAWN, ctx, "tricks of this round, past rounds, everything else"),
    view.tricks && view.tricks.length ? h("details", { class: "panel rest" }, h("summary", null, `all ${view.tricks.length} tricks of this round`),
      h("div", { class: "row" }, view.tricks.map((t, n) => trick(t, ctx, `trick ${n + 1}`)))) : null);
}
