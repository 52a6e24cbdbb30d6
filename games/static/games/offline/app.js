// The offline table: a match against the computer played entirely in this browser
// (engine.js, bots.js), saved after every move in IndexedDB (store.js) so that a
// closed tab resumes where it was, and uploaded to the player's account once the
// network and a signed-in session are there. Rendering follows the live table
// (table.js): the same markup, classes and table.css, melds, knock mode, showdown.

import { enableDrag } from "../drag.js";
import {
  cardListName, cardName, renderCard, sortByRank, sortMeld,
} from "../cards.js";
import { confirmsDiscard, handCard, layOutHand, markConfirming, moveParts, renderResultHands } from "../hands.js";
import { actOn, enableClicks, renderActionButtons, yourTurnPrompt } from "../controls.js";
import { renderFacts, renderMoveLog, renderScoreboard } from "../sidebar.js";
import { deadwoodAfterDiscard } from "../melds.js";
import { keepPageInLanguage } from "../page_language.js";
import { engineRefusal } from "../words.js";
import { ActionError, playerView } from "./engine.js";
import { COMPUTER, YOU, computerAction, newMatch, play, replay, resign } from "./match.js";
import { allMatches, putMatch } from "./store.js";
import { syncOfflineMatches } from "./sync.js";
import { sha256, fromHex, toHex } from "./sha256.js";
import { format, gettext, ngettext, pgettext } from "../i18n.js";

const config = JSON.parse(document.getElementById("offline-config").textContent);
const root = document.getElementById("table-app");
const $ = (sel) => root.querySelector(sel);
// The computer's pause follows the animation speed of the table settings (<html
// data-motion>; "auto" is the device's reduced-motion preference).
const motion = document.documentElement.dataset.motion;
const reducedMotion = motion === "none"
  || (motion === "auto" && matchMedia("(prefers-reduced-motion: reduce)").matches);
const COMPUTER_DELAY = reducedMotion ? 150 : motion === "fast" ? 350 : 650;

const ui = {
  record: null,     // the match being played (store.js record)
  game: null,       // replay(record)
  knockMode: false,
  confirming: null, // a discard awaiting its second press (confirm-before-discard)
  thinking: false,  // the computer's move is scheduled
  showdownFor: null,
  account: null,    // {signed_in, name} once known
};

/** A level as the computer's name says it, in the page's language. */
const levelName = (level) => ({
  easy: pgettext("computer level in a name", "easy"), medium: pgettext("computer level in a name", "medium"),
})[level] ?? level;
// Every offline variant is played without a clock. "time_freedom" is how records made
// before the set-up offered "Default" named the default rules (docs/offline.md).
const variantName = (variant) => ({
  default: pgettext("variant", "Default"), time_freedom: pgettext("variant", "Default"),
  straight: gettext("Straight Gin"), oklahoma: gettext("Oklahoma Gin"),
})[variant] ?? variant;
const computerName = (level) => format(gettext("Computer (%(level)s)"), { level: levelName(level) });
const seatName = (seat, { capital = false } = {}) => (
  seat === YOU ? (capital ? gettext("You") : gettext("you")) : computerName(ui.record.level)
);
/** The name on the player's own seat: the account's, marked "(you)", once known. */
const myBarName = () => (ui.account?.signed_in ? format(gettext("%(name)s (you)"), { name: ui.account.name }) : gettext("You"));

// --------------------------------------------------------------------------
// Legal actions of the player (from the engine's view)
// --------------------------------------------------------------------------
/** The player's view of the current hand (the engine's player_view), per position. */
function view() {
  if (ui.viewOf !== ui.game) { ui.viewOf = ui.game; ui.view = playerView(ui.game.state, YOU); }
  return ui.view;
}

const myTurn = () => ui.record.status === "playing" && ui.game.state.current_player === YOU && !ui.thinking;
const legal = () => (myTurn() ? view().legal_actions : []);
const can = (pred) => legal().some(pred);
const canDraw = (source) => can((a) => a.type === "draw" && a.source === source);
const canPass = () => can((a) => a.type === "pass");
const canDiscard = (card) => can((a) => a.type === "discard" && a.card === card);
function knockOptions() {
  const after = deadwoodAfterDiscard(view().hand);
  return legal().filter((a) => a.type === "knock").map((a) => ({ card: a.card, deadwood: after.get(a.card) ?? 99 }));
}
const ginOptions = () => knockOptions().filter((k) => k.deadwood === 0);
const nonGinKnocks = () => knockOptions().filter((k) => k.deadwood > 0);
const canBigGin = () => can((a) => a.type === "big_gin");

// --------------------------------------------------------------------------
// Playing
// --------------------------------------------------------------------------
async function save() {
  try { await putMatch(structuredClone(ui.record)); } catch (error) { toast(format(gettext("Could not save this match on the device: %(error)s"), { error })); }
}

function act(seat, action) {
  const handsBefore = ui.game.hands.length;
  const wasOver = ui.game.state.phase === "over";
  ui.game = play(ui.record, seat, action);
  ui.knockMode = false;
  const handEnded = ui.game.hands.length > handsBefore || (!wasOver && ui.game.state.phase === "over");
  save();
  if (handEnded) openShowdown(handsBefore);
  else announceLast();
  render();
  if (ui.record.status === "finished") syncSoon();
  scheduleComputer();
}

function sendAction(action) {
  if (!myTurn()) return;
  ui.confirming = null;
  try { act(YOU, action); } catch (error) { toast(error instanceof ActionError ? engineRefusal(error) : String(error)); }
}

function scheduleComputer() {
  // No record: "New match" closed the result and went back to the set-up.
  if (!ui.record || ui.record.status !== "playing" || ui.game.state.current_player !== COMPUTER || ui.thinking) return;
  if (document.getElementById("showdown").open) return;  // the next hand starts when the player closes it
  ui.thinking = true;
  root.classList.add("is-pending");
  render();
  setTimeout(() => {
    ui.thinking = false;
    root.classList.remove("is-pending");
    if (ui.record.status !== "playing" || ui.game.state.current_player !== COMPUTER) { render(); return; }
    act(COMPUTER, computerAction(ui.record, ui.game));
  }, COMPUTER_DELAY);
}

// --------------------------------------------------------------------------
// Showdown and match end
// --------------------------------------------------------------------------
const finishedHands = () => ui.game.hands.filter((h) => h.state.phase === "over");
function runningTotals(upTo) {
  const totals = [0, 0];
  for (const h of finishedHands().slice(0, upTo)) if (h.state.result.winner !== null) totals[h.state.result.winner] += h.state.result.points;
  return totals;
}

function openShowdown(number) {
  ui.showdownFor = number;
  renderShowdown();
  const dialog = document.getElementById("showdown");
  if (!dialog.open) dialog.showModal();
}

function resultHeadline(result) {
  const mine = result.winner === YOU;
  const who = result.winner === null ? "" : seatName(result.winner, { capital: true });
  const pts = result.points;
  switch (result.kind) {
    case "gin": return mine ? format(ngettext("Gin! You score %(n)s point", "Gin! You score %(n)s points", pts), { n: pts })
      : format(ngettext("%(name)s went gin: %(n)s point", "%(name)s went gin: %(n)s points", pts), { name: who, n: pts });
    case "big_gin": return mine ? format(ngettext("Big gin! You score %(n)s point", "Big gin! You score %(n)s points", pts), { n: pts })
      : format(ngettext("%(name)s made big gin: %(n)s point", "%(name)s made big gin: %(n)s points", pts), { name: who, n: pts });
    case "undercut": return mine ? format(ngettext("Undercut! You score %(n)s point", "Undercut! You score %(n)s points", pts), { n: pts })
      : format(ngettext("Undercut! %(name)s scores %(n)s point", "Undercut! %(name)s scores %(n)s points", pts), { name: who, n: pts });
    case "knock": return mine ? format(ngettext("You win the hand: %(n)s point", "You win the hand: %(n)s points", pts), { n: pts })
      : format(ngettext("%(name)s wins the hand: %(n)s point", "%(name)s wins the hand: %(n)s points", pts), { name: who, n: pts });
    default: return gettext("Draw: nobody scores");
  }
}

function resultWhy(result, rules) {
  const k = result.knocker;
  const dw = result.deadwood;
  const d = k === 0 || k === 1 ? 1 - k : null;
  const cap = (s) => seatName(s, { capital: true });
  switch (result.kind) {
    case "gin":
      return rules.straight
        ? format(gettext("%(knocker)s melded all ten cards; %(defender)s had %(deadwood)s deadwood (Straight Gin: no gin bonus)."), { knocker: cap(k), defender: seatName(d), deadwood: dw[d] })
        : format(gettext("%(knocker)s melded all ten cards: %(defender)s's deadwood %(deadwood)s plus the gin bonus %(bonus)s. No lay-offs after gin."), { knocker: cap(k), defender: seatName(d), deadwood: dw[d], bonus: rules.gin_bonus });
    case "big_gin":
      return format(gettext("%(winner)s melded all eleven cards: the opponent's deadwood %(deadwood)s plus the big gin bonus %(bonus)s."), { winner: cap(result.winner), deadwood: dw[1 - result.winner], bonus: rules.big_gin_bonus });
    case "knock":
      return format(gettext("%(knocker)s knocked with %(kd)s deadwood; %(defender)s had %(dd)s after laying off. The knocker scores the difference: %(points)s."), { knocker: cap(k), kd: dw[k], defender: seatName(d), dd: dw[d], points: result.points });
    case "undercut":
      return format(gettext("%(knocker)s knocked with %(kd)s deadwood but %(defender)s had only %(dd)s after laying off: undercut! The difference plus the undercut bonus %(bonus)s = %(points)s."), { knocker: cap(k), kd: dw[k], defender: seatName(d), dd: dw[d], bonus: rules.undercut_bonus, points: result.points });
    default:
      return gettext("The stock ran down to two cards without a knock: the hand is a draw. The same dealer deals again.");
  }
}

function renderShowdown() {
  const dialog = document.getElementById("showdown");
  const hand = finishedHands()[ui.showdownFor - 1] ?? finishedHands().at(-1);
  const over = ui.record.status === "finished";
  const headline = dialog.querySelector("[data-showdown-headline]");
  const why = dialog.querySelector("[data-showdown-why]");
  const handsBox = dialog.querySelector("[data-showdown-hands]");
  if (hand && !(ui.record.resigned && hand.number === ui.game.hands.length && hand.state.phase !== "over")) {
    const result = hand.state.result;
    headline.textContent = resultHeadline(result);
    why.textContent = format(gettext("Hand %(number)s. %(why)s"), { number: hand.number, why: resultWhy(result, ui.record.rules) });
    renderResultHands(result, handsBox, {
      order: [COMPUTER, YOU], name: (seat) => seatName(seat, { capital: true }),
    });
  } else {
    headline.textContent = gettext("Match over");
    why.textContent = ui.record.resigned ? gettext("You resigned.") : "";
    handsBox.replaceChildren();
  }
  const scores = dialog.querySelector("[data-showdown-scores]");
  scores.replaceChildren();
  const totals = runningTotals(hand ? hand.number : 0);
  for (const seat of [YOU, COMPUTER]) {
    const name = document.createElement("span");
    name.textContent = seatName(seat, { capital: true });
    const delta = document.createElement("span");
    delta.className = "num";
    delta.textContent = hand && hand.state.result?.winner === seat ? `+${hand.state.result.points}` : "";
    const total = document.createElement("span");
    total.className = "num";
    total.textContent = String(totals[seat]);
    scores.append(name, delta, total);
  }
  const end = dialog.querySelector("[data-match-over]");
  end.hidden = !over;
  if (over) renderMatchOver(end);
  dialog.querySelector("[data-next-hand]").hidden = over;
  dialog.querySelector("[data-new-game]").hidden = !over;
}

function renderMatchOver(box) {
  const f = ui.game.score;
  box.querySelector("h3").textContent = f.winner === YOU ? gettext("🏆 You win the match!") : format(gettext("%(name)s wins the match"), { name: seatName(COMPUTER, { capital: true }) });
  const target = ui.record.rules.target_score;
  box.querySelector("[data-end-reason]").textContent = ui.record.resigned ? gettext("Ended by resignation.") : format(ngettext("First to %(n)s point.", "First to %(n)s points.", target), { n: target });
  box.querySelector("[data-col-b]").textContent = seatName(COMPUTER, { capital: true });
  const body = box.querySelector("tbody");
  body.replaceChildren();
  for (const [label, get] of [
    [gettext("Hand points"), (s) => f.hand_points[s]], [gettext("Game bonus"), (s) => f.bonuses[s].game],
    [gettext("Line bonus"), (s) => f.bonuses[s].line], [gettext("Shutout"), (s) => f.bonuses[s].shutout],
  ]) {
    const tr = document.createElement("tr");
    const th = document.createElement("th");
    th.textContent = label;
    tr.append(th);
    for (const s of [YOU, COMPUTER]) {
      const td = document.createElement("td");
      td.className = "num";
      td.textContent = String(get(s));
      tr.append(td);
    }
    body.append(tr);
  }
  const foot = box.querySelector("tfoot tr");
  foot.children[1].textContent = String(f.totals[YOU]);
  foot.children[2].textContent = String(f.totals[COMPUTER]);
  box.querySelector("[data-sync-status]").textContent = syncText(ui.record);
}

function renderSheet() {
  const body = document.querySelector("[data-sheet-rows]");
  body.replaceChildren();
  const labels = { knock: gettext("Knock"), gin: gettext("Gin"), big_gin: gettext("Big gin"), undercut: gettext("Undercut"), draw: gettext("Draw (wall)") };
  finishedHands().forEach((h, n) => {
    const r = h.state.result;
    const totals = runningTotals(n + 1);
    const tr = document.createElement("tr");
    const who = r.winner === null ? "" : ` · ${seatName(r.winner)} +${r.points}`;
    for (const [text, num] of [[String(h.number)], [seatName(h.dealer, { capital: true })], [`${labels[r.kind]}${who}`], [String(totals[YOU]), true], [String(totals[COMPUTER]), true]]) {
      const td = document.createElement("td");
      if (num) td.className = "num";
      td.textContent = text;
      tr.append(td);
    }
    body.append(tr);
  });
}

// --------------------------------------------------------------------------
// The table
// --------------------------------------------------------------------------
function render() {
  if (!ui.record) return;
  root.classList.toggle("knock-mode", ui.knockMode);
  renderSeats();
  renderOpponent();
  renderCentre();
  renderMyHand();
  renderActions();
  renderSidebar();
  document.title = myTurn() ? gettext("● Your turn · Offline table") : gettext("Offline table · Gin Rummy Online");
}

function renderSeats() {
  const v = view();
  const totals = ui.record.status === "finished" ? ui.game.score.totals : ui.game.score.hand_points;
  for (const [bar, seat] of [[$("[data-seat-bar='top']"), COMPUTER], [$("[data-seat-bar='bottom']"), YOU]]) {
    bar.dataset.turn = String(v.current_player === seat && ui.record.status === "playing");
    bar.querySelector("[data-name]").textContent = seat === YOU ? myBarName() : seatName(seat, { capital: true });
    bar.querySelector("[data-score]").textContent = String(totals[seat]);
    bar.querySelector("[data-dealer]").hidden = v.dealer !== seat;
  }
}

function renderOpponent() {
  const v = view();
  const box = $("[data-opp-hand]");
  box.replaceChildren();
  const known = v.opponent_known_cards;
  const count = v.opponent_card_count;
  for (const c of sortByRank(known)) box.append(renderCard(c, { className: "card--known", label: format(gettext("%(card)s (known)"), { card: cardName(c) }) }));
  for (let i = known.length; i < count; i++) box.append(renderCard(null, { faceDown: true, label: gettext("hidden card") }));
  const cards = format(ngettext("%(n)s card", "%(n)s cards", count), { n: count });
  const name = gettext("Computer");
  box.setAttribute("aria-label", known.length
    ? format(gettext("%(name)s: %(cards)s, known: %(known)s"), { name, cards, known: cardListName(known) })
    : format(gettext("%(name)s: %(cards)s"), { name, cards }));
  $("[data-opp-note]").textContent = known.length
    ? format(gettext("%(cards)s · known: %(known)s"), { cards, known: known.length }) : cards;
}

function renderCentre() {
  const v = view();
  const stock = $("[data-stock]");
  const stockActive = canDraw("stock");
  stock.dataset.active = String(stockActive);
  stock.disabled = !stockActive;
  stock.querySelector("[data-stock-count]").textContent = String(v.stock_count);
  stock.setAttribute("aria-label", format(ngettext("Stock: %(n)s card", "Stock: %(n)s cards", v.stock_count), { n: v.stock_count })
    + (stockActive ? gettext(". Draw from the stock (S)") : ""));
  const slot = stock.querySelector(".pile__slot");
  slot.replaceChildren();
  if (v.stock_count > 0) slot.append(renderCard(null, { faceDown: true, label: "" }));
  const discard = $("[data-discard]");
  const top = v.discard_pile.at(-1);
  const takeActive = canDraw("discard");
  discard.dataset.active = String(takeActive);
  discard.disabled = !takeActive;
  const dslot = discard.querySelector(".pile__slot");
  dslot.replaceChildren();
  dslot.classList.add("discard-stack");
  for (const c of v.discard_pile.slice(-3)) dslot.append(renderCard(c));
  discard.setAttribute("aria-label", !top ? gettext("Discard pile: empty")
    : format(takeActive ? gettext("Discard pile: %(card)s on top. Take the %(card)s (D)") : gettext("Discard pile: %(card)s on top"), { card: cardName(top) }));
  $("[data-commitment-short]").textContent = toHex(sha256(fromHex(ui.game.current.seed))).slice(0, 12);
  $("[data-status]").replaceChildren(...statusLine());
}

function statusLine() {
  const v = view();
  const main = document.createElement("span");
  const sub = document.createElement("small");
  if (ui.record.status === "finished") {
    main.textContent = gettext("Match over");
    sub.textContent = ui.game.score.winner === YOU ? gettext("You won.") : gettext("The computer won.");
    return [main, sub];
  }
  if (v.current_player === YOU && !ui.thinking) {
    [main.textContent, sub.textContent] = yourTurnPrompt(v, {
      knockMode: ui.knockMode, canGin: ginOptions().length > 0 || canBigGin(),
      canKnock: nonGinKnocks().length > 0,
    });
    if (ui.confirming) {
      sub.textContent = format(gettext("Press the %(card)s again to discard it, or choose another card."),
        { card: cardName(ui.confirming) });
    }
  } else if (v.current_player === COMPUTER) {
    main.textContent = gettext("Computer is thinking…");
    sub.textContent = v.phase === "first_turn" ? gettext("First turn: upcard offer.") : "";
  } else {
    main.textContent = gettext("Hand over");
  }
  return [main, sub];
}

function handGroups(v) {
  const melds = v.melds;
  const inMelds = new Set(melds.flat());
  const dead = sortByRank(v.hand.filter((c) => !inMelds.has(c)));
  const groups = melds.map((m) => ({ kind: m.every((c) => c[0] === m[0][0]) ? "set" : "run", cards: sortMeld(m) }));
  groups.sort((a, b) => a.cards[0].localeCompare(b.cards[0]));
  return { groups, dead };
}

function renderMyHand() {
  const v = view();
  const box = $("[data-my-hand]");
  const focused = document.activeElement?.dataset?.card;
  box.replaceChildren();
  const { groups, dead } = handGroups(v);
  const myDiscard = myTurn() && v.phase === "discard";
  const knocks = ui.knockMode ? new Map(knockOptions().map((k) => [k.card, k.deadwood])) : null;
  const after = myDiscard ? deadwoodAfterDiscard(v.hand) : null;
  if (!myDiscard || knocks || !confirmsDiscard()) ui.confirming = null;
  const makeCard = (c) => markConfirming(handCard(c, {
    discardTurn: myDiscard, takenFromDiscard: v.taken_from_discard, knocks, after, canDiscard,
  }), c === ui.confirming);
  layOutHand(box, groups, dead, makeCard);
  const total = $("[data-deadwood]");
  total.textContent = format(gettext("Deadwood %(points)s"), { points: v.deadwood });
  total.setAttribute("aria-label", format(ngettext("Your deadwood: %(n)s point", "Your deadwood: %(n)s points", v.deadwood), { n: v.deadwood }));
  total.dataset.knockable = String(v.hand.length === 10 && v.deadwood <= v.knock_limit);
  $("[data-knock-limit]").textContent = v.rules.straight ? gettext("Straight gin: gin only") : format(gettext("Knock limit %(limit)s"), { limit: v.knock_limit });
  if (focused) box.querySelector(`[data-card="${focused}"]`)?.focus();
}

function renderActions() {
  const mine = myTurn();
  renderActionButtons($("[data-actions]"), {
    mine, firstTurn: mine && view().phase === "first_turn", knockMode: ui.knockMode,
    canPass: canPass(), canTake: canDraw("discard"), knocks: nonGinKnocks(),
    canGin: ginOptions().length > 0, canBigGin: canBigGin(),
  });
}

function renderSidebar() {
  const r = ui.record.rules;
  renderFacts($("[data-meta]"), [
    [gettext("Computer"), levelName(ui.record.level)], [gettext("Variant"), variantName(ui.record.variant)],
    [gettext("Target"), r.target_score], [gettext("Hand"), ui.game.hands.length],
    [gettext("Knock limit"), r.straight ? gettext("gin only") : view().knock_limit], [gettext("Rated"), gettext("no (offline)")],
  ]);
  const totals = ui.record.status === "finished" ? ui.game.score.totals : ui.game.score.hand_points;
  renderScoreboard($("[data-scoreboard]"), [YOU, COMPUTER].map(
    (seat) => [seatName(seat, { capital: true }), totals[seat]],
  ));
  $("[data-resign]").hidden = ui.record.status !== "playing";
  $("[data-show-result]").hidden = ui.record.status !== "finished";
  renderMoveLog($("[data-log]"), view().history, describeEvent);
}

function describeEvent(e) {
  const who = seatName(e.seat, { capital: true });
  const li = document.createElement("li");
  // As before: the knock's card is face down and a card drawn from the stock is not
  // named; the log says the rest.
  const told = e.type === "knock" ? { type: "knock" }
    : e.type === "draw" && e.source !== "discard" ? { type: "draw", source: "stock" } : e;
  li.append(...moveParts(told, who));
  return li;
}

function announceLast() {
  const last = view().history.at(-1);
  if (last && last.seat === COMPUTER) document.getElementById("announce").textContent = describeEvent(last).textContent;
}

let toastTimer = null;
function toast(text) {
  const el = document.getElementById("toast");
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, 4000);
}

// --------------------------------------------------------------------------
// Input
// --------------------------------------------------------------------------
// With confirm-before-discard on (the table settings), a first press only chooses the card.
function onHandClick(card) {
  if (ui.knockMode) { sendAction({ type: "knock", card }); return; }
  if (!canDiscard(card)) return;
  if (confirmsDiscard() && ui.confirming !== card) {
    ui.confirming = card;
    render();
    root.querySelector(`[data-my-hand] [data-card="${card}"]`)?.focus();
    return;
  }
  sendAction({ type: "discard", card });
}

// A card dropped on the discard pile is a deliberate move: never asked again.
function onHandDrop(card) {
  if (ui.knockMode) sendAction({ type: "knock", card });
  else if (canDiscard(card)) sendAction({ type: "discard", card });
}

function doAct(which) {
  actOn(which, { send: sendAction, setKnockMode, knocks: nonGinKnocks(), gins: ginOptions() });
}

function setKnockMode(on) {
  ui.knockMode = on;
  render();
  if (on) root.querySelector("[data-my-hand] .card[data-knock='true']")?.focus();
}

enableClicks(root, { onHandClick, canDraw, send: sendAction, onAct: doAct });
root.addEventListener("click", (event) => {
  if (event.target.closest("[data-open-sheet]")) { renderSheet(); document.getElementById("sheet").showModal(); }
});

// Drag and drop as on the live table: a card onto the discard pile, a pile onto the hand.
enableDrag(root, {
  dropCard: onHandDrop,
  dropPile: (source) => { if (canDraw(source)) sendAction({ type: "draw", source }); },
});


document.addEventListener("keydown", (event) => {
  if (!ui.record || event.target.closest("input, textarea, select, dialog") || event.metaKey || event.ctrlKey || event.altKey) return;
  const key = event.key.toLowerCase();
  if (key === "escape" && (ui.knockMode || ui.confirming)) { ui.knockMode = false; ui.confirming = null; render(); return; }
  const map = {
    s: () => canDraw("stock") && sendAction({ type: "draw", source: "stock" }),
    d: () => canDraw("discard") && sendAction({ type: "draw", source: "discard" }),
    p: () => canPass() && sendAction({ type: "pass" }),
    k: () => nonGinKnocks().length && doAct("knock"),
    g: () => ginOptions().length && doAct("gin"),
  };
  if (map[key]) { map[key](); event.preventDefault(); }
});

const showdown = document.getElementById("showdown");
showdown.addEventListener("click", (event) => {
  if (event.target.closest("[data-next-hand]")) showdown.close();
  else if (event.target.closest("[data-new-game]")) { showdown.close(); showSetup(); }
});
showdown.addEventListener("close", () => { ui.showdownFor = null; render(); scheduleComputer(); });
root.querySelector("[data-show-result]").addEventListener("click", () => openShowdown(finishedHands().length));
const resignDialog = document.getElementById("resign-dialog");
root.querySelector("[data-resign]").addEventListener("click", () => resignDialog.showModal());
resignDialog.addEventListener("close", () => {
  if (resignDialog.returnValue !== "resign" || ui.record.status !== "playing") return;
  ui.game = resign(ui.record);
  save();
  render();
  openShowdown(ui.game.hands.length);
  syncSoon();
});

// --------------------------------------------------------------------------
// Set-up, resume, the list of matches on this device
// --------------------------------------------------------------------------
async function showTable(record) {
  ui.record = record;
  ui.game = replay(record);
  document.querySelector("[data-setup]").hidden = true;
  root.hidden = false;
  render();
  if (record.status === "finished") openShowdown(finishedHands().length);
  else scheduleComputer();
}

async function showSetup() {
  ui.record = null;
  root.hidden = true;
  document.querySelector("[data-setup]").hidden = false;
  await renderSaved();
}

function syncText(record) {
  const s = record.sync || { state: "pending" };
  if (record.status !== "finished") return gettext("In progress on this device.");
  if (s.state === "uploaded") return gettext("Saved to your account (unrated).");
  if (s.state === "refused") return format(gettext("Not saved to your account: %(reason)s"), { reason: s.message });
  if (record.owner && ui.account?.signed_in && record.owner !== ui.account.username) return gettext("Belongs to another account on this device.");
  return ui.account?.signed_in ? gettext("Waiting to be saved to your account…") : gettext("Will be saved to your account when you are online and signed in.");
}

async function renderSaved() {
  const list = document.querySelector("[data-saved]");
  const records = await allMatches();
  list.replaceChildren();
  document.querySelector("[data-sync-note]").textContent = records.length
    ? gettext("Finished matches are saved to your account as unrated matches once you are online and signed in.")
    : gettext("None yet.");
  for (const record of records.slice(0, 20)) {
    let game = null;
    try { game = replay(record); } catch { /* a damaged record: listed, not playable */ }
    const li = document.createElement("li");
    li.className = "match-row";
    li.dataset.offlineMatch = record.id;
    const who = document.createElement("span");
    who.className = "match-row__who";
    who.textContent = `${format(gettext("vs %(opponent)s"), { opponent: computerName(record.level) })} `;
    const badge = document.createElement("span");
    if (!game) { badge.className = "badge"; badge.textContent = gettext("cannot be read"); } else if (record.status === "finished") {
      badge.className = game.score.winner === YOU ? "result-win" : "result-loss";
      badge.textContent = game.score.winner === YOU ? gettext("won") : gettext("lost");
    } else { badge.className = "badge badge--live"; badge.textContent = gettext("in progress"); }
    who.append(badge);
    const actions = document.createElement("span");
    actions.className = "match-row__actions";
    if (record.status === "playing" && game) {
      const resume = document.createElement("button");
      resume.type = "button";
      resume.className = "btn btn-small btn-primary";
      resume.textContent = gettext("Resume");
      resume.addEventListener("click", () => showTable(record));
      actions.append(resume);
    } else if (record.sync?.state === "uploaded" && record.sync.url) {
      const a = document.createElement("a");
      a.className = "btn btn-small btn-ghost";
      a.href = record.sync.url;
      a.textContent = gettext("Score sheet");
      actions.append(a);
    }
    const meta = document.createElement("span");
    meta.className = "match-row__meta";
    const totals = !game ? ["?", "?"] : record.status === "finished" ? game.score.totals : game.score.hand_points;
    meta.textContent = `${totals[YOU]} – ${totals[COMPUTER]} · ${format(gettext("%(variant)s to %(score)s"), { variant: variantName(record.variant), score: record.rules.target_score })} · ${syncText(record)}`;
    li.append(who, actions, meta);
    list.append(li);
  }
}

document.querySelector("[data-new-match]").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  const record = newMatch({ level: form.get("level"), variant: form.get("variant"), target: Number(form.get("target")) });
  // Whose match it is: the account signed in when it started, if the page knew one.
  // A match started signed out goes to whoever signs in next on this device.
  record.owner = ui.account?.signed_in ? ui.account.username : null;
  await putMatch(structuredClone(record));
  await showTable(record);
});

// --------------------------------------------------------------------------
// Sync: finished matches go to the signed-in account once the network is back
// --------------------------------------------------------------------------
async function sync() {
  const { account } = await syncOfflineMatches({
    accountUrl: config.accountUrl,
    uploadUrl: config.uploadUrl,
    onRecord: (record) => {
      if (ui.record?.id !== record.id) return;
      ui.record.sync = record.sync;
      if (showdown.open) renderShowdown();
    },
  });
  ui.account = account;
  keepPageInLanguage(account?.language);  // the cached page, in another language than its reader's
  const label = document.querySelector("[data-account]");
  label.textContent = account?.signed_in ? account.name : account ? gettext("not signed in") : "";
  if (!ui.record) await renderSaved();
  else render();  // the player's seat now names the account
}
const syncSoon = () => setTimeout(sync, 0);

function renderNet() {
  const net = document.querySelector("[data-net]");
  net.dataset.state = navigator.onLine ? "online" : "offline";
  net.textContent = navigator.onLine ? gettext("online") : gettext("offline");
  // Links to pages of the site ("My matches") cannot open without the network:
  // offline they are shown unavailable, with the reason, instead of leading nowhere.
  for (const link of document.querySelectorAll("[data-online-only]")) {
    link.dataset.href ??= link.getAttribute("href");
    link.dataset.label ??= link.textContent;
    if (navigator.onLine) {
      link.setAttribute("href", link.dataset.href);
      link.removeAttribute("role");
      link.removeAttribute("aria-disabled");
      link.removeAttribute("title");
      link.textContent = link.dataset.label;
    } else {
      const note = document.createElement("small");
      note.className = "site-nav__note";
      note.textContent = gettext("needs a connection");
      link.removeAttribute("href");
      link.setAttribute("role", "link");
      link.setAttribute("aria-disabled", "true");
      link.title = format(gettext("%(page)s opens when you are online again"), { page: link.dataset.label });
      link.replaceChildren(`${link.dataset.label} `, note);
    }
  }
}
window.addEventListener("online", () => { renderNet(); sync(); });
window.addEventListener("offline", renderNet);

// --------------------------------------------------------------------------
// Installing, and updating the cached app without mixing versions
// --------------------------------------------------------------------------
let installPrompt = null;
window.addEventListener("beforeinstallprompt", (event) => {
  event.preventDefault();
  installPrompt = event;
  document.querySelector("[data-install]").hidden = false;
});
document.querySelector("[data-install]").addEventListener("click", async () => {
  if (!installPrompt) return;
  installPrompt.prompt();
  await installPrompt.userChoice;
  installPrompt = null;
  document.querySelector("[data-install]").hidden = true;
});

let updating = false;
async function registerWorker() {
  if (!("serviceWorker" in navigator)) return;
  const registration = await navigator.serviceWorker.register(config.swUrl, { scope: "/" });
  const offerUpdate = (worker) => {
    const banner = document.querySelector("[data-update]");
    banner.hidden = false;
    banner.querySelector("[data-update-now]").onclick = () => { updating = true; worker.postMessage("skip-waiting"); };
  };
  if (registration.waiting && navigator.serviceWorker.controller) offerUpdate(registration.waiting);
  registration.addEventListener("updatefound", () => {
    const worker = registration.installing;
    worker?.addEventListener("statechange", () => {
      if (worker.state === "installed" && navigator.serviceWorker.controller) offerUpdate(worker);
    });
  });
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    // Only after the player asked for the new version: the page reloads whole from it.
    if (updating) { updating = false; location.reload(); }
  });
}

async function start() {
  renderNet();
  const playing = (await allMatches()).find((r) => r.status === "playing");
  try {
    if (playing) await showTable(playing);
    else await showSetup();
  } catch {
    await showSetup();  // a record this version cannot re-play: listed, the set-up shown
  }
  document.body.dataset.ready = "true";
  registerWorker().catch(() => {});
  sync();
}

start();
