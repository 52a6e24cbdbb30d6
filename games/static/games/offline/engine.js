// The rules of docs/rules.md in the browser: a line-by-line port of games/engine
// (cards, melds, dealing, state, views, scoring), pure and synchronous, no DOM.
// tests/offline/test_crosscheck.py plays thousands of seeded hands through both and
// requires the same legal actions, views, results and match scores at every step.
//
// A hand state is the plain JSON of HandState.to_dict() (cards as text), so it can be
// stored in IndexedDB as is. A set of cards is a "mask": four 13-bit suit patterns
// [clubs, diamonds, hearts, spades], bit rank-1 for each card held.

import { hmacSha256 } from "./sha256.js";

export const RANKS = "A23456789TJQK";
export const SUITS = "CDHS";
const SUIT_BITS = 0x1fff;
const WALL = 2;
const FORMAT = 1;

export const TEXT = [];
for (const s of SUITS) for (const r of RANKS) TEXT.push(r + s);
export const INDEX = new Map(TEXT.map((t, i) => [t, i]));
export const VALUE = TEXT.map((_, i) => Math.min((i % 13) + 1, 10));
const KEY = TEXT.map((_, i) => (i % 13) * 4 + Math.floor(i / 13));  // (rank, suit) order

// `kind` "malformed" | "illegal"; `reason` and `details` as the Python engine's
// (games/engine/errors.py REASONS), for the sentence a person reads (words.js).
export class ActionError extends Error {
  constructor(kind, message, reason, details = {}) { super(message); this.kind = kind; this.reason = reason; this.details = details; }
}
const illegal = (message, reason, details) => new ActionError("illegal", message, reason, details);
const malformed = (message, reason, details) => new ActionError("malformed", message, reason, details);

// --- masks -------------------------------------------------------------------------

const ZERO = Object.freeze([0, 0, 0, 0]);
const bitCount = (x) => { let n = 0; while (x) { x &= x - 1; n++; } return n; };
const lowBit = (x) => x & -x;
const bitIndex = (single) => 31 - Math.clz32(single);
export const maskCount = (m) => bitCount(m[0]) + bitCount(m[1]) + bitCount(m[2]) + bitCount(m[3]);
const andNot = (m, n) => [m[0] & ~n[0], m[1] & ~n[1], m[2] & ~n[2], m[3] & ~n[3]];
const or = (m, n) => [m[0] | n[0], m[1] | n[1], m[2] | n[2], m[3] | n[3]];
const and = (m, n) => [m[0] & n[0], m[1] & n[1], m[2] & n[2], m[3] & n[3]];
const isEmpty = (m) => !(m[0] | m[1] | m[2] | m[3]);
const cardMask = (i) => { const m = [0, 0, 0, 0]; m[Math.floor(i / 13)] = 1 << (i % 13); return m; };
const has = (m, i) => (m[Math.floor(i / 13)] >> (i % 13)) & 1;

/** Indices of a mask's cards, lowest index first. */
function indices(m) {
  const out = [];
  for (let s = 0; s < 4; s++) {
    let p = m[s];
    while (p) { const low = lowBit(p); out.push(s * 13 + bitIndex(low)); p ^= low; }
  }
  return out;
}
const byKey = (a, b) => KEY[a] - KEY[b];
/** Card texts of a mask in (rank, suit) order, as the engine sorts hands. */
export const maskCards = (m) => indices(m).sort(byKey).map((i) => TEXT[i]);

export function maskOf(cards) {
  const m = [0, 0, 0, 0];
  for (const c of cards) {
    const i = INDEX.get(c);
    if (i === undefined) throw new Error(`not a card: ${c}`);
    m[Math.floor(i / 13)] |= 1 << (i % 13);
  }
  if (maskCount(m) !== cards.length) throw new Error("the same card is given more than once");
  return m;
}

/** Mask helpers for the computer players (bots.js). */
export const masks = { indices, andNot, or, and, cardMask, has, maskCount, isEmpty, ZERO };

export const sortCards = (cards) => [...cards].sort((a, b) => KEY[INDEX.get(a)] - KEY[INDEX.get(b)]);

// --- run tables (melds.py _build_run_tables) --------------------------------------

const RUN_DEADWOOD = new Int32Array(8192);
const RUN_CARDS = new Int32Array(8192);
const PATTERN_VALUE = new Int32Array(8192);
for (let mask = 0; mask < 8192; mask++) {
  let dead = 0, melded = 0, rank = 0, total = 0;
  for (let r = 0; r < 13; r++) if (mask >> r & 1) total += Math.min(r + 1, 10);
  while (rank < 13) {
    if (!(mask >> rank & 1)) { rank++; continue; }
    const start = rank;
    while (rank < 13 && mask >> rank & 1) rank++;
    const block = ((1 << (rank - start)) - 1) << start;
    if (rank - start >= 3) melded |= block;
    else for (let r = start; r < rank; r++) dead += Math.min(r + 1, 10);
  }
  RUN_DEADWOOD[mask] = dead;
  RUN_CARDS[mask] = melded;
  PATTERN_VALUE[mask] = total;
}
export const maskValue = (m) => PATTERN_VALUE[m[0]] + PATTERN_VALUE[m[1]] + PATTERN_VALUE[m[2]] + PATTERN_VALUE[m[3]];
const runDeadwood = (m) => RUN_DEADWOOD[m[0]] + RUN_DEADWOOD[m[1]] + RUN_DEADWOOD[m[2]] + RUN_DEADWOOD[m[3]];

// --- sets and optimal deadwood (melds.py) -----------------------------------------

/** {forced, options}: set cards in every optimal arrangement, and per contested rank
 * the candidate set choices (masks), in the engine's order. */
function setOptions(m) {
  const [a, b, c, d] = m;
  const trips = (a & b & (c | d)) | (c & d & (a | b));
  if (!trips) return { forced: ZERO, options: [] };
  const run = [RUN_CARDS[a], RUN_CARDS[b], RUN_CARDS[c], RUN_CARDS[d]];
  let contested = (run[0] | run[1] | run[2] | run[3]) & trips;
  const sure = trips ^ contested;
  const forced = [a & sure, b & sure, c & sure, d & sure];
  const options = [];
  while (contested) {
    const low = lowBit(contested);
    contested ^= low;
    const cards = [a & low, b & low, c & low, d & low];
    const count = (cards[0] ? 1 : 0) + (cards[1] ? 1 : 0) + (cards[2] ? 1 : 0) + (cards[3] ? 1 : 0);
    if (count === 3) { options.push([cards, ZERO]); continue; }
    const choices = [cards];
    let runnable = 0;
    for (let s = 0; s < 4; s++) {
      if (cards[s] & run[s]) {
        runnable++;
        const choice = cards.slice();
        choice[s] = 0;
        choices.push(choice);
      }
    }
    if (runnable >= 2) choices.push(ZERO);
    options.push(choices);
  }
  return { forced, options };
}

/** itertools.product order: the last list varies fastest. */
function product(lists) {
  let out = [[]];
  for (const list of lists) {
    const next = [];
    for (const prefix of out) for (const item of list) next.push([...prefix, item]);
    out = next;
  }
  return out;
}

function setChoices(m) {
  const { forced, options } = setOptions(m);
  return product(options).map((combo) => combo.reduce(or, forced));
}

export function deadwoodMask(m) {
  const [a, b, c, d] = m;
  if (!((a & b & (c | d)) | (c & d & (a | b)))) return runDeadwood(m);
  let best = 999;
  for (const sets of setChoices(m)) {
    const v = runDeadwood(andNot(m, sets));
    if (v < best) best = v;
  }
  return best;
}

export const deadwood = (cards) => deadwoodMask(maskOf(cards));

function setsOf(setCards) {
  const melds = [];
  let ranks = (setCards[0] | setCards[1] | setCards[2] | setCards[3]) & SUIT_BITS;
  while (ranks) {
    const low = lowBit(ranks);
    ranks ^= low;
    melds.push([setCards[0] & low, setCards[1] & low, setCards[2] & low, setCards[3] & low]);
  }
  return melds;
}

function runsOf(m) {
  const melds = [];
  for (let s = 0; s < 4; s++) {
    let bits = RUN_CARDS[m[s]];
    while (bits) {
      const low = lowBit(bits);
      const block = bits & ~(bits + low);
      bits ^= block;
      const meld = [0, 0, 0, 0];
      meld[s] = block;
      melds.push(meld);
    }
  }
  return melds;
}

const arrangement = (m, sets) => [...setsOf(sets), ...runsOf(andNot(m, sets))];

function optimalArrangements(m) {
  const scored = setChoices(m).map((s) => [runDeadwood(andNot(m, s)), s]);
  const best = Math.min(...scored.map(([p]) => p));
  return scored.filter(([p]) => p === best).map(([, s]) => arrangement(m, s));
}

const lowestIndex = (meld) => indices(meld)[0];
/** A meld's cards in display order (ascending index: a run low to high, a set by suit). */
const meldCards = (meld) => indices(meld).map((i) => TEXT[i]);
const sortMelds = (melds) => [...melds].sort((x, y) => KEY[lowestIndex(x)] - KEY[lowestIndex(y)]);

function melding(m, melds) {
  let melded = ZERO;
  for (const meld of melds) melded = or(melded, meld);
  const dead = andNot(m, melded);
  return { melds: sortMelds(melds).map(meldCards), deadwood: maskCards(dead), points: maskValue(dead) };
}

/** {melds, deadwood, points}: the engine's best_melds of a mask. */
export function bestMeldsMask(m) {
  let bestPoints = 999;
  let bestSets = ZERO;
  for (const sets of setChoices(m)) {
    const points = runDeadwood(andNot(m, sets));
    if (points < bestPoints) { bestPoints = points; bestSets = sets; }
  }
  return melding(m, arrangement(m, bestSets));
}
export const bestMelds = (cards) => bestMeldsMask(maskOf(cards));

/** [card text, deadwood]: the discard leaving the least deadwood (ties: highest value,
 * then highest card in (rank, suit) order), never a card of ``forbidden``. */
export function bestDiscardMask(m, forbidden = ZERO) {
  const whole = deadwoodMask(m);
  const candidates = indices(andNot(m, forbidden)).map((i) => [VALUE[i], KEY[i], i]);
  if (!candidates.length) throw new Error("there is no card that may be discarded");
  candidates.sort((x, y) => y[0] - x[0] || y[1] - x[1]);
  let bestPoints = 999;
  let bestCard = candidates[0][2];
  for (const [value, , i] of candidates) {
    if (whole - value >= bestPoints) break;
    const points = deadwoodMask(andNot(m, cardMask(i)));
    if (points < bestPoints) { bestPoints = points; bestCard = i; }
  }
  return [TEXT[bestCard], bestPoints];
}

// --- lay-offs ------------------------------------------------------------------------

function layoffOptions(meld, defender) {
  const used = [0, 1, 2, 3].filter((s) => meld[s]);
  if (used.length > 1) {
    if (used.length === 3) {
      const rankBits = meld[used[0]];
      const missing = [0, 1, 2, 3].find((s) => !used.includes(s));
      if (defender[missing] & rankBits) {
        const fourth = [0, 0, 0, 0];
        fourth[missing] = rankBits;
        return [ZERO, fourth];
      }
    }
    return [ZERO];
  }
  const suit = used[0];
  const run = meld[suit];
  const own = defender[suit];
  const lower = [0];
  let bit = lowBit(run) >> 1;
  let chain = 0;
  while (bit && own & bit) { chain |= bit; lower.push(chain); bit >>= 1; }
  const upper = [0];
  bit = (1 << (32 - Math.clz32(run))) & SUIT_BITS;
  chain = 0;
  while (bit && own & bit) { chain |= bit; upper.push(chain); bit = (bit << 1) & SUIT_BITS; }
  const out = [];
  for (const lo of lower) for (const hi of upper) {
    const m = [0, 0, 0, 0];
    m[suit] = lo | hi;
    out.push(m);
  }
  return out;
}

function bestLayoffs(knockerMelds, defender) {
  const perMeld = knockerMelds.map((meld) => layoffOptions(meld, defender));
  let best = null;
  let bestCombo = knockerMelds.map(() => ZERO);
  for (const combo of product(perMeld)) {
    let laid = ZERO;
    let overlap = false;
    for (const cards of combo) {
      if (!isEmpty(and(laid, cards))) { overlap = true; break; }
      laid = or(laid, cards);
    }
    if (overlap) continue;
    const key = [deadwoodMask(andNot(defender, laid)), maskCount(laid)];
    if (best === null || key[0] < best[0] || (key[0] === best[0] && key[1] < best[1])) {
      best = key;
      bestCombo = combo;
    }
  }
  const laid = bestCombo.reduce(or, ZERO);
  const own = bestMeldsMask(andNot(defender, laid));
  return { points: own.points, melding: own, onto: bestCombo, laid };
}

// --- rules (rules.py) ------------------------------------------------------------------

const DEFAULT_RULES = {
  knock_limit: 10, target_score: 100, gin_bonus: 25, big_gin_bonus: 31, undercut_bonus: 25,
  game_bonus: 100, line_bonus: 25, shutout: true, big_gin_allowed: true, oklahoma: false,
  oklahoma_ace_gin_only: false, straight: false, turn_seconds: 30,
};
export const PRESETS = {
  default: DEFAULT_RULES,
  time_freedom: { ...DEFAULT_RULES, turn_seconds: null },
  straight: { ...DEFAULT_RULES, straight: true, knock_limit: 0, gin_bonus: 0, big_gin_bonus: 0 },
  oklahoma: { ...DEFAULT_RULES, oklahoma: true },
};
export const TARGET_SCORES = [50, 100, 150, 200, 250];

/** The rules of a preset with some fields changed (e.g. the target). */
export function rulesFor(preset, changes = {}) {
  if (!PRESETS[preset]) throw new Error(`unknown rule preset ${preset}`);
  const rules = { ...PRESETS[preset], ...changes };
  if (!TARGET_SCORES.includes(rules.target_score)) throw new Error("target_score must be one of 50, 100, 150, 200, 250");
  return rules;
}

export function knockLimitFor(rules, upcardValue) {
  if (rules.straight) return 0;
  if (rules.oklahoma) {
    if (upcardValue === 1) return rules.oklahoma_ace_gin_only ? 0 : 10;
    return upcardValue;
  }
  return rules.knock_limit;
}

// --- dealing (dealing.py, docs/dealing.md) --------------------------------------------

const LABEL = [0x67, 0x69, 0x6e, 0x2d, 0x64, 0x65, 0x61, 0x6c];  // "gin-deal"

/** The 52 card texts after the seeded Fisher-Yates shuffle of docs/dealing.md. */
export function shuffledDeck(seed) {
  if (!(seed instanceof Uint8Array) || !seed.length) throw new Error("the seed must be non-empty bytes");
  let counter = 0;
  let words = [];
  let next = 0;
  const word = () => {
    if (next >= words.length) {
      const msg = new Uint8Array(16);
      msg.set(LABEL);
      new DataView(msg.buffer).setUint32(12, counter);  // counters stay far below 2**32
      new DataView(msg.buffer).setUint32(8, Math.floor(counter / 0x100000000));
      counter++;
      const view = new DataView(hmacSha256(seed, msg).buffer);
      words = [];
      for (let k = 0; k < 32; k += 4) words.push(view.getUint32(k));
      next = 0;
    }
    return words[next++];
  };
  const deck = [...TEXT];
  for (let i = 51; i >= 1; i--) {
    const n = i + 1;
    const limit = 4294967296 - (4294967296 % n);
    let u = word();
    while (u >= limit) u = word();
    const j = u % n;
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}

// --- scoring (scoring.py) --------------------------------------------------------------

const pair = (seat, mine, theirs) => (seat === 0 ? [mine, theirs] : [theirs, mine]);

function revealed(cards) {
  const m = bestMeldsMask(maskOf(cards));
  return [m.melds, m.deadwood, m.points];
}

function result(fields) {
  return {
    layoffs: [], layoffs_onto: [], knock_card: null, knock_limit: null, ...fields,
  };
}

function settleDraw(hands) {
  const shown = hands.map(revealed);
  return result({
    kind: "draw", winner: null, points: 0, knocker: null,
    deadwood: [shown[0][2], shown[1][2]],
    melds: [shown[0][0], shown[1][0]],
    deadwood_cards: [shown[0][1], shown[1][1]],
    hands: [sortCards(hands[0]), sortCards(hands[1])],
  });
}

function settleGin(rules, player, hands, { big, knockCard = null, knockLimit = null }) {
  const mine = revealed(hands[player]);
  if (mine[2] !== 0) throw new Error("gin needs every card in melds");
  const theirs = revealed(hands[1 - player]);
  const bonus = big ? rules.big_gin_bonus : rules.gin_bonus;
  return result({
    kind: big ? "big_gin" : "gin",
    winner: player,
    points: theirs[2] + bonus,
    knocker: player,
    deadwood: pair(player, 0, theirs[2]),
    melds: pair(player, mine[0], theirs[0]),
    deadwood_cards: pair(player, [], theirs[1]),
    hands: pair(player, sortCards(hands[player]), sortCards(hands[1 - player])),
    knock_card: knockCard,
    knock_limit: knockLimit,
  });
}

function settleKnock(rules, knocker, hands, { knockCard, knockLimit }) {
  const knockerMask = maskOf(hands[knocker]);
  const defenderMask = maskOf(hands[1 - knocker]);
  const arrangements = optimalArrangements(knockerMask);
  const knockerMelded = arrangements[0].reduce(or, ZERO);
  const knockerPoints = maskValue(andNot(knockerMask, knockerMelded));
  if (knockerPoints === 0) return settleGin(rules, knocker, hands, { big: false, knockCard, knockLimit });
  if (knockerPoints > knockLimit) throw new Error(`deadwood ${knockerPoints} is above the knock limit ${knockLimit}`);
  let chosen = null;
  let chosenMelds = [];
  for (const arr of arrangements) {
    const melds = sortMelds(arr);
    const answer = bestLayoffs(melds, defenderMask);
    if (chosen === null || answer.points > chosen.points) { chosen = answer; chosenMelds = melds; }
  }
  const defenderPoints = chosen.points;
  let kind, winner, points;
  if (defenderPoints <= knockerPoints) {
    kind = "undercut"; winner = 1 - knocker; points = knockerPoints - defenderPoints + rules.undercut_bonus;
  } else {
    kind = "knock"; winner = knocker; points = defenderPoints - knockerPoints;
  }
  return result({
    kind, winner, points, knocker,
    deadwood: pair(knocker, knockerPoints, defenderPoints),
    melds: pair(knocker, chosenMelds.map(meldCards), chosen.melding.melds),
    deadwood_cards: pair(knocker, maskCards(andNot(knockerMask, knockerMelded)), chosen.melding.deadwood),
    hands: pair(knocker, sortCards(hands[knocker]), sortCards(hands[1 - knocker])),
    layoffs: maskCards(chosen.laid),
    layoffs_onto: chosen.onto.map(maskCards),
    knock_card: knockCard,
    knock_limit: knockLimit,
  });
}

export const nextDealer = (dealer, res) => (res.kind === "draw" ? dealer : 1 - dealer);

const noBonus = () => ({ game: 0, line: 0, shutout: 0 });

/** score_match: the match score from its finished hands' results, in order. */
export function scoreMatch(rules, results, forfeit = null) {
  const points = [0, 0];
  const won = [0, 0];
  let drawn = 0;
  let reached = null;
  const perHand = [];
  results.forEach((res, n) => {
    if (reached !== null) throw new Error(`the match was already over before hand ${n + 1}`);
    if (res.kind === "draw") drawn++;
    else {
      points[res.winner] += res.points;
      won[res.winner]++;
      if (points[res.winner] >= rules.target_score) reached = res.winner;
    }
    perHand.push([points[0], points[1]]);
  });
  if (reached !== null && forfeit !== null) throw new Error("the match is already over: nobody can forfeit it");
  const base = {
    hands_won: [won[0], won[1]], hands_drawn: drawn, per_hand: perHand,
  };
  if (reached === null && forfeit === null) {
    return {
      over: false, hand_points: [points[0], points[1]], bonuses: [noBonus(), noBonus()],
      totals: [points[0], points[1]], winner: null, ...base, reached_target: null, forfeit: null,
    };
  }
  const bonuses = [noBonus(), noBonus()];
  for (const seat of [0, 1]) bonuses[seat].line = rules.line_bonus * won[seat];
  let bonusSeat;
  if (forfeit !== null) bonusSeat = 1 - forfeit;
  else {
    bonusSeat = reached;
    if (rules.shutout && won[1 - reached] === 0 && drawn === 0) bonuses[reached].shutout = points[reached];
  }
  bonuses[bonusSeat].game = rules.game_bonus;
  const totals = [0, 1].map((s) => points[s] + bonuses[s].game + bonuses[s].line + bonuses[s].shutout);
  let winner;
  if (forfeit !== null) winner = 1 - forfeit;
  else if (totals[0] !== totals[1]) winner = totals[0] > totals[1] ? 0 : 1;
  else winner = reached;
  return {
    over: true, hand_points: [points[0], points[1]], bonuses, totals, winner, ...base,
    reached_target: reached, forfeit,
  };
}

// --- the hand (state.py) ---------------------------------------------------------------

/** A new hand dealt from ``seed`` (Uint8Array) with ``dealer`` (0 or 1). */
export function deal(rules, dealer, seed) {
  const deck = shuffledDeck(seed);
  const hands = [[], []];
  for (let k = 0; k < 20; k++) hands[k % 2 === 0 ? 1 - dealer : dealer].push(deck[k]);
  return {
    format: FORMAT,
    rules: { ...rules },
    dealer,
    hands: [sortCards(hands[0]), sortCards(hands[1])],
    stock: deck.slice(21),
    discard_pile: [deck[20]],
    upcard: deck[20],
    phase: "first_turn",
    current_player: 1 - dealer,
    taken_from_discard: null,
    known: [[], []],
    history: [],
    result: null,
  };
}

export const handKnockLimit = (state) => knockLimitFor(state.rules, VALUE[INDEX.get(state.upcard)]);

export function legalActions(state) {
  if (state.phase === "over") return [];
  if (state.phase === "first_turn") return [{ type: "pass" }, { type: "draw", source: "discard" }];
  if (state.phase === "draw") return [{ type: "draw", source: "stock" }, { type: "draw", source: "discard" }];
  const cards = state.hands[state.current_player];
  const mask = maskOf(cards);
  const limit = handKnockLimit(state);
  const taken = state.taken_from_discard;
  const actions = cards.filter((c) => c !== taken).map((card) => ({ type: "discard", card }));
  const whole = deadwoodMask(mask);
  for (const card of cards) {
    const i = INDEX.get(card);
    if (card !== taken && whole - VALUE[i] <= limit && deadwoodMask(andNot(mask, cardMask(i))) <= limit) {
      actions.push({ type: "knock", card });
    }
  }
  if (state.rules.big_gin_allowed && whole === 0) actions.push({ type: "big_gin" });
  return actions;
}

const FIELDS = { pass: [], draw: ["source"], discard: ["card"], knock: ["card"], big_gin: [] };

function parseAction(action) {
  if (!action || typeof action !== "object" || Array.isArray(action)) throw malformed('an action is an object such as {"type": "pass"}', "not_an_object");
  const kind = action.type;
  if (typeof kind !== "string" || !(kind in FIELDS)) throw malformed(`unknown action type ${kind}`, "unknown_type", { type: JSON.stringify(kind) ?? String(kind) });
  const extra = Object.keys(action).filter((k) => k !== "type" && !FIELDS[kind].includes(k));
  if (extra.length) {
    const fields = extra.sort().join(", ");
    throw malformed(`unexpected field(s) for ${kind}: ${fields}`, "unexpected_fields", { type: kind, fields });
  }
  if ((kind === "draw" && !("source" in action)) || (kind === "discard" && !("card" in action))) {
    const fields = FIELDS[kind].join(", ");
    throw malformed(`a ${kind} action needs the field(s) ${fields}`, "missing_fields", { type: kind, fields });
  }
  if (kind === "draw" && action.source !== "stock" && action.source !== "discard") throw malformed('draw source must be "stock" or "discard"', "bad_source", { source: JSON.stringify(action.source) ?? String(action.source) });
  const parsed = { ...action };
  if ("card" in action && (kind === "discard" || action.card !== null)) {
    const text = typeof action.card === "string" ? action.card.toUpperCase() : null;
    if (!INDEX.has(text)) throw malformed(`not a card: ${action.card}`, "bad_card", { card: JSON.stringify(action.card) ?? String(action.card) });
    parsed.card = text;
  } else delete parsed.card;
  return parsed;
}

const copy = (state) => ({ ...state, history: [...state.history] });
const withCard = (cards, card) => sortCards([...cards, card]);
const withoutCard = (cards, card) => cards.filter((c) => c !== card);

function finish(next, events, res) {
  const done = [...events, { type: "hand_over", result: res }];
  next.history.push({ type: "hand_over", result: res });
  next.phase = "over";
  next.current_player = null;
  next.result = res;
  return { state: next, events: done };
}

/** Play ``action`` for the player to move (``seat``, if given, must be that player):
 * {state, events}; throws ActionError and changes nothing when it is refused. */
export function apply(state, action, seat = null) {
  const parsed = parseAction(action);
  if (state.phase === "over") throw illegal("the hand is over: no more actions", "hand_over");
  if (seat !== null && seat !== state.current_player) throw illegal("it is not your turn", "not_your_turn");
  const me = state.current_player;
  const next = copy(state);
  const event = (fields) => { const e = { seat: me, ...fields }; next.history.push(e); return [e]; };
  const kind = parsed.type;
  if (kind === "pass") {
    if (state.phase !== "first_turn") throw illegal("you can pass only on the first turn, when the upcard is offered", "pass_first_turn_only");
    const events = event({ type: "pass" });
    if (me === 1 - state.dealer) next.current_player = state.dealer;
    else { next.current_player = 1 - state.dealer; next.phase = "draw"; }
    return { state: next, events };
  }
  if (kind === "draw") {
    if (state.phase === "discard") throw illegal("you have already drawn this turn: discard a card or knock", "already_drawn");
    next.hands = [...state.hands];
    if (parsed.source === "stock") {
      if (state.phase === "first_turn") throw illegal("you cannot draw from the stock on the first turn: take the upcard or pass", "no_stock_on_first_turn");
      const card = state.stock[0];
      const events = event({ type: "draw", source: "stock" });
      next.hands[me] = withCard(state.hands[me], card);
      next.stock = state.stock.slice(1);
      next.phase = "discard";
      next.taken_from_discard = null;
      return { state: next, events };
    }
    if (!state.discard_pile.length) throw illegal("the discard pile is empty", "discard_pile_empty");
    const card = state.discard_pile[state.discard_pile.length - 1];
    const events = event({ type: "draw", source: "discard", card });
    next.hands[me] = withCard(state.hands[me], card);
    next.known = [...state.known];
    next.known[me] = withCard(state.known[me], card);
    next.discard_pile = state.discard_pile.slice(0, -1);
    next.phase = "discard";
    next.taken_from_discard = card;
    return { state: next, events };
  }
  if (state.phase !== "discard") {
    if (state.phase === "first_turn") throw illegal("on the first turn you may only take the upcard or pass", "first_turn_take_or_pass");
    throw illegal("draw a card first: from the stock or the discard pile", "draw_first");
  }
  const leave = (card) => {
    if (!state.hands[me].includes(card)) throw illegal(`you do not hold ${card}`, "not_held", { card });
    if (card === state.taken_from_discard) throw illegal("you cannot discard the card you just took from the discard pile", "discard_just_taken");
    next.hands = [...state.hands];
    next.hands[me] = withoutCard(state.hands[me], card);
    next.known = [...state.known];
    next.known[me] = withoutCard(state.known[me], card);
    next.taken_from_discard = null;
  };
  if (kind === "discard") {
    leave(parsed.card);
    const events = event({ type: "discard", card: parsed.card });
    next.discard_pile = [...state.discard_pile, parsed.card];
    if (state.stock.length <= WALL) return finish(next, events, settleDraw(next.hands));
    next.current_player = 1 - me;
    next.phase = "draw";
    return { state: next, events };
  }
  const mask = maskOf(state.hands[me]);
  if (kind === "knock") {
    let card = parsed.card;
    if (card === undefined) {
      const forbidden = state.taken_from_discard ? maskOf([state.taken_from_discard]) : ZERO;
      [card] = bestDiscardMask(mask, forbidden);
    }
    if (!state.hands[me].includes(card)) throw illegal(`you do not hold ${card}`, "not_held", { card });
    if (card === state.taken_from_discard) throw illegal("you cannot discard the card you just took from the discard pile", "discard_just_taken");
    const points = deadwoodMask(andNot(mask, cardMask(INDEX.get(card))));
    const limit = handKnockLimit(state);
    if (points > limit) {
      if (state.rules.straight) throw illegal(`Straight Gin has no knocking: you may only go gin (0 deadwood), you would have ${points}`, "straight_gin_only", { points });
      if (limit === 0) throw illegal(`the knock limit of this hand is 0: you may only go gin, you would have ${points}`, "gin_only", { points });
      throw illegal(`you may knock only with ${limit} or less deadwood, you would have ${points}`, "knock_limit", { limit, points });
    }
    leave(card);
    const events = event({ type: points === 0 ? "gin" : "knock" });
    const res = settleKnock(state.rules, me, next.hands, { knockCard: card, knockLimit: limit });
    return finish(next, events, res);
  }
  if (!state.rules.big_gin_allowed) throw illegal("Big Gin is not allowed in this match", "big_gin_not_allowed");
  if (deadwoodMask(mask) !== 0) throw illegal("Big Gin needs all 11 cards in melds", "big_gin_needs_melds");
  const events = event({ type: "big_gin" });
  const res = settleGin(state.rules, me, state.hands, { big: true, knockLimit: handKnockLimit(state) });
  next.taken_from_discard = null;
  return finish(next, events, res);
}

// --- views (views.py) --------------------------------------------------------------------

function publicView(state) {
  return {
    discard_pile: [...state.discard_pile],
    stock_count: state.stock.length,
    current_player: state.current_player,
    phase: state.phase,
    dealer: state.dealer,
    knock_limit: handKnockLimit(state),
    upcard: state.upcard,
    card_counts: [state.hands[0].length, state.hands[1].length],
    known_cards: [[...state.known[0]], [...state.known[1]]],
    rules: { ...state.rules },
    history: state.history.map((e) => ({ ...e })),
    result: state.result,
  };
}

/** What the player in ``seat`` may see: the engine's player_view. */
export function playerView(state, seat) {
  const hand = state.hands[seat];
  const m = bestMeldsMask(maskOf(hand));
  const toMove = state.current_player === seat;
  return {
    seat,
    hand: [...hand],
    melds: m.melds,
    deadwood_cards: m.deadwood,
    deadwood: m.points,
    opponent_card_count: state.hands[1 - seat].length,
    opponent_known_cards: [...state.known[1 - seat]],
    taken_from_discard: toMove && state.taken_from_discard !== null ? state.taken_from_discard : null,
    legal_actions: toMove ? legalActions(state) : [],
    ...publicView(state),
  };
}
