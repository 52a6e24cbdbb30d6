// @ts-check
// Deal verification on the table: remember what we saw at the deal, verify when the
// seed is revealed (fairness.js does the checking).

import { verifyHand } from "../fairness.js";
import { renderFairness } from "./render.js";
import { renderShowdownVerification } from "./showdown.js";
import { config, ui } from "./state.js";

// --------------------------------------------------------------------------
// Fairness: remember what we saw at the deal; verify when the seed is revealed.
// --------------------------------------------------------------------------
/**
 * What the page saw of a deal (kept in localStorage until the seed is revealed).
 * @typedef {object} SeenDeal
 * @property {string} [commitment]
 * @property {string} [upcard]
 * @property {string[]} [hand] the player's ten cards as dealt
 * @property {number} [seat]
 * @property {string[][]} [hands] both hands, from the deal's page once revealed
 */

/** @param {number} n the hand's number */
export const dealKey = (n) => `gin-deal:${config.matchId}:${n}`;

/** @param {number} n @returns {SeenDeal | null} */
export function loadDeal(n) {
  try { return JSON.parse(localStorage.getItem(dealKey(n)) || "null"); } catch { return null; }
}

/** @param {import("../wire.js").StateFrame} msg */
export function recordDeal(msg) {
  const m = msg.match;
  if (!m.commitment || !m.hand_number || !msg.view) return;
  const finished = (m.hands || []).some((h) => h.number === m.hand_number);
  if (finished) return;
  /** @type {SeenDeal} */
  const seen = loadDeal(m.hand_number) || {};
  if (!seen.commitment) seen.commitment = m.commitment;
  if (!seen.upcard && msg.view.upcard) seen.upcard = msg.view.upcard;
  const me = msg.you;
  if ((me === 0 || me === 1) && !seen.hand) {
    const drew = (msg.view.history || []).some((e) => "seat" in e && e.seat === me && e.type === "draw");
    if (!drew && msg.view.hand.length === 10) { seen.hand = [...msg.view.hand]; seen.seat = me; }
  }
  try { localStorage.setItem(dealKey(m.hand_number), JSON.stringify(seen)); } catch { /* private mode */ }
}

/** @param {import("../wire.js").FinishedHand | undefined} hand */
export async function verify(hand) {
  if (!hand?.seed || ui.verifications.has(hand.number)) return;
  ui.verifications.set(hand.number, "pending");
  /** @type {SeenDeal} */
  let observed = loadDeal(hand.number) || {};
  if (!observed.hand && config.dealUrlTemplate) {
    try {
      const res = await fetch(config.dealUrlTemplate.replace("__N__", String(hand.number)), { credentials: "same-origin" });
      if (res.ok) {
        const deal = await res.json();
        observed = { ...observed, hands: deal.hands, upcard: observed.upcard ?? deal.upcard };
      }
    } catch { /* the commitment check still runs */ }
  }
  let outcome;
  try {
    outcome = await verifyHand(hand, observed);
  } catch (err) {
    const label = String(/** @type {Error} */ (err).message || err);
    outcome = { verified: false, checks: [{ label, ok: false }] };
  }
  ui.verifications.set(hand.number, outcome);
  renderFairness();
  renderShowdownVerification();
}
