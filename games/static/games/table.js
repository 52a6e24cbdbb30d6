// @ts-check
// The live table, the page's entry module: one WebSocket per match page
// (docs/protocol.md) whose messages update the state and the page. The rest lives in
// games/static/games/table/: connection.js (the socket), state.js (the state and
// questions about it), render.js (the table), showdown.js (the result dialog),
// fairness.js (deal verification), input.js (clicks, drag, keyboard, dialogs),
// tournament.js (after a tournament match: what comes next, and on to it); the
// replay page shares the rendering of hands and moves with it (hands.js).

import { applyFrame, isStale } from "./events.js";
import { play } from "./sound.js";
import { errorSentence } from "./words.js";
import { conn } from "./table/connection.js";
import { recordDeal } from "./table/fairness.js";
import { announce, render, renderSeats, toast } from "./table/render.js";
import "./table/input.js"; // clicks, drag, keyboard and the dialogs
import { handleFinishedHands, rematchUrl } from "./table/showdown.js";
import { config, isPlayer, legalActions, root, ui, you } from "./table/state.js";
import { followTournament } from "./table/tournament.js";
import { format, gettext } from "./i18n.js";

// A frame too large can only be a chat line (actions are small): chat.js says so.
const CHAT_ERRORS = new Set(["muted", "chat_too_long", "chat_empty", "chat_not_allowed", "account_closed", "frame_too_large"]);

/** @typedef {import("./wire.js").StateFrame} StateFrame */

// --------------------------------------------------------------------------
// Incoming messages
// --------------------------------------------------------------------------
/** @param {import("./wire.js").MatchSocketFrame} data */
function onMessage(data) {
  document.dispatchEvent(new CustomEvent("gin:socket-message", { detail: data }));
  if (data.type === "state") {
    onState(data);
  } else if (data.type === "event") {
    // An ordinary move: only what changed (events.js). A frame we already hold is
    // dropped; one that does not follow our version means we missed one: resync.
    if (!ui.msg || isStale(ui.msg, data)) return;
    const next = applyFrame(ui.msg, data);
    if (next === null) { conn.send({ type: "sync" }); return; }
    onState(next);
  } else if (data.type === "presence") {
    if (!ui.msg) return;
    for (const p of data.seats) {
      const s = ui.msg.match.seats.find((x) => x.seat === p.seat);
      if (s) s.connected = p.connected;
    }
    renderSeats();
  } else if (data.type === "deadline") {
    // A correspondence turn's deadline moved (a vacation), at the version it names,
    // which it did not raise: one we are behind of means a frame was missed.
    if (!ui.msg || data.version < ui.msg.version) return;
    if (data.version > ui.msg.version) { conn.send({ type: "sync" }); return; }
    ui.msg.match.correspondence = data.correspondence;
    render();
  } else if (data.type === "error") {
    if (CHAT_ERRORS.has(data.code)) return;  // chat.js shows those next to the chat
    ui.pending = false;
    root.classList.remove("is-pending");
    if (data.code !== "stale_version") { toast(errorSentence(data.code, data.message)); play("error"); }
    render();
  }
}

/** @param {StateFrame} data */
function onState(data) {
  if (wrongSeat(data)) return;
  const firstState = ui.msg === null;
  const previous = ui.msg;
  ui.msg = data;
  ui.pending = false;
  root.classList.remove("is-pending");
  markNewCards(previous, data);
  recordDeal(data);
  if (!legalActions().some((a) => a.type === "knock")) ui.knockMode = false;
  // A rematch created while we watch takes both players to the new table.
  if (previous !== null && isPlayer() && data.match.rematch?.match_id && !previous.match.rematch?.match_id) {
    location.assign(rematchUrl());
    return;
  }
  if (previous !== null) playSounds(previous, data);
  handleFinishedHands(firstState);
  followTournament();  // a tournament match over: on to the player's next match
  render();
  announce(previous, data);
}

/**
 * Sounds (sound.js): the end of a hand, else the opponent's discard, then our turn.
 * @param {StateFrame} previous @param {StateFrame} next
 */
function playSounds(previous, next) {
  if ((next.match.hands || []).length > (previous.match.hands || []).length) {
    const kind = next.match.hands.at(-1)?.result?.kind;
    play(kind === "gin" || kind === "big_gin" ? "gin" : "hand_end");
    return;
  }
  if (previous.view && next.view && previous.match.hand_number === next.match.hand_number) {
    const fresh = (next.view.history || []).slice((previous.view.history || []).length);
    if (fresh.some((e) => e.type === "discard" && e.seat !== you())) play("discard");
  }
  /** @param {StateFrame} msg */
  const myTurn = (msg) => isPlayer() && msg.match.status === "active" && msg.view?.current_player === you();
  if (myTurn(next) && !myTurn(previous)) play("turn");
}

// A socket opened while the match waited for an opponent may be bound to the seat
// we held then; once seats are drawn at the start it must be opened again.
let lastReopen = 0;
/** @param {StateFrame} data */
function wrongSeat(data) {
  const me = data.you;
  if (!config.userName || (me !== 0 && me !== 1)) return false;
  const seat = data.match.seats.find((s) => s.seat === me);
  if (!seat || seat.bot_level || seat.name === config.userName) return false;
  if (Date.now() - lastReopen > 3000) { lastReopen = Date.now(); conn.reopen(); }
  return true;
}

/** @param {string} status @param {number} [detail] */
function onStatus(status, detail) {
  root.dataset.conn = status;
  const banner = /** @type {HTMLElement} */ (document.getElementById("conn-banner"));
  const text = /** @type {HTMLElement} */ (banner.querySelector("[data-conn-text]"));
  // For a spectator the bottom seat's dot shows that player's presence, not our socket.
  /** @type {HTMLElement | null} */
  const mine = ui.msg === null || isPlayer() ? root.querySelector("[data-my-conn]") : null;
  if (status === "online") {
    root.dataset.connects = String(Number(root.dataset.connects || 0) + 1);
    banner.hidden = true;
    if (mine) { mine.dataset.state = "online"; mine.textContent = gettext("connected"); }
    return;
  }
  banner.hidden = false;
  if (mine) { mine.dataset.state = "offline"; mine.textContent = status === "connecting" ? gettext("connecting…") : gettext("offline"); }
  if (status === "connecting") text.textContent = gettext("Connecting…");
  else if (status === "reconnecting") text.textContent = format(gettext("Connection lost. Reconnecting in %(seconds)s s…"), { seconds: Math.max(1, Math.round(Number(detail) / 1000)) });
  else if (status === "refused") {
    /** @type {Record<number, string>} */
    const refusals = { 4003: gettext("Your account was closed."), 4403: gettext("You cannot watch this match.") };
    text.textContent = refusals[Number(detail)] ?? gettext("This match does not exist.");
  }
}

/** @param {StateFrame | null} previous @param {StateFrame} next */
function markNewCards(previous, next) {
  ui.newCards = new Set();
  if (!previous?.view || !next.view || !isPlayer()) return;
  const samehand = previous.match.hand_number === next.match.hand_number;
  if (!samehand) return;
  const before = new Set(previous.view.hand);
  for (const c of next.view.hand) if (!before.has(c)) ui.newCards.add(c);
}

// The chat panel (chat.js) shares this socket: it hears every frame as a
// "gin:socket-message" event and sends through "gin:socket-send" (cancelled once sent).
document.addEventListener("gin:socket-send", (event) => {
  if (conn.send(/** @type {CustomEvent} */ (event).detail)) event.preventDefault();
});
conn.handlers = { message: onMessage, status: onStatus };
conn.connect();
