// The player's own turn, the same on the live table (table/ render.js and input.js)
// and the offline one (offline/app.js): what the status line tells them, the action
// buttons, and what each button does.

import { cardName } from "./cards.js";
import { format, gettext } from "./i18n.js";

/** A touch screen without a mouse: the hints say "tap", not "click" or keys. */
export const touchScreen = () => matchMedia("(pointer: coarse)").matches || (navigator.maxTouchPoints > 0 && matchMedia("(hover: none)").matches);

/** `[main, sub]` sentences for the player to move in `view` (the engine's player
 * view): `knockMode` while choosing the knock card; `canGin`, `canKnock` what the
 * legal actions allow. */
export function yourTurnPrompt(view, { knockMode, canGin, canKnock }) {
  if (knockMode) {
    return [gettext("Knock: choose the card to discard face down"), gettext("Highlighted cards keep you within the knock limit. Esc cancels.")];
  }
  if (view.phase === "first_turn") {
    return [format(gettext("Your turn: take the %(card)s or pass"), { card: cardName(view.discard_pile.at(-1)) }), gettext("First turn: the stock is closed until both players pass.")];
  }
  if (view.phase === "draw") {
    return [gettext("Your turn: draw from the stock or the discard pile"), touchScreen() ? gettext("Tap a pile, or drag its card to your hand.") : gettext("Click, drag, or press S / D.")];
  }
  if (view.phase === "discard") {
    const parts = [touchScreen() ? gettext("Tap a card, or drag it to the discard pile.") : gettext("Click or drag a card to the discard pile.")];
    if (canGin) parts.push(gettext("You can go gin!"));
    else if (canKnock) parts.push(format(gettext("You can knock (limit %(limit)s)."), { limit: view.knock_limit }));
    return [gettext("Discard a card"), parts.join(" ")];
  }
  return ["", ""];
}

/** Show the action buttons of `box` that the player can use now. `mine`: it is their
 * turn; `knocks`: the knocks that are not gin (card, deadwood); `disabled` while an
 * action is on its way. */
export function renderActionButtons(box, { mine, firstTurn, knockMode, canPass, canTake, knocks, canGin, canBigGin, disabled = false }) {
  const show = (sel, visible) => { const el = box.querySelector(sel); el.hidden = !visible; el.disabled = disabled; return el; };
  show("[data-act='pass']", mine && canPass);
  show("[data-act='take']", mine && firstTurn && canTake);
  const knock = show("[data-act='knock']", mine && !knockMode && knocks.length > 0);
  const best = [...knocks].sort((a, b) => a.deadwood - b.deadwood)[0];
  knock.textContent = best ? format(gettext("Knock (%(deadwood)s)"), { deadwood: best.deadwood }) : gettext("Knock");
  show("[data-act='gin']", mine && !knockMode && canGin);
  show("[data-act='big-gin']", mine && canBigGin);
  show("[data-act='cancel']", mine && knockMode);
}

/** What the button `act` does: `send(action)` an action, or `setKnockMode(on)` to
 * choose the knock card; `knocks` and `gins` are the knocks available (card, deadwood). */
export function actOn(act, { send, setKnockMode, knocks, gins }) {
  if (act === "pass") send({ type: "pass" });
  else if (act === "take") send({ type: "draw", source: "discard" });
  else if (act === "knock") { if (knocks.length) setKnockMode(true); }
  else if (act === "gin") { if (gins.length) send({ type: "knock", card: gins[0].card }); }
  else if (act === "big-gin") send({ type: "big_gin" });
  else if (act === "cancel") setKnockMode(false);
}

/** Clicks on the table `root`: a card of the hand (`onHandClick(card)`), a pile
 * (`send` a draw when `canDraw(source)`), an action button (`onAct(name)`). */
export function enableClicks(root, { onHandClick, canDraw, send, onAct }) {
  root.addEventListener("click", (event) => {
    const cardEl = event.target.closest("[data-my-hand] .card");
    if (cardEl) { if (!cardEl.dataset.inert) onHandClick(cardEl.dataset.card); return; }
    for (const source of ["stock", "discard"]) {
      if (event.target.closest(`[data-${source}]`)) { if (canDraw(source)) send({ type: "draw", source }); return; }
    }
    const act = event.target.closest("[data-act]")?.dataset.act;
    if (act) onAct(act);
  });
}
