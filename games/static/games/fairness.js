// Deal verification in the browser (docs/dealing.md): the server commits to
// SHA-256(seed) when it deals and reveals the seed when the hand is over; we
// re-deal the seed here with WebCrypto and compare with what was dealt.

import { RANKS, SUITS } from "./cards.js";
import { format, gettext } from "./i18n.js";

const encoder = new TextEncoder();

export function hexToBytes(hex) {
  if (typeof hex !== "string" || hex.length % 2 !== 0 || /[^0-9a-fA-F]/.test(hex)) {
    throw new Error("the seed is not hexadecimal");
  }
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export function bytesToHex(bytes) {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
}

export function cryptoAvailable() {
  return Boolean(globalThis.crypto && globalThis.crypto.subtle);
}

export async function sha256Hex(bytes) {
  return bytesToHex(await crypto.subtle.digest("SHA-256", bytes));
}

/** The canonical deck: for suit in CDHS, for rank in A..K. */
export function newDeck() {
  const deck = [];
  for (const s of SUITS) for (const r of RANKS) deck.push(r + s);
  return deck;
}

/** Unsigned 32-bit big-endian integers from HMAC-SHA256(seed, "gin-deal" || i as u64 BE). */
class DealStream {
  constructor(key) {
    this.key = key;
    this.block = 0;
    this.words = [];
  }

  async next() {
    if (this.words.length === 0) {
      const msg = new Uint8Array(8 + 8);
      msg.set(encoder.encode("gin-deal"), 0);
      new DataView(msg.buffer).setBigUint64(8, BigInt(this.block));
      this.block += 1;
      const mac = new DataView(await crypto.subtle.sign("HMAC", this.key, msg));
      for (let off = 0; off < mac.byteLength; off += 4) this.words.push(mac.getUint32(off, false));
    }
    return this.words.shift();
  }
}

/** The shuffled deck for a seed (bytes): Fisher-Yates with rejection sampling. */
export async function shuffledDeck(seed) {
  const key = await crypto.subtle.importKey(
    "raw", seed, { name: "HMAC", hash: "SHA-256" }, false, ["sign"],
  );
  const stream = new DealStream(key);
  const deck = newDeck();
  for (let i = 51; i >= 1; i--) {
    const n = i + 1;
    const limit = 2 ** 32 - (2 ** 32 % n);
    let u = await stream.next();
    while (u >= limit) u = await stream.next();
    const j = u % n;
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}

/** Split a shuffled deck: even cards to the non-dealer, odd to the dealer. */
export function dealDeck(deck, dealer) {
  const nonDealer = [];
  const dealerHand = [];
  for (let k = 0; k < 20; k++) (k % 2 === 0 ? nonDealer : dealerHand).push(deck[k]);
  const hands = dealer === 0 ? [dealerHand, nonDealer] : [nonDealer, dealerHand];
  return { hands, upcard: deck[20], stock: deck.slice(21) };
}

const sameCards = (a, b) => a.length === b.length && [...a].sort().join() === [...b].sort().join();

/**
 * Check a finished hand. `hand`: {seed, commitment, dealer}; `observed`: what this
 * browser saw at the deal ({commitment, seat, hand, upcard}; any may be missing).
 * Returns {verified, checks: [{label, ok}], deal}.
 */
export async function verifyHand(hand, observed = {}) {
  if (!cryptoAvailable()) {
    return { verified: false, unavailable: true, checks: [{ label: gettext("This browser offers no WebCrypto here (it needs HTTPS)"), ok: false }] };
  }
  const checks = [];
  const seed = hexToBytes(hand.seed);
  const digest = await sha256Hex(seed);
  const announced = observed.commitment ?? hand.commitment;
  checks.push({ label: gettext("SHA-256 of the revealed seed equals the commitment shown at the deal"), ok: digest === announced });
  if (observed.commitment && hand.commitment && observed.commitment !== hand.commitment) {
    checks.push({ label: gettext("The commitment did not change after the deal"), ok: false });
  }
  const deal = dealDeck(await shuffledDeck(seed), hand.dealer);
  if (observed.upcard) {
    checks.push({ label: gettext("The seed deals the upcard that was turned"), ok: deal.upcard === observed.upcard });
  }
  if (observed.hand && observed.seat !== null && observed.seat !== undefined) {
    checks.push({ label: gettext("The seed deals exactly the ten cards you were dealt"), ok: sameCards(deal.hands[observed.seat], observed.hand) });
  }
  if (observed.hands) {
    for (const seat of [0, 1]) {
      checks.push({ label: format(gettext("The seed deals seat %(seat)s's ten cards"), { seat: seat + 1 }), ok: sameCards(deal.hands[seat], observed.hands[seat]) });
    }
  }
  return { verified: checks.every((c) => c.ok), checks, deal };
}
