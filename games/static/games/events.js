// @ts-check
// Event frames (docs/protocol.md): after an ordinary move the server sends each
// socket only what changed for its audience. applyFrame turns the last "state"
// message we hold and one "event" frame into the "state" message the server would
// have sent for the new version: the same view, key for key (the test suite runs
// this module under Node.js against the server's own views for every move of many
// hands). No DOM here: table.js renders what this returns. The frames' types are
// those of docs/schemas/ (wire.js, generated from games/wire.py).

/** @typedef {import("./wire.js").StateFrame} StateFrame */
/** @typedef {import("./wire.js").EventFrame} EventFrame */
/** @typedef {import("./wire.js").View} View */
/** @typedef {import("./wire.js").MoveEvent} MoveEvent */
/** @typedef {import("./wire.js").MoverNews} MoverNews */
/** @typedef {import("./wire.js").LegalAction} LegalAction */
/** @typedef {import("./wire.js").Clock} Clock */

const RANKS = "A23456789TJQK";
const SUITS = "CDHS";
/** @param {string} card */
const sortKey = (card) => RANKS.indexOf(card[0]) * 4 + SUITS.indexOf(card[1]);
/** @param {string[]} cards @param {string} card */
const withCard = (cards, card) => [...cards, card].sort((a, b) => sortKey(a) - sortKey(b));
/** @param {string[]} cards @param {string} card */
const withoutCard = (cards, card) => cards.filter((c) => c !== card);

/**
 * The state message after `frame`, or null when `frame` does not follow `msg`
 * (a version is missing: ask the server for "sync"; an old or repeated frame: drop it,
 * see isStale).
 * @param {StateFrame | null} msg
 * @param {EventFrame} frame
 * @returns {StateFrame | null}
 */
export function applyFrame(msg, frame) {
  if (!msg || !msg.view || frame.version - frame.events.length !== msg.version) return null;
  const me = msg.you;
  /** @type {View} */
  const view = { ...msg.view };
  view.discard_pile = [...view.discard_pile];
  view.card_counts = [...view.card_counts];
  view.known_cards = [[...view.known_cards[0]], [...view.known_cards[1]]];
  view.history = [...view.history];
  for (const event of frame.events) {
    applyEvent(view, me, event, frame.you);
    view.history.push(event);
  }
  view.current_player = frame.turn.player;
  view.phase = frame.turn.phase;
  if (frame.you && me !== null) {
    view.melds = frame.you.melds;
    view.deadwood = frame.you.deadwood;
    const melded = new Set(view.melds.flat());
    view.deadwood_cards = view.hand.filter((c) => !melded.has(c));
  }
  if (me !== null && view.current_player !== me) view.taken_from_discard = null;
  view.legal_actions = me === null ? [] : legalActions(view, me, frame.you?.knock ?? []);
  const match = { ...msg.match, current_seat: frame.turn.player };
  if ("clock" in frame) {
    // A clock runs only under rules that have one: turn_seconds is a number here.
    const turnSeconds = /** @type {number} */ (msg.match.rules.turn_seconds);
    match.clock = frame.clock ? { turn_seconds: turnSeconds, ...frame.clock } : null;
  }
  // A correspondence match: the new turn's deadline.
  if (frame.move_deadline && msg.match.correspondence) {
    match.correspondence = { ...msg.match.correspondence, deadline: frame.move_deadline };
  }
  return { ...msg, version: frame.version, match, view };
}

/**
 * A frame for a version we already hold (our own move's copy, a repeat).
 * @param {StateFrame | null} msg
 * @param {{version: number}} frame
 */
export function isStale(msg, frame) {
  return !!msg && frame.version <= msg.version;
}

/**
 * @param {View} view the copy being built (changed in place)
 * @param {number | null} me
 * @param {MoveEvent} event
 * @param {MoverNews | undefined} you
 */
function applyEvent(view, me, event, you) {
  const seat = event.seat;
  const mine = me === seat;
  const theirs = me !== null && me !== seat;
  if (event.type === "draw") {
    view.card_counts[seat] += 1;
    if (event.source === "stock") {
      view.stock_count -= 1;
      // The mover's own frame names the card they drew (docs/protocol.md).
      if (mine) view.hand = withCard(view.hand, /** @type {string} */ (/** @type {MoverNews} */ (you).drew));
      view.taken_from_discard = null;
    } else {
      const card = event.card;
      view.discard_pile.pop();
      view.known_cards[seat] = withCard(view.known_cards[seat], card);
      if (mine) view.hand = withCard(view.hand, card);
      if (theirs) view.opponent_known_cards = withCard(view.opponent_known_cards, card);
      view.taken_from_discard = theirs ? null : card;
    }
    // A player's view (theirs: we are seated) counts the opponent's cards.
    if (theirs) view.opponent_card_count = /** @type {number} */ (view.opponent_card_count) + 1;
  } else if (event.type === "discard") {
    const card = event.card;
    view.card_counts[seat] -= 1;
    view.discard_pile.push(card);
    view.known_cards[seat] = withoutCard(view.known_cards[seat], card);
    if (mine) view.hand = withoutCard(view.hand, card);
    if (theirs) {
      view.opponent_card_count = /** @type {number} */ (view.opponent_card_count) - 1;
      view.opponent_known_cards = withoutCard(view.opponent_known_cards, card);
    }
    view.taken_from_discard = null;
  }
}

/**
 * The legal actions of the player to move, in the engine's order (games/engine/state.py).
 * @param {View} view
 * @param {number} me
 * @param {string[]} knockCards
 * @returns {LegalAction[]}
 */
export function legalActions(view, me, knockCards) {
  if (view.current_player !== me) return [];
  if (view.phase === "first_turn") return [{ type: "pass" }, { type: "draw", source: "discard" }];
  if (view.phase === "draw") {
    return [{ type: "draw", source: "stock" }, { type: "draw", source: "discard" }];
  }
  if (view.phase !== "discard") return [];
  const locked = view.taken_from_discard;
  /** @type {LegalAction[]} */
  const acts = view.hand.filter((c) => c !== locked)
    .map((card) => ({ type: /** @type {const} */ ("discard"), card }));
  for (const card of knockCards) acts.push({ type: "knock", card });
  if (view.rules.big_gin_allowed && view.deadwood === 0) acts.push({ type: "big_gin" });
  return acts;
}
