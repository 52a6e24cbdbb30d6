// The computer players of the offline table: line-by-line ports of games/bots easy
// (easy.py) and medium (policy.py with MEDIUM, heuristics.py, knowledge.py). Given the same player
// view, legal actions and random generator state (random.js, Python's generator) they
// choose the same action as the server's; tests/offline/test_crosscheck.py checks it
// on a shared corpus of views.

import { INDEX, TEXT, VALUE, deadwoodMask, maskOf, masks } from "./engine.js";

const { indices, andNot, or, cardMask, has, maskCount } = masks;
const deadwood = deadwoodMask;
const FULL = [0x1fff, 0x1fff, 0x1fff, 0x1fff];

export const LEVELS = ["easy", "medium"];

function find(legal, fields) {
  return legal.find((a) => Object.entries(fields).every(([k, v]) => a[k] === v)) ?? null;
}

// --- card neighbourhoods (bots/cards.py) ----------------------------------------------

function combinations2(items) {
  const out = [];
  for (let x = 0; x < items.length; x++) for (let y = x + 1; y < items.length; y++) out.push([items[x], items[y]]);
  return out;
}

/** For each card, the pairs of cards [a, b] (a < b) that complete a meld with it. */
const MELD_PAIRS = TEXT.map((_, i) => {
  const suit = Math.floor(i / 13);
  const rank = i % 13;
  const others = [0, 1, 2, 3].filter((s) => s !== suit).map((s) => 13 * s + rank);
  const out = combinations2(others);
  for (const [a, b] of [[rank - 2, rank - 1], [rank - 1, rank + 1], [rank + 1, rank + 2]]) {
    if (a >= 0 && b < 13) out.push([13 * suit + a, 13 * suit + b]);
  }
  return out;
});
const maskFrom = (list) => list.reduce((m, i) => or(m, cardMask(i)), [0, 0, 0, 0]);
const SAME_RANK = TEXT.map((_, i) => maskFrom([0, 1, 2, 3].map((s) => 13 * s + (i % 13)).filter((j) => j !== i)));
const NEAR = (i, ks) => maskFrom(ks.filter((k) => (i % 13) + k >= 0 && (i % 13) + k < 13).map((k) => i + k));
const NEAR1 = TEXT.map((_, i) => NEAR(i, [-1, 1]));
const NEAR2 = TEXT.map((_, i) => NEAR(i, [-2, 2]));
const CONNECT = TEXT.map((_, i) => or(SAME_RANK[i], NEAR1[i]));

const makesMeld = (hand, i) => MELD_PAIRS[i].some(([a, b]) => has(hand, a) && has(hand, b));
const without = (m, i) => andNot(m, cardMask(i));
const withCard = (m, i) => or(m, cardMask(i));

/** [deadwood after, card index]: the discard leaving the least deadwood; ties to the
 * highest value, then the highest index (bots/cards.py best_discard). */
function bestDiscard(hand11, forbidden = [0, 0, 0, 0]) {
  let bestDw = 2 ** 30;
  let bestI = -1;
  for (const i of indices(andNot(hand11, forbidden))) {
    const dw = deadwood(without(hand11, i));
    if (dw < bestDw || (dw === bestDw && VALUE[i] >= VALUE[bestI])) { bestDw = dw; bestI = i; }
  }
  return [bestDw, bestI];
}

// --- easy (bots/easy.py) -----------------------------------------------------------------

function takenThenDiscarded(view) {
  const pairs = new Set();
  let taken = null;
  for (const event of view.history || []) {
    if (event.seat !== view.seat) continue;
    if (event.type === "draw") taken = event.source === "discard" ? event.card : null;
    else if (event.type === "discard" && taken !== null) pairs.add(`${taken} ${event.card}`);
  }
  return pairs;
}

function chooseEasy(view, legal, rng) {
  const hand = maskOf(view.hand);
  if (view.phase === "first_turn" || view.phase === "draw") {
    const pile = view.discard_pile;
    const take = find(legal, { type: "draw", source: "discard" });
    if (take && pile.length && makesMeld(hand, INDEX.get(pile[pile.length - 1]))) return take;
    return find(legal, { type: "draw", source: "stock" }) ?? find(legal, { type: "pass" }) ?? legal[0];
  }
  const bigGin = find(legal, { type: "big_gin" });
  if (bigGin) return bigGin;
  const knocks = legal.filter((a) => a.type === "knock");
  if (knocks.length) {
    const key = (a) => { const i = INDEX.get(a.card); return [deadwood(without(hand, i)), -VALUE[i], a.card]; };
    let best = knocks[0];
    let bestKey = key(best);
    for (const a of knocks.slice(1)) {
      const k = key(a);
      if (k[0] < bestKey[0] || (k[0] === bestKey[0] && (k[1] < bestKey[1] || (k[1] === bestKey[1] && k[2] < bestKey[2])))) {
        best = a; bestKey = k;
      }
    }
    return best;
  }
  let discards = legal.filter((a) => a.type === "discard");
  const taken = view.taken_from_discard;
  if (taken) {
    const repeats = takenThenDiscarded(view);
    const fresh = discards.filter((a) => !repeats.has(`${taken} ${a.card}`));
    discards = fresh.length ? fresh : discards;
  }
  const scored = discards.map((a) => [deadwood(without(hand, INDEX.get(a.card))), a]);
  const least = Math.min(...scored.map(([s]) => s));
  return rng.choice(scored.filter(([s]) => s === least).map(([, a]) => a));
}

// --- medium: what a seat knows (bots/knowledge.py) ---------------------------------------

const PICKED = [2.0, 2.0, 1.35];
const PASSED = [0.55, 0.55, 0.8];
const DISCARDED = [0.65, 0.6, 0.85];

function applyEvidence(weights, card, [same, near1, near2]) {
  for (const [mask, factor] of [[SAME_RANK[card], same], [NEAR1[card], near1], [NEAR2[card], near2]]) {
    for (const i of indices(mask)) weights[i] *= factor;
  }
}

function readView(view) {
  const rules = view.rules;
  const straight = Boolean(rules.straight ?? false);
  const seat = view.seat;
  const k = {
    seat,
    phase: view.phase,
    hand: maskOf(view.hand),
    pile: view.discard_pile.map((c) => INDEX.get(c)),
    oppKnown: maskOf(view.opponent_known_cards),
    oppCount: Number(view.opponent_card_count),
    taken: view.taken_from_discard ? INDEX.get(view.taken_from_discard) : null,
    knockLimit: straight ? 0 : Number(view.knock_limit),
    oppTurns: 0,
    myDiscards: [],
    weights: null,
  };
  const pileMask = maskFrom(k.pile);
  k.unseen = andNot(FULL, or(or(k.hand, pileMask), k.oppKnown));
  k.top = k.pile.length ? k.pile[k.pile.length - 1] : null;
  const weights = new Array(52).fill(1.0);
  const pile = view.upcard ? [INDEX.get(view.upcard)] : [];
  const opp = 1 - seat;
  for (const event of view.history || []) {
    const kind = event.type;
    const mine = event.seat !== opp;
    if (kind === "pass" || (kind === "draw" && event.source === "stock")) {
      if (!mine) {
        if (kind === "draw") k.oppTurns += 1;
        if (pile.length) applyEvidence(weights, pile[pile.length - 1], PASSED);
      }
    } else if (kind === "draw") {
      const card = INDEX.get(event.card);
      if (pile.length && pile[pile.length - 1] === card) pile.pop();
      if (!mine) { k.oppTurns += 1; applyEvidence(weights, card, PICKED); }
    } else if (kind === "discard") {
      const card = INDEX.get(event.card);
      pile.push(card);
      if (mine) k.myDiscards.push(card);
      else applyEvidence(weights, card, DISCARDED);
    }
  }
  k.weights = weights;
  return k;
}

function oppProbabilities(k) {
  const probs = new Array(52).fill(0.0);
  for (const i of indices(k.oppKnown)) probs[i] = 1.0;
  const unseen = indices(k.unseen);
  const need = k.oppCount - maskCount(k.oppKnown);
  if (!unseen.length || need <= 0) return probs;
  const weights = unseen.map((i) => [i, k.weights[i]]);
  const capped = new Map();
  for (let round = 0; round < 4; round++) {
    const free = weights.filter(([i]) => !capped.has(i));
    let cappedSum = 0;
    for (const p of capped.values()) cappedSum += p;
    const left = need - cappedSum;
    let total = 0;
    for (const [, w] of free) total += w;
    if (total <= 0 || left <= 0) break;
    let over = false;
    for (const [i, w] of free) {
      const p = (left * w) / total;
      if (p > 0.97) { capped.set(i, 0.97); over = true; }
    }
    if (!over) {
      for (const [i, w] of free) probs[i] = (left * w) / total;
      break;
    }
  }
  for (const [i, p] of capped) probs[i] = p;
  return probs;
}

// --- medium: evaluation (bots/heuristics.py) ---------------------------------------------

const WEIGHTS = { knockable: 10.0, gin: 8.0, danger: 2.5 };

class Evaluator {
  constructor(k) {
    this.k = k;
    this.pOpp = oppProbabilities(k);
    const unseen = indices(k.unseen);
    const shares = unseen.map((c) => Math.max(0.0, 1.0 - this.pOpp[c]));
    let total = 0;
    for (const s of shares) total += s;
    total = total || 1.0;
    this.draws = unseen.map((c, n) => [c, shares[n] / total]);
    this.limit = k.knockLimit;
    this.cache = new Map();
  }

  shape(dw) {
    if (dw === 0) return -WEIGHTS.knockable - WEIGHTS.gin;
    if (dw <= this.limit) return dw - WEIGHTS.knockable;
    return dw;
  }

  handValue(hand) {
    const key = hand.join(",");
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached;
    const dw = deadwood(hand);
    let relief = 0;
    const cards = indices(hand);
    for (const i of cards) {
      const gain = dw - deadwood(without(hand, i));
      if (gain > relief) relief = gain;
    }
    let connected = [0, 0, 0, 0];
    for (const i of cards) connected = or(connected, CONNECT[i]);
    let value = 0.0;
    for (const [card, prob] of this.draws) {
      const after = has(connected, card)
        ? bestDiscard(withCard(hand, card))[0]
        : Math.min(dw, dw - relief + VALUE[card]);
      value += prob * this.shape(after);
    }
    this.cache.set(key, value);
    return value;
  }

  danger(card, handAfter) {
    const p = this.pOpp;
    let safe = 1.0;
    for (const [a, b] of MELD_PAIRS[card]) {
      if (has(handAfter, a) || has(handAfter, b)) continue;
      safe *= 1.0 - p[a] * p[b];
    }
    return 1.0 - safe;
  }

  discardScores(hand11, forbidden = [0, 0, 0, 0]) {
    const scores = [];
    for (const card of indices(andNot(hand11, forbidden))) {
      const after = without(hand11, card);
      scores.push([this.handValue(after) + WEIGHTS.danger * this.danger(card, after), card]);
    }
    scores.sort((x, y) => x[0] - y[0] || VALUE[y[1]] - VALUE[x[1]] || y[1] - x[1]);
    return scores;
  }

  stockValue(hand10) {
    const now = deadwood(hand10);
    const afterOne = this.handValue(hand10);
    return afterOne - (this.shape(now) - afterOne);
  }

  takeValue(hand10, top) {
    return this.discardScores(withCard(hand10, top), cardMask(top))[0];
  }
}

// --- medium: decisions (bots/policy.py, MEDIUM) ------------------------------------------

const KNOCK_FULL_TURNS = 2;

export function allowanceAfter(knockLimit, oppTurns) {
  if (oppTurns <= KNOCK_FULL_TURNS) return knockLimit;
  return Math.max(Math.min(knockLimit, 2), knockLimit - Math.floor((3 * (oppTurns - KNOCK_FULL_TURNS) + 1) / 2));
}

function chooseDraw(k, ev, legal) {
  const take = find(legal, { type: "draw", source: "discard" });
  const other = find(legal, { type: "draw", source: "stock" }) ?? find(legal, { type: "pass" });
  if (!take || !other || k.top === null) return take ?? other ?? legal[0];
  if (k.myDiscards.includes(k.top)) return other;
  const [takeScore] = ev.takeValue(k.hand, k.top);
  if (takeScore < ev.stockValue(k.hand)) return take;
  return other;
}

function chooseMedium(view, legal, rng) {
  const k = readView(view);
  const ev = new Evaluator(k);
  if (k.phase === "first_turn" || k.phase === "draw") return chooseDraw(k, ev, legal);
  const bigGin = find(legal, { type: "big_gin" });
  if (bigGin) return bigGin;
  let knock = null;
  for (const action of legal) {
    if (action.type !== "knock") continue;
    const i = INDEX.get(action.card);
    const key = [deadwood(without(k.hand, i)), -VALUE[i]];
    if (knock === null || key[0] < knock[0] || (key[0] === knock[0] && key[1] < knock[1])) knock = [...key, action];
  }
  if (knock && (knock[0] === 0 || knock[0] <= allowanceAfter(k.knockLimit, k.oppTurns))) return knock[2];
  const forbidden = k.taken !== null ? cardMask(k.taken) : [0, 0, 0, 0];
  for (const [, card] of ev.discardScores(k.hand, forbidden)) {
    const action = find(legal, { type: "discard", card: TEXT[card] });
    if (action) return action;
  }
  return rng.choice(legal.filter((a) => a.type === "discard"));
}

/** The action the computer of ``level`` takes: one of ``legal`` (by identity). */
export function chooseAction(level, view, legal, rng) {
  if (!legal.length) throw new Error("the computer has no legal action to choose from");
  if (level === "easy") return chooseEasy(view, legal, rng);
  if (level === "medium") return chooseMedium(view, legal, rng);
  throw new Error(`unknown level ${level}`);
}
