// @ts-check
// Rendering the table from the state (seats, piles, hands, actions, sidebar, log,
// clock), announcements for screen readers and the toast for errors.

import { confirmsDiscard, handCard, layOutHand, markConfirming, moveParts } from "../hands.js";
import { renderActionButtons, yourTurnPrompt } from "../controls.js";
import { renderFacts, renderMoveLog, renderScoreboard } from "../sidebar.js";
import { cardListName, cardName, renderCard, sortByRank, sortMeld } from "../cards.js";
import { bestMelds, deadwoodAfterDiscard } from "../melds.js";
import { format, gettext, ngettext, pageLanguage, pgettext } from "../i18n.js";
import { renderShowdown, resultHeadline, resultWhy, verificationNode } from "./showdown.js";
import {
  $, byId, canBigGin, canDiscard, canDraw, canPass, find, ginOptions, held, heldView, isBot, isPlayer, knockOptions,
  me, nonGinKnocks, opp, root, seatInfo, seatName, showdownDialog, ui, you,
} from "./state.js";

/** @typedef {import("../wire.js").StateFrame} StateFrame */
/** @typedef {import("../wire.js").View} View */
/**
 * Any event of a hand's history, as the log and the announcements read it.
 * @typedef {{type: string, seat?: number, source?: string, card?: string, timeout?: true}} AnyEvent
 */

// --------------------------------------------------------------------------
// Rendering the table
// --------------------------------------------------------------------------
export function render() {
  const msg = ui.msg;
  if (!msg) return;
  // An invitation closed (cancelled in another tab, or expired): the page says so
  // (unless this page is already leaving: its own Cancel button was pressed).
  if (msg.match.status === "cancelled") { if (!pageLeaving) location.reload(); return; }
  const waiting = msg.match.status === "waiting";
  $("[data-waiting]").hidden = !waiting;
  $("[data-play]").hidden = waiting;
  root.classList.toggle("knock-mode", ui.knockMode);
  renderSeats();
  renderTitle();
  if (waiting) { renderSidebar(); return; }
  renderOpponent();
  renderCentre();
  renderMyHand();
  renderTimeoutNote();
  renderActions();
  renderSidebar();
  renderClock();
  if (showdownDialog().open) renderShowdown();
}

export let pageLeaving = false;
window.addEventListener("beforeunload", () => { pageLeaving = true; });

export const baseTitle = document.title;
export function renderTitle() {
  const m = held().match;
  const mine = isPlayer() && m.status === "active" && held().view?.current_player === you();
  document.title = mine ? format(gettext("● Your turn · %(title)s"), { title: baseTitle }) : baseTitle;
}

export function renderSeats() {
  if (!ui.msg) return;
  // The page's heading (visually hidden: the seats name the players on the felt).
  $("[data-table-heading]").textContent = isPlayer()
    ? format(gettext("Gin rummy against %(name)s"), { name: seatName(opp()) })
    : format(gettext("Gin rummy: %(first)s against %(second)s"), { first: seatName(0, { capital: true }), second: seatName(1) });
  const view = heldView();
  /** @type {[HTMLElement, number][]} */
  const bars = [[$("[data-seat-bar='top']"), isPlayer() ? opp() : 1], [$("[data-seat-bar='bottom']"), isPlayer() ? me() : 0]];
  for (const [bar, seat] of bars) {
    if (!bar) continue;
    const info = seatInfo(seat);
    bar.dataset.turn = String(view?.current_player === seat && held().match.status === "active");
    find(bar, "[data-name]").textContent = isPlayer() && seat === you() ? format(gettext("%(name)s (you)"), { name: info.name || gettext("You") }) : seatName(seat, { capital: true });
    find(bar, "[data-score]").textContent = String(info.score ?? 0);
    find(bar, "[data-score]").setAttribute("aria-label", format(gettext("score %(score)s"), { score: info.score ?? 0 }));
    const dealer = find(bar, "[data-dealer]");
    dealer.hidden = view?.dealer !== seat;
    const c = find(bar, ".conn");
    if (isPlayer() && seat === you()) continue;  // my own dot follows the socket (onStatus)
    if (isBot(seat)) { c.dataset.state = "bot"; c.textContent = gettext("computer"); }
    else if (info.connected) { c.dataset.state = "online"; c.textContent = gettext("online"); }
    else { c.dataset.state = "offline"; c.textContent = gettext("offline"); }
  }
}

export function renderOpponent() {
  const view = heldView();
  const box = $("[data-opp-hand]");
  box.replaceChildren();
  const seat = isPlayer() ? opp() : 1;
  const known = isPlayer() ? view.opponent_known_cards || [] : view.known_cards?.[seat] || [];
  const count = isPlayer() ? view.opponent_card_count ?? 10 : view.card_counts?.[seat] ?? 10;
  for (const c of sortByRank(known)) box.append(renderCard(c, { className: "card--known", label: format(gettext("%(card)s (known)"), { card: cardName(c) }) }));
  for (let i = known.length; i < count; i++) box.append(renderCard(null, { faceDown: true, label: gettext("hidden card") }));
  const cards = format(ngettext("%(n)s card", "%(n)s cards", count), { n: count });
  box.setAttribute("aria-label", known.length
    ? format(gettext("%(name)s: %(cards)s, known: %(known)s"), { name: seatName(seat, { capital: true }), cards, known: cardListName(known) })
    : format(gettext("%(name)s: %(cards)s"), { name: seatName(seat, { capital: true }), cards }));
  $("[data-opp-note]").textContent = known.length
    ? format(gettext("%(cards)s · known: %(known)s"), { cards, known: known.length }) : cards;
}

export function renderCentre() {
  const view = heldView();
  const stock = /** @type {HTMLButtonElement} */ ($("[data-stock]"));
  const stockActive = canDraw("stock") && !ui.pending;
  stock.dataset.active = String(stockActive);
  stock.disabled = !stockActive;
  find(stock, "[data-stock-count]").textContent = String(view.stock_count);
  find(stock, "[data-pile-name]").textContent = format(ngettext("Stock: %(n)s card", "Stock: %(n)s cards", view.stock_count), { n: view.stock_count })
    + (stockActive ? gettext(". Draw from the stock (S)") : "");
  const slot = find(stock, ".pile__slot");
  slot.replaceChildren();
  if (view.stock_count > 0) slot.append(renderCard(null, { faceDown: true, label: "" }));

  const discard = /** @type {HTMLButtonElement} */ ($("[data-discard]"));
  const top = view.discard_pile[view.discard_pile.length - 1];
  const takeActive = canDraw("discard") && !ui.pending;
  const dropActive = heldView().phase === "discard" && isPlayer() && view.current_player === you() && !ui.pending;
  discard.dataset.active = String(takeActive);
  discard.disabled = !takeActive;
  discard.dataset.dropZone = dropActive ? "discard" : "";
  const dslot = find(discard, ".pile__slot");
  dslot.replaceChildren();
  dslot.classList.add("discard-stack");
  for (const c of view.discard_pile.slice(-3)) dslot.append(renderCard(c));
  find(discard, "[data-pile-name]").textContent = !top ? gettext("Discard pile: empty")
    : takeActive ? format(gettext("Discard pile: %(card)s on top. Take the %(card)s (D)"), { card: cardName(top) })
    : format(gettext("Discard pile: %(card)s on top"), { card: cardName(top) });

  $("[data-status]").replaceChildren(...statusLine());
}


export function statusLine() {
  const msg = held();
  const view = heldView();
  const m = msg.match;
  const main = document.createElement("span");
  const sub = document.createElement("small");
  if (m.status === "finished") {
    main.textContent = gettext("Match over");
    sub.textContent = m.winner === you() ? gettext("You won.") : format(gettext("%(name)s won."), { name: seatName(/** @type {number} */ (m.winner), { capital: true }) });
    return [main, sub];
  }
  const turn = view.current_player;
  if (isPlayer() && turn === you()) {
    if (ui.pending) main.textContent = "…";
    else {
      [main.textContent, sub.textContent] = yourTurnPrompt(view, {
        knockMode: ui.knockMode, canGin: ginOptions().length > 0 || canBigGin(),
        canKnock: nonGinKnocks().length > 0,
      });
      if (ui.confirming) {
        sub.textContent = format(gettext("Press the %(card)s again to discard it, or choose another card."),
          { card: cardName(ui.confirming) });
      }
    }
  } else if (turn === null || turn === undefined) {
    main.textContent = gettext("Hand over");
  } else {
    main.textContent = format(isBot(turn) ? gettext("%(name)s is thinking…") : gettext("%(name)s to play"), { name: seatName(turn, { capital: true }) });
    sub.textContent = view.phase === "first_turn" ? gettext("First turn: upcard offer.") : "";
  }
  return [main, sub];
}

/** The hand in melds (the server's, or our own when they do not fit it) and the rest. @param {View} view */
export function handGroups(view) {
  const hand = view.hand;
  let melds = Array.isArray(view.melds) ? view.melds : null;
  if (!melds || melds.flat().some((c) => !hand.includes(c))) melds = bestMelds(hand).melds;
  const inMelds = new Set(melds.flat());
  const dead = sortByRank(hand.filter((c) => !inMelds.has(c)));
  const groups = melds.map((m) => ({ kind: m.every((c) => c[0] === m[0][0]) ? "set" : "run", cards: sortMeld(m) }));
  groups.sort((a, b) => a.cards[0].localeCompare(b.cards[0]));
  return { groups, dead };
}

export function renderMyHand() {
  const view = heldView();
  const box = $("[data-my-hand]");
  const focused = /** @type {HTMLElement | null} */ (document.activeElement)?.dataset?.card;
  box.replaceChildren();
  if (!isPlayer()) {
    // Watching: seat 0's cards face down, with those it took from the discard pile.
    $("[data-my-summary]").hidden = true;
    const known = view.known_cards?.[0] || [];
    const count = view.card_counts?.[0] ?? 10;
    const wrap = document.createElement("div");
    wrap.className = "meld-group meld-group--deadwood";
    for (const c of sortByRank(known)) wrap.append(renderCard(c, { className: "card--known", label: format(gettext("%(card)s (known)"), { card: cardName(c) }) }));
    for (let i = known.length; i < count; i++) wrap.append(renderCard(null, { faceDown: true, label: gettext("hidden card") }));
    box.append(wrap);
    box.setAttribute("aria-label", format(gettext("%(name)s: %(cards)s"), { name: seatName(0, { capital: true }), cards: format(ngettext("%(n)s card", "%(n)s cards", count), { n: count }) }));
    return;
  }
  $("[data-my-summary]").hidden = false;
  const { groups, dead } = handGroups(view);
  const myTurnDiscard = view.current_player === you() && view.phase === "discard" && !ui.pending;
  const knocks = ui.knockMode ? new Map(knockOptions().map((k) => [k.card, k.deadwood])) : null;
  const after = myTurnDiscard ? deadwoodAfterDiscard(view.hand) : null;
  if (!myTurnDiscard || knocks || !confirmsDiscard()) ui.confirming = null;
  /** @param {string} c */
  const makeCard = (c) => markConfirming(handCard(c, {
    discardTurn: myTurnDiscard, takenFromDiscard: view.taken_from_discard, knocks, after,
    canDiscard, fresh: ui.newCards.has(c),
  }), c === ui.confirming);
  layOutHand(box, groups, dead, makeCard);
  const total = $("[data-deadwood]");
  total.textContent = format(gettext("Deadwood %(points)s"), { points: view.deadwood });
  const deadwood = /** @type {number} */ (view.deadwood);  // a player's view counts it
  total.setAttribute("aria-label", format(ngettext("Your deadwood: %(n)s point", "Your deadwood: %(n)s points", deadwood), { n: deadwood }));
  total.dataset.knockable = String(view.hand.length === 10 && deadwood <= view.knock_limit);
  $("[data-knock-limit]").textContent = view.rules?.straight ? gettext("Straight gin: gin only") : format(gettext("Knock limit %(limit)s"), { limit: view.knock_limit });
  if (focused) /** @type {HTMLElement | null} */ (box.querySelector(`[data-card="${focused}"]`))?.focus();
  // A card just drawn takes the focus when nothing else has it (the pile pressed is
  // now disabled): Enter discards it, the arrow keys move to another card.
  else if (myTurnDiscard && ui.newCards.size && document.activeElement === document.body) {
    /** @type {HTMLElement | null} */ (box.querySelector(`[data-card="${[...ui.newCards][0]}"]`))?.focus();
  }
}

export function renderActions() {
  renderActionButtons($("[data-actions]"), {
    mine: isPlayer() && heldView().current_player === you() && held().match.status === "active",
    firstTurn: held().view?.phase === "first_turn", knockMode: ui.knockMode,
    canPass: canPass(), canTake: canDraw("discard"), knocks: nonGinKnocks(),
    canGin: ginOptions().length > 0, canBigGin: canBigGin(), disabled: ui.pending,
  });
}

// The match's clock as the side panel says it: a correspondence match's days per move,
// else the turn clock's seconds, else none.
/** @param {import("../wire.js").MatchTable} m @param {{turn_seconds?: number | null}} r */
function clockText(m, r) {
  const days = m.correspondence?.days_per_move;
  if (days) return format(ngettext("%(days)s day per move", "%(days)s days per move", days), { days });
  return r.turn_seconds ? format(gettext("%(seconds)s s per turn"), { seconds: r.turn_seconds }) : gettext("none");
}

// A correspondence turn's deadline in the player's time zone (the browser's, which
// site.js keeps in the tz cookie for the server's pages), with the zone's name.
/** @param {string} iso */
function deadlineText(iso) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  return d.toLocaleString(pageLanguage(), {
    year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", timeZoneName: "short",
  });
}

export function renderSidebar() {
  const m = held().match;
  const r = m.rules || {};
  const variants = { default: pgettext("variant", "Default"), time_freedom: gettext("Time Freedom"), straight: gettext("Straight Gin"), oklahoma: gettext("Oklahoma Gin") };
  const meta = $("[data-meta]");
  const rows = [
    [gettext("Variant"), variants[m.variant] || m.variant],
    [gettext("Target"), r.target_score],
    [gettext("Hand"), m.hand_number],
    [gettext("Knock limit"), r.straight ? gettext("gin only") : held().view?.knock_limit ?? r.knock_limit],
    [gettext("Clock"), clockText(m, r)],
    ...(m.correspondence?.deadline && m.status === "active" ? [[gettext("Move by"), deadlineText(m.correspondence.deadline)]] : []),
    [gettext("Rated"), m.rated ? gettext("yes") : gettext("no")],
  ];
  renderFacts(meta, rows);
  renderScoreboard($("[data-scoreboard]"), (isPlayer() ? [me(), opp()] : [0, 1]).map(
    (seat) => [seatName(seat, { capital: true }), seatInfo(seat).score ?? 0],
  ));
  $("[data-resign]").hidden = !(isPlayer() && m.status === "active");
  $("[data-show-result]").hidden = m.status !== "finished";
  renderFairness();
  renderLog();
}

export function renderFairness() {
  if (!ui.msg) return;
  const m = held().match;
  // Before the first deal there is no commitment yet: say what will appear here.
  const dealt = Boolean(m.commitment && m.hand_number);
  $("[data-commitment-lead]").hidden = !dealt;
  $("[data-commitment]").hidden = !dealt;
  $("[data-commitment-none]").hidden = dealt;
  $("[data-commitment]").textContent = m.commitment || "";
  $("[data-commitment-short]").textContent = m.commitment ? m.commitment.slice(0, 12) : "";
  $("[data-commitment-hand]").textContent = m.hand_number ? format(gettext("hand %(number)s"), { number: m.hand_number }) : "";
  const box = $("[data-last-verify]");
  const last = (m.hands || []).filter((h) => h.seed).at(-1);
  box.replaceChildren();
  if (!last) {
    const p = document.createElement("p");
    p.className = "panel__lead";
    p.textContent = gettext("The seed is revealed and checked here when the hand ends.");
    box.append(p);
    return;
  }
  const p = document.createElement("p");
  p.textContent = format(gettext("Hand %(number)s:"), { number: last.number });
  box.append(p, verificationNode(ui.verifications.get(last.number)));
}

/** @param {AnyEvent} e */
export function describeEvent(e) {
  const frag = document.createElement("li");
  frag.append(...moveParts(e, seatName(/** @type {number} */ (e.seat), { capital: true }), { auto: Boolean(e.timeout) }));
  return frag;
}

// A turn the server played because its clock ran out (the events carry `timeout`,
// docs/protocol.md): "Time ran out: the server drew and discarded for you".
/** @param {AnyEvent[]} events @param {number} seat */
export function timeoutSentence(events, seat) {
  const types = events.map((e) => e.type);
  const kind = types.includes("pass") ? "pass"
    : types.includes("draw") && types.includes("discard") ? "both"
    : types.includes("draw") ? "draw" : "discard";
  if (isPlayer() && seat === you()) {
    return {
      pass: gettext("Time ran out: the server passed for you."),
      both: gettext("Time ran out: the server drew and discarded for you."),
      draw: gettext("Time ran out: the server drew for you."),
      discard: gettext("Time ran out: the server discarded for you."),
    }[kind];
  }
  return format({
    pass: gettext("Time ran out: the server passed for %(name)s."),
    both: gettext("Time ran out: the server drew and discarded for %(name)s."),
    draw: gettext("Time ran out: the server drew for %(name)s."),
    discard: gettext("Time ran out: the server discarded for %(name)s."),
  }[kind], { name: seatName(seat) });
}

// The last turn of each seat in this hand's history: its events, newest turn last.
/** @param {AnyEvent[]} history @param {number | null} seat */
function lastTurnOf(history, seat) {
  const end = history.findLastIndex((e) => e.seat === seat);
  if (end < 0) return [];
  let start = end;
  while (start > 0 && history[start - 1].seat === seat) start -= 1;
  return history.slice(start, end + 1);
}

// Under the player's hand: their last turn was played by the server (until they
// play again), so the move is never taken for their own.
export function renderTimeoutNote() {
  const note = $("[data-timeout-note]");
  const turn = isPlayer() ? lastTurnOf(held().view?.history || [], you()) : [];
  const timedOut = turn.length > 0 && turn.every((e) => e.timeout);
  note.hidden = !timedOut;
  note.textContent = timedOut ? timeoutSentence(turn, me()) : "";
}

export function renderLog() {
  renderMoveLog($("[data-log]"), held().view?.history || [], describeEvent);
}

// Clock: the server sends remaining_ms; count down from our own receipt time
// so a skewed device clock does not matter. After a showdown the turn clock starts
// late (docs/protocol.md): remaining_ms exceeds turn_seconds by the grace left, shown
// as "Next hand in N s" in the result dialog while the turn clock stands still.
/** @type {{source?: import("../wire.js").Clock, until: number, total: number, seat: number | null, graceUntil: number}} */
export let clockState = { until: 0, total: 0, seat: null, graceUntil: 0 };
export function renderClock() {
  const c = held().match.clock;
  const el = $("[data-clock]");
  if (!c || held().match.status !== "active" || c.remaining_ms === null || c.remaining_ms === undefined) {
    el.hidden = true;
    clockState = { until: 0, total: 0, seat: null, graceUntil: 0 };
    tickGrace();
    return;
  }
  el.hidden = false;
  // A move within the turn (a draw) keeps the clock object: the countdown goes on.
  if (clockState.source !== c) {
    const now = performance.now();
    const total = (c.turn_seconds || 30) * 1000;
    const grace = Math.max(0, c.remaining_ms - total);
    clockState = { source: c, until: now + c.remaining_ms, total, seat: heldView().current_player, graceUntil: grace ? now + grace : 0 };
  }
  tickClock();
}
export function tickClock() {
  tickGrace();
  const el = $("[data-clock]");
  if (el.hidden || !clockState.total) return;
  const waiting = clockState.graceUntil > performance.now();
  const left = waiting ? clockState.total : Math.max(0, clockState.until - performance.now());
  const secs = Math.ceil(left / 1000);
  el.dataset.waiting = String(waiting);
  find(el, "[data-clock-text]").textContent = `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, "0")}`;
  find(el, ".clock__bar span").style.width = `${Math.min(100, (left / clockState.total) * 100)}%`;
  el.dataset.urgent = String(secs <= 10);
  const mine = isPlayer() && clockState.seat === you();
  const graceLeft = Math.ceil((clockState.graceUntil - performance.now()) / 1000);
  el.setAttribute("aria-label", waiting
    ? format(ngettext("The clock starts in %(n)s second", "The clock starts in %(n)s seconds", graceLeft), { n: graceLeft })
    : mine ? format(ngettext("Your time left: %(n)s second", "Your time left: %(n)s seconds", secs), { n: secs })
    : format(ngettext("Opponent's time left: %(n)s second", "Opponent's time left: %(n)s seconds", secs), { n: secs }));
}
export function tickGrace() {
  const note = find(document, "#showdown [data-next-countdown]");
  const left = Math.ceil((clockState.graceUntil - performance.now()) / 1000);
  const show = left > 0 && ui.msg?.match.status === "active";
  note.hidden = !show;
  if (show) note.textContent = format(gettext("Next hand in %(seconds)s s: the clock starts then."), { seconds: left });
}
setInterval(tickClock, 250);

// --------------------------------------------------------------------------
// Announcements for screen readers and a toast for errors
// --------------------------------------------------------------------------
// Polite announcements of what changed between two rendered states: every move of
// either player (with the card I drew), the result of each hand, the next deal,
// the end of the match, then whose turn it is.
/** @param {StateFrame | null} previous @param {StateFrame} next */
export function announce(previous, next) {
  const live = byId("announce");
  if (!next.view) return;
  const parts = [];
  const handsBefore = (previous?.match.hands || []).length;
  const finished = previous ? (next.match.hands || []).slice(handsBefore) : [];
  for (const hand of finished) {
    if (hand.result) parts.push(format(gettext("Hand %(number)s over. %(headline)s. %(why)s"), { number: hand.number, headline: resultHeadline(hand.result), why: resultWhy(hand.result, next.match.rules) }));
  }
  if (next.match.status === "finished" && previous?.match.status !== "finished") {
    const w = next.match.winner;
    parts.push(w === null || w === undefined ? gettext("Match over.") : isPlayer() && w === you() ? gettext("Match over: you win the match!") : format(gettext("Match over: %(name)s wins the match."), { name: seatName(w) }));
  } else if (!previous?.view || previous.match.hand_number !== next.match.hand_number) {
    parts.push(format(gettext("Hand %(number)s dealt."), { number: next.match.hand_number }));
  }
  const samehand = previous?.view && previous.match.hand_number === next.match.hand_number;
  const history = next.view.history || [];
  const fresh = history.slice(samehand ? (previous?.view?.history || []).length : 0);
  /** @type {AnyEvent[]} */
  const told = previous ? fresh : arrivalMoves(history);
  parts.push(...told.map(eventSentence));
  for (const seat of [0, 1]) {
    const timedOut = told.filter((e) => e.seat === seat && e.timeout);
    if (timedOut.length) parts.push(timeoutSentence(timedOut, seat));
  }
  if (next.match.status === "active") parts.push(statusLine().map((n) => n.textContent).filter(Boolean).join(". "));
  live.textContent = parts.filter(Boolean).join(" ");
}

// On arrival (first state, reload) what just happened: a player hears every move made
// since their own last one (the computer may have taken the upcard and discarded before
// the page opened); a spectator hears the hand's last move.
/** @param {AnyEvent[]} history */
function arrivalMoves(history) {
  if (!isPlayer()) return history.slice(-1);
  return history.slice(history.findLastIndex((e) => e.seat === you()) + 1);
}

/** @param {AnyEvent} e */
export function eventSentence(e) {
  const mine = isPlayer() && e.seat === you();
  const values = { name: seatName(/** @type {number} */ (e.seat), { capital: true }), card: e.card ? cardName(e.card) : "" };
  switch (e.type) {
    case "pass": return mine ? gettext("You passed.") : format(gettext("%(name)s passed."), values);
    case "draw": {
      if (e.source === "discard") return format(mine ? gettext("You took the %(card)s from the discard pile.") : gettext("%(name)s took the %(card)s from the discard pile."), values);
      const drawn = mine && ui.newCards.size === 1 ? [...ui.newCards][0] : null;
      return drawn ? format(gettext("You drew the %(card)s from the stock."), { card: cardName(drawn) })
        : mine ? gettext("You drew from the stock.") : format(gettext("%(name)s drew from the stock."), values);
    }
    case "discard": return format(mine ? gettext("You discarded the %(card)s.") : gettext("%(name)s discarded the %(card)s."), values);
    case "knock": return mine ? gettext("You knocked.") : format(gettext("%(name)s knocked."), values);
    case "gin": return mine ? gettext("You went gin.") : format(gettext("%(name)s went gin."), values);
    case "big_gin": return mine ? gettext("You made big gin.") : format(gettext("%(name)s made big gin."), values);
    default: return "";
  }
}

/** @type {number | undefined} */
export let toastTimer = undefined;
/** @param {string} text */
export function toast(text) {
  const el = byId("toast");
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, 4000);
}
