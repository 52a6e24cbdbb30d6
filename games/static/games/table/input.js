// @ts-check
// Input: sending actions, clicks, drag and drop (pointer events: mouse and touch),
// the keyboard, and the dialogs' buttons.

import { actOn, enableClicks } from "../controls.js";
import { enableDrag } from "../drag.js";
import { conn } from "./connection.js";
import { confirmsDiscard } from "../hands.js";
import { render, toast } from "./render.js";
import { closeShowdown, dismissedKey, openShowdown, rematchUrl } from "./showdown.js";
import { $, byId, canBigGin, canDiscard, canDraw, canPass, ginOptions, nonGinKnocks, root, ui } from "./state.js";
import { gettext } from "../i18n.js";

// --------------------------------------------------------------------------
// Sending
// --------------------------------------------------------------------------
/** @param {import("../wire.js").Action} action */
export function sendAction(action) {
  if (ui.pending || !ui.msg) return;
  const ok = conn.send({ type: "action", version: ui.msg.version, action });
  if (!ok) { toast(gettext("Not connected: reconnecting, try again in a moment.")); return; }
  ui.pending = true;
  ui.knockMode = false;
  ui.confirming = null;
  root.classList.add("is-pending");
  render();
}

/** @param {"resign" | "rematch"} type */
export function sendControl(type) {
  const msg = /** @type {import("../wire.js").StateFrame} */ (ui.msg);
  const body = type === "resign" ? { type, version: msg.version } : { type };
  if (!conn.send(body)) toast(gettext("Not connected: reconnecting, try again in a moment."));
}

// --------------------------------------------------------------------------
// Input: clicks, drag and drop (pointer events: mouse and touch), keyboard
// --------------------------------------------------------------------------
/** A press (click, tap, Enter) on a card of my hand: knock with it in knock mode, else
 * discard it; with confirm-before-discard on, the first press only chooses it.
 * @param {string} card */
export function onHandClick(card) {
  if (ui.knockMode) { sendAction({ type: "knock", card }); return; }
  if (!canDiscard(card)) return;
  if (confirmsDiscard() && ui.confirming !== card) {
    ui.confirming = card;
    render();
    /** @type {HTMLElement | null} */ (root.querySelector(`[data-my-hand] [data-card="${card}"]`))?.focus();
    return;
  }
  sendAction({ type: "discard", card });
}

/** A card dropped on the discard pile: a deliberate move, never asked again.
 * @param {string} card */
function onHandDrop(card) {
  if (ui.knockMode) sendAction({ type: "knock", card });
  else if (canDiscard(card)) sendAction({ type: "discard", card });
}

enableClicks(root, { onHandClick, canDraw, send: sendAction, onAct: doAct });

/** @param {string} act */
export function doAct(act) {
  actOn(act, { send: sendAction, setKnockMode, knocks: nonGinKnocks(), gins: ginOptions() });
}

/** @param {boolean} on */
function setKnockMode(on) {
  ui.knockMode = on;
  render();
  /** @type {HTMLElement | null} */
  const first = root.querySelector("[data-my-hand] .card[data-knock='true']");
  if (on) first?.focus();
}

enableDrag(root, {
  dropCard: onHandDrop,
  /** @param {"stock" | "discard"} source */
  dropPile: (source) => { if (canDraw(source)) sendAction({ type: "draw", source }); },
});


// A key event can be sent to the document itself (a script, an assistive tool): its
// target is then no element.
document.addEventListener("keydown", (event) => {
  if (event.target instanceof Element && event.target.closest("input, textarea, select, dialog")) return;
  if (event.metaKey || event.ctrlKey || event.altKey) return;
  const key = event.key.toLowerCase();
  if (key === "escape" && (ui.knockMode || ui.confirming)) { ui.knockMode = false; ui.confirming = null; render(); return; }
  if (key === "arrowleft" || key === "arrowright") {
    const cards = /** @type {HTMLElement[]} */ ([...root.querySelectorAll("[data-my-hand] .card")]);
    const i = cards.indexOf(/** @type {HTMLElement} */ (document.activeElement));
    if (i >= 0) {
      const next = cards[(i + (key === "arrowright" ? 1 : -1) + cards.length) % cards.length];
      next.focus();
      event.preventDefault();
    }
    return;
  }
  /** @type {Record<string, () => unknown>} */
  const map = { s: () => canDraw("stock") && sendAction({ type: "draw", source: "stock" }),
    d: () => canDraw("discard") && sendAction({ type: "draw", source: "discard" }),
    p: () => canPass() && sendAction({ type: "pass" }),
    k: () => nonGinKnocks().length && doAct("knock"),
    g: () => ginOptions().length && doAct("gin"),
    b: () => canBigGin() && doAct("big-gin") };
  if (map[key]) { map[key](); event.preventDefault(); }
});

// --------------------------------------------------------------------------
// Dialogs and page wiring
// --------------------------------------------------------------------------
byId("showdown").addEventListener("click", (event) => {
  const target = /** @type {HTMLElement} */ (event.target);
  if (target.closest("[data-next-hand]")) closeShowdown();
  else if (target.closest("[data-rematch]")) {
    if (ui.msg?.match.rematch?.match_id) { location.assign(rematchUrl()); return; }
    sendControl("rematch");
    /** @type {HTMLButtonElement} */ (target.closest("[data-rematch]")).disabled = true;
  }
});
byId("showdown").addEventListener("close", () => {
  if (ui.showdownFor) sessionStorage.setItem(dismissedKey, String(ui.showdownFor));
});
$("[data-show-result]").addEventListener("click", () => {
  openShowdown((ui.msg?.match.hands || []).at(-1)?.number ?? null);
});
export const resignDialog = /** @type {HTMLDialogElement} */ (byId("resign-dialog"));
$("[data-resign]").addEventListener("click", () => resignDialog.showModal());
resignDialog.addEventListener("close", () => {
  if (resignDialog.returnValue === "resign") sendControl("resign");
});
byId("conn-retry").addEventListener("click", () => conn.nudge());
window.addEventListener("online", () => conn.nudge());
document.addEventListener("visibilitychange", () => { if (!document.hidden) conn.nudge(); });
