// An offline match record and what it means: every hand re-dealt from its seed and
// re-played action by action with the engine (as the server does on upload), the
// match score, and the next deal. Pure functions, no DOM, no storage.

import {
  apply, deal, nextDealer, playerView, rulesFor, scoreMatch,
} from "./engine.js";
import { chooseAction } from "./bots.js";
import { PyRandom } from "./random.js";
import { fromHex, toHex } from "./sha256.js";

export const YOU = 0;
export const COMPUTER = 1;

export function newSeed() {
  return toHex(crypto.getRandomValues(new Uint8Array(32)));
}

function newId() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const hex = toHex(crypto.getRandomValues(new Uint8Array(16)));
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A new match record: the first dealer drawn at random, the first hand's seed. */
export function newMatch({ level, variant, target }) {
  const rules = rulesFor(variant, { target_score: target, turn_seconds: null });
  return {
    id: newId(),
    level,
    variant,
    rules,
    first_dealer: crypto.getRandomValues(new Uint8Array(1))[0] & 1,
    hands: [{ seed: newSeed(), actions: [] }],
    status: "playing",
    resigned: false,
    created_at: new Date().toISOString(),
    started_at: new Date().toISOString(),
    finished_at: null,
    totals: null,
    sync: { state: "pending" },
  };
}

/** Re-play a record: {hands: [{number, dealer, state}], state, score, over}. */
export function replay(record) {
  const hands = [];
  const results = [];
  let dealer = record.first_dealer;
  record.hands.forEach((hand, n) => {
    let state = deal(record.rules, dealer, fromHex(hand.seed));
    for (const { seat, action } of hand.actions) state = apply(state, action, seat).state;
    hands.push({ number: n + 1, dealer, state, seed: hand.seed });
    if (state.phase === "over") {
      results.push(state.result);
      dealer = nextDealer(dealer, state.result);
    }
  });
  const current = hands[hands.length - 1];
  const score = scoreMatch(record.rules, results, record.resigned && !scoreMatch(record.rules, results).over ? YOU : null);
  return { hands, state: current.state, current, score, over: score.over, nextDealer: dealer };
}

/** Play one action for ``seat`` in the current hand (throws ActionError if illegal);
 * deals the next hand when this one ends and the match goes on. Returns the replay. */
export function play(record, seat, action) {
  const game = replay(record);
  apply(game.state, action, seat);  // refuse before recording
  record.hands[record.hands.length - 1].actions.push({ seat, action });
  const after = replay(record);
  if (after.state.phase === "over") {
    if (after.over) finish(record, after);
    else record.hands.push({ seed: newSeed(), actions: [] });
  }
  return replay(record);
}

function finish(record, game) {
  record.status = "finished";
  record.finished_at = new Date().toISOString();
  record.totals = game.score.totals;
}

export function resign(record) {
  record.resigned = true;
  const game = replay(record);
  finish(record, game);
  return game;
}

/** The computer's action in the current hand. Its random choices come from a
 * generator seeded by the hand's seed and the move number, so a resumed match
 * plays on exactly as it would have. */
export function computerAction(record, game) {
  const hand = record.hands[record.hands.length - 1];
  const view = playerView(game.state, COMPUTER);
  const rng = new PyRandom(parseInt(hand.seed.slice(0, 12), 16) + hand.actions.length);
  return chooseAction(record.level, view, view.legal_actions, rng);
}
