// The table of a lesson or a puzzle: one position drawn from a player's view (the
// engine's player_view: the learner's hand, the piles, the opponent's known cards) on
// the live table's markup and table.css, with its input (clicks, drag and drop, the
// keys S, D, P, K, G) turned into the actions of the view's legal actions. Shared by
// learn.js (lessons) and puzzles.js.

import { format, gettext } from "../games/i18n.js";
import { enableDrag } from "../games/drag.js";
import { cardListName, cardName, cardShortText, renderCard, sortByRank, sortMeld } from "../games/cards.js";
import { handCard, taggedGroup } from "../games/hands.js";
import { actOn, enableClicks, renderActionButtons } from "../games/controls.js";
import { deadwoodAfterDiscard } from "../games/melds.js";


/** A board on `table` (the element holding the felt): `get()` returns `{view, legal}`
 * (`legal` empty when the player may not act now), `play(action)` acts. */
export function createBoard(table, { get, play }) {
  const $ = (sel) => table.querySelector(sel);
  const state = { knockMode: false };
  const legal = () => get().legal ?? [];
  const can = (pred) => legal().some(pred);
  const canDraw = (source) => can((a) => a.type === "draw" && a.source === source);
  const canDiscard = (card) => can((a) => a.type === "discard" && a.card === card);
  function knockOptions() {
    const after = deadwoodAfterDiscard(get().view.hand);
    return legal().filter((a) => a.type === "knock").map((a) => ({ card: a.card, deadwood: after.get(a.card) ?? 99 }));
  }
  const ginOptions = () => knockOptions().filter((k) => k.deadwood === 0);
  const nonGinKnocks = () => knockOptions().filter((k) => k.deadwood > 0);
  const send = (action) => { state.knockMode = false; play(action); };

  function render() {
    const { view } = get();
    if (!view) return;
    if (!legal().length) state.knockMode = false;
    table.classList.toggle("knock-mode", state.knockMode);
    renderOpponent(view);
    renderCentre(view);
    renderMyHand(view);
    renderActionButtons($("[data-actions]"), {
      mine: legal().length > 0, firstTurn: view.phase === "first_turn", knockMode: state.knockMode,
      canPass: can((a) => a.type === "pass"), canTake: canDraw("discard"), knocks: nonGinKnocks(),
      canGin: ginOptions().length > 0, canBigGin: can((a) => a.type === "big_gin"),
    });
  }

  function renderOpponent(v) {
    const box = $("[data-opp-hand]");
    box.replaceChildren();
    const known = v.opponent_known_cards;
    for (const c of sortByRank(known)) box.append(renderCard(c, { className: "card--known", label: `${cardName(c)} (${gettext("known")})` }));
    for (let i = known.length; i < v.opponent_card_count; i++) box.append(renderCard(null, { faceDown: true, label: gettext("hidden card") }));
    box.setAttribute("aria-label", format(gettext("Opponent: %(count)s cards"), { count: v.opponent_card_count })
      + (known.length ? `, ${format(gettext("known: %(cards)s"), { cards: cardListName(known) })}` : ""));
    $("[data-opp-note]").textContent = known.length
      ? format(gettext("took from the pile: %(cards)s"), { cards: sortByRank(known).map(cardShortText).join(" ") }) : "";
  }

  function renderCentre(v) {
    const stock = $("[data-stock]");
    const stockActive = canDraw("stock");
    stock.dataset.active = String(stockActive);
    stock.disabled = !stockActive;
    stock.querySelector("[data-stock-count]").textContent = String(v.stock_count);
    // The piles are named by their visually hidden text, as on the live table (the cards
    // drawn on them are pictures).
    stock.querySelector("[data-pile-name]").textContent = format(gettext("Stock: %(n)s cards"), { n: v.stock_count })
      + (stockActive ? `. ${gettext("Draw from the stock (S)")}` : "");
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
    discard.querySelector("[data-pile-name]").textContent = (top
      ? format(gettext("Discard pile: %(card)s on top"), { card: cardName(top) }) + (takeActive ? `. ${format(gettext("Take the %(card)s (D)"), { card: cardName(top) })}` : "")
      : gettext("Discard pile: empty"));
    $("[data-status]").textContent = state.knockMode ? gettext("Knock: choose the card to discard face down")
      : legal().length ? prompt(v) : "";
  }

  function prompt(v) {
    if (v.phase === "first_turn") return gettext("First turn: take the upcard or pass");
    if (v.phase === "draw") return gettext("Draw from the stock or the discard pile");
    return gettext("Discard a card, or knock");
  }

  function renderMyHand(v) {
    const box = $("[data-my-hand]");
    const focused = document.activeElement?.dataset?.card;
    box.replaceChildren();
    const inMelds = new Set(v.melds.flat());
    // The kinds hands.js knows ("set", "run", "deadwood"): it names them in the page's language.
    const groups = v.melds.map((m) => ({ kind: m.every((c) => c[0] === m[0][0]) ? "set" : "run", cards: sortMeld(m) }));
    groups.sort((a, b) => a.cards[0].localeCompare(b.cards[0]));
    const dead = sortByRank(v.hand.filter((c) => !inMelds.has(c)));
    const myDiscard = legal().length > 0 && v.phase === "discard";
    const knocks = state.knockMode ? new Map(knockOptions().map((k) => [k.card, k.deadwood])) : null;
    const after = myDiscard ? deadwoodAfterDiscard(v.hand) : null;
    const makeCard = (c) => handCard(c, { discardTurn: myDiscard, takenFromDiscard: v.taken_from_discard, knocks, after, canDiscard });
    for (const g of groups) box.append(taggedGroup(g.kind, g.cards, makeCard));
    if (dead.length) box.append(taggedGroup("deadwood", dead, makeCard));
    const total = $("[data-deadwood]");
    total.textContent = format(gettext("Deadwood %(n)s"), { n: v.deadwood });
    total.setAttribute("aria-label", format(gettext("Your deadwood: %(n)s points"), { n: v.deadwood }));
    $("[data-knock-limit]").textContent = format(gettext("Knock limit %(n)s"), { n: v.knock_limit });
    if (focused) box.querySelector(`[data-card="${focused}"]`)?.focus();
  }

  function setKnockMode(on) {
    state.knockMode = on;
    render();
    if (on) table.querySelector("[data-my-hand] .card[data-knock='true']")?.focus();
  }
  function onHandClick(card) {
    if (state.knockMode) { send({ type: "knock", card }); return; }
    if (canDiscard(card)) send({ type: "discard", card });
  }
  const doAct = (which) => actOn(which, { send, setKnockMode, knocks: nonGinKnocks(), gins: ginOptions() });

  enableClicks(table, { onHandClick, canDraw, send, onAct: doAct });
  enableDrag(table, {
    dropCard: onHandClick,
    dropPile: (source) => { if (canDraw(source)) send({ type: "draw", source }); },
  });
  document.addEventListener("keydown", (event) => {
    if (table.hidden || !legal().length || event.target.closest("input, textarea, select") || event.metaKey || event.ctrlKey || event.altKey) return;
    const key = event.key.toLowerCase();
    if (key === "escape" && state.knockMode) { setKnockMode(false); return; }
    const map = {
      s: () => canDraw("stock") && send({ type: "draw", source: "stock" }),
      d: () => canDraw("discard") && send({ type: "draw", source: "discard" }),
      p: () => can((a) => a.type === "pass") && send({ type: "pass" }),
      k: () => nonGinKnocks().length && doAct("knock"),
      g: () => ginOptions().length && doAct("gin"),
    };
    if (map[key]) { map[key](); event.preventDefault(); }
  });
  return { render };
}
