// @ts-check
// The live table's state: the page's config, the last "state" message and what the
// page is doing (ui), and questions about them (whose seat, which actions are legal).
// Nothing here touches the page but reading it.

import { deadwoodAfterDiscard } from "../melds.js";
import { format, gettext, pgettext } from "../i18n.js";

/** @typedef {import("../wire.js").StateFrame} StateFrame */
/** @typedef {import("../wire.js").LegalAction} LegalAction */
/** @typedef {import("../wire.js").SeatInfo} SeatInfo */

/**
 * The page's config (games/views.py ``table``).
 * @typedef {object} TableConfig
 * @property {number} matchId
 * @property {string | null} userName the viewer's name, null when not signed in
 * @property {string} wsPath
 * @property {string} matchUrlTemplate a table's address, "__ID__" for its match id
 * @property {string} dealUrlTemplate a deal's address, "__N__" for its hand number
 * @property {TournamentConfig | null} tournament only for a player of a tournament match
 */
/**
 * @typedef {object} TournamentConfig
 * @property {number} id
 * @property {string} name
 * @property {"arena" | "swiss"} format
 * @property {string} status
 * @property {string} player the player's name in the standings' rows
 * @property {string} url
 * @property {string} wsPath
 */
/**
 * A deal's verification (fairness.js ``verifyHand``).
 * @typedef {object} Verification
 * @property {boolean} verified
 * @property {boolean} [unavailable] no WebCrypto here: nothing could be checked
 * @property {{label: string, ok: boolean}[]} checks
 */
/**
 * What the page holds and is doing.
 * @typedef {object} TableUi
 * @property {StateFrame | null} msg the last "state" message (events applied)
 * @property {boolean} pending an action is on its way
 * @property {boolean} knockMode
 * @property {string | null} confirming the card a first press chose to discard (the table
 *   settings' confirm-before-discard), awaiting the second
 * @property {number | null} handsSeen number of finished hands when last rendered
 * @property {string[]} previousHand my cards before the last state (to mark a drawn card)
 * @property {Set<string>} newCards
 * @property {Map<number, Verification | "pending">} verifications by hand number
 * @property {number | null} showdownFor hand number shown in the dialog
 */

/** @type {TableConfig} */
export const config = JSON.parse(/** @type {HTMLElement} */ (document.getElementById("table-config")).textContent ?? "");
export const root = /** @type {HTMLElement} */ (document.getElementById("table-app"));
/** @param {string} sel @returns {HTMLElement} the table's element (its template has it) */
export const $ = (sel) => /** @type {HTMLElement} */ (root.querySelector(sel));
/** The page's element of id `id` (the table's template has it). @param {string} id */
export const byId = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
/** The element `sel` inside `el` (the template has it). @param {ParentNode} el @param {string} sel */
export const find = (el, sel) => /** @type {HTMLElement} */ (el.querySelector(sel));
/** The showdown dialog. */
export const showdownDialog = () => /** @type {HTMLDialogElement} */ (byId("showdown"));

/** @type {TableUi} */
export const ui = {
  msg: null,            // last "state" message
  pending: false,       // an action is on its way
  knockMode: false,
  confirming: null,     // a discard awaiting its second press
  handsSeen: null,      // number of finished hands when last rendered
  previousHand: [],     // my cards before the last state (to mark a drawn card)
  newCards: new Set(),
  verifications: new Map(),  // hand number -> {verified, checks} | "pending"
  showdownFor: null,    // hand number shown in the dialog
};

// --------------------------------------------------------------------------
// Helpers over the state message
// --------------------------------------------------------------------------
/** The state held: the table is drawn only once one arrived. */
export const held = () => /** @type {StateFrame} */ (ui.msg);
/** Its view: the table's hands are drawn only when there is one. */
export const heldView = () => /** @type {import("../wire.js").View} */ (ui.msg?.view);
export const you = () => ui.msg?.you ?? null;
export const isPlayer = () => you() === 0 || you() === 1;
/** My seat: only for a player (isPlayer()). */
export const me = () => /** @type {number} */ (you());
export const opp = () => (isPlayer() ? 1 - me() : 1);
/** @param {number} seat @returns {Partial<SeatInfo> & {seat: number}} */
export const seatInfo = (seat) => ui.msg?.match?.seats?.find((s) => s.seat === seat) ?? { seat, name: `Seat ${seat + 1}` };
/** @param {number} seat @param {{capital?: boolean}} [options] */
export function seatName(seat, { capital = false } = {}) {
  if (isPlayer() && seat === you()) return capital ? gettext("You") : gettext("you");
  const level = seatInfo(seat).bot_level;
  // The computer is named in the reader's language (the frame's name is the sender's).
  if (level) return format(gettext("Computer (%(level)s)"), { level: levelName(level) });
  return seatInfo(seat).name || format(gettext("Seat %(seat)s"), { seat: seat + 1 });
}

/** A computer level as a seat's name says it ("easy"). @param {string} level */
function levelName(level) {
  /** @type {Record<string, string>} */
  const names = {
    easy: pgettext("computer level in a name", "easy"), medium: pgettext("computer level in a name", "medium"),
    hard: pgettext("computer level in a name", "hard"), expert: pgettext("computer level in a name", "expert"),
  };
  return names[level] ?? level; // games/messages.py seat_name
}
/** @param {number} seat */
export const isBot = (seat) => Boolean(seatInfo(seat).bot_level);

/** @returns {LegalAction[]} */
export function legalActions() {
  const msg = ui.msg;
  if (!msg || !isPlayer() || msg.match.status !== "active" || !msg.view) return [];
  return msg.view.legal_actions;
}

/** @param {(action: LegalAction) => boolean} pred */
export const can = (pred) => legalActions().some(pred);
/** @param {"stock" | "discard"} source */
export const canDraw = (source) => can((a) => a.type === "draw" && a.source === source);
export const canPass = () => can((a) => a.type === "pass");
/** @param {string} card */
export const canDiscard = (card) => can((a) => a.type === "discard" && a.card === card);

/** The knocks the player may make, each with the deadwood it leaves. */
export function knockOptions() {
  const view = /** @type {import("../wire.js").View} */ (ui.msg?.view);
  const after = deadwoodAfterDiscard(view.hand);
  return legalActions()
    .filter((a) => a.type === "knock" && a.card)
    .map((a) => {
      const card = /** @type {import("../wire.js").LegalKnock} */ (a).card;
      return { card, deadwood: after.get(card) ?? 99 };
    });
}
export const ginOptions = () => knockOptions().filter((k) => k.deadwood === 0);
export const nonGinKnocks = () => knockOptions().filter((k) => k.deadwood > 0);
export const canBigGin = () => can((a) => a.type === "big_gin");
