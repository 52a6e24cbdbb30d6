// The live table's state: the page's config, the last "state" message and what the
// page is doing (ui), and questions about them (whose seat, which actions are legal).
// Nothing here touches the page but reading it.

import { deadwoodAfterDiscard } from "../melds.js";

export const config = JSON.parse(document.getElementById("table-config").textContent);
export const root = document.getElementById("table-app");
export const $ = (sel) => root.querySelector(sel);

export const ui = {
  msg: null,            // last "state" message
  pending: false,       // an action is on its way
  knockMode: false,
  handsSeen: null,      // number of finished hands when last rendered
  previousHand: [],     // my cards before the last state (to mark a drawn card)
  newCards: new Set(),
  verifications: new Map(),  // hand number -> {verified, checks} | "pending"
  showdownFor: null,    // hand number shown in the dialog
};

// --------------------------------------------------------------------------
// Helpers over the state message
// --------------------------------------------------------------------------
export const you = () => ui.msg?.you ?? null;
export const isPlayer = () => you() === 0 || you() === 1;
export const opp = () => (isPlayer() ? 1 - you() : 1);
export const seatInfo = (seat) => ui.msg?.match?.seats?.find((s) => s.seat === seat) ?? { seat, name: `Seat ${seat + 1}` };
export function seatName(seat, { capital = false } = {}) {
  if (isPlayer() && seat === you()) return capital ? "You" : "you";
  return seatInfo(seat).name || `Seat ${seat + 1}`; // games/messages.py seat_name
}
export const isBot = (seat) => Boolean(seatInfo(seat).bot_level);

export function legalActions() {
  const msg = ui.msg;
  if (!msg || !isPlayer() || msg.match.status !== "active" || !msg.view) return [];
  return msg.view.legal_actions;
}

export const can = (pred) => legalActions().some(pred);
export const canDraw = (source) => can((a) => a.type === "draw" && a.source === source);
export const canPass = () => can((a) => a.type === "pass");
export const canDiscard = (card) => can((a) => a.type === "discard" && a.card === card);

export function knockOptions() {
  const view = ui.msg.view;
  const after = deadwoodAfterDiscard(view.hand);
  return legalActions()
    .filter((a) => a.type === "knock" && a.card)
    .map((a) => ({ card: a.card, deadwood: after.get(a.card) ?? 99 }));
}
export const ginOptions = () => knockOptions().filter((k) => k.deadwood === 0);
export const nonGinKnocks = () => knockOptions().filter((k) => k.deadwood > 0);
export const canBigGin = () => can((a) => a.type === "big_gin");
