// Deal verification on the table: remember what we saw at the deal, verify when the
// seed is revealed (fairness.js does the checking).

import { verifyHand } from "../fairness.js";
import { renderFairness } from "./render.js";
import { renderShowdownVerification } from "./showdown.js";
import { config, ui } from "./state.js";

// --------------------------------------------------------------------------
// Fairness: remember what we saw at the deal; verify when the seed is revealed.
// --------------------------------------------------------------------------
export const dealKey = (n) => `gin-deal:${config.matchId}:${n}`;

export function loadDeal(n) {
  try { return JSON.parse(localStorage.getItem(dealKey(n)) || "null"); } catch { return null; }
}

export function recordDeal(msg) {
  const m = msg.match;
  if (!m.commitment || !m.hand_number || !msg.view) return;
  const finished = (m.hands || []).some((h) => h.number === m.hand_number);
  if (finished) return;
  const seen = loadDeal(m.hand_number) || {};
  if (!seen.commitment) seen.commitment = m.commitment;
  if (!seen.upcard && msg.view.upcard) seen.upcard = msg.view.upcard;
  const me = msg.you;
  if ((me === 0 || me === 1) && !seen.hand) {
    const drew = (msg.view.history || []).some((e) => e.seat === me && e.type === "draw");
    if (!drew && msg.view.hand.length === 10) { seen.hand = [...msg.view.hand]; seen.seat = me; }
  }
  try { localStorage.setItem(dealKey(m.hand_number), JSON.stringify(seen)); } catch { /* private mode */ }
}

export async function verify(hand) {
  if (!hand?.seed || ui.verifications.has(hand.number)) return;
  ui.verifications.set(hand.number, "pending");
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
    outcome = { verified: false, checks: [{ label: String(err.message || err), ok: false }] };
  }
  ui.verifications.set(hand.number, outcome);
  renderFairness();
  renderShowdownVerification();
}
