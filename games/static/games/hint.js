// The hint button of unrated matches against the computer (the page loads this
// module only there): on a click or the H key, ask the server for the expert's
// suggestion (POST /match/{id}/hint), say it and ring its card. The note goes once
// the position moves on (any newer message on the match socket). "Hint at every
// turn" asks by itself whenever it is the player's turn: on for the last lesson's
// match (the table's address ends ?hints=auto), kept for this match in the tab.

import { cardName } from "./cards.js";
import { actionText } from "./review.js";
import { format, gettext, ngettext } from "./i18n.js";

const bar = document.querySelector("[data-hint-bar]");
const button = bar?.querySelector("[data-hint]");
const note = bar?.querySelector("[data-hint-note]");
const auto = bar?.querySelector("[data-hint-auto]");
const autoKey = `gin-hints-auto:${location.pathname}`;
let shownFor = null;  // the version the note is about
let asking = false;
let latest = -1;  // the newest version the match socket has told of
let autoAskedFor = -1;  // the version "every turn" last asked about

function clear() {
  shownFor = null;
  note.replaceChildren();
  document.querySelectorAll(".card--hint").forEach((el) => el.classList.remove("card--hint"));
}

function ring(card) {
  document.querySelectorAll(".card--hint").forEach((el) => el.classList.remove("card--hint"));
  if (card) document.querySelector(`[data-my-hand] .card[data-card="${card}"]`)?.classList.add("card--hint");
}

async function ask() {
  if (asking) return;
  asking = true;
  button.disabled = true;
  note.textContent = gettext("Thinking…");
  try {
    const res = await fetch(bar.dataset.hintUrl, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRFToken": bar.dataset.csrf },
      body: "",
      credentials: "same-origin",
    });
    let reply = {};
    try { reply = await res.json(); } catch { reply = { message: gettext("The server did not answer.") }; }
    note.replaceChildren();
    if (!res.ok) { note.textContent = reply.error?.message || reply.message || gettext("No hint now."); return; }
    shownFor = reply.version;
    const action = reply.action;
    note.append(gettext("Hint: "), actionText(action), " · ", format(ngettext("%(n)s hint used", "%(n)s hints used", reply.hints_used), { n: reply.hints_used }));
    note.dataset.hintAction = JSON.stringify(action);
    ring(action.type === "discard" || action.type === "knock" ? action.card : null);
    if (action.card) note.title = cardName(action.card);
  } catch {
    note.textContent = gettext("Not connected: try again in a moment.");
  } finally {
    asking = false;
    button.disabled = false;
  }
}

/** The player's turn at the table (the table marks the player's own bar). */
function myTurn() {
  return document.querySelector("[data-seat-bar='bottom']")?.getAttribute("data-turn") === "true";
}

function askEveryTurn() {
  if (!auto?.checked || asking || !myTurn() || latest <= autoAskedFor) return;
  autoAskedFor = latest;
  ask();
}

function remembered() {
  try {
    if (new URLSearchParams(location.search).get("hints") === "auto") sessionStorage.setItem(autoKey, "1");
    return sessionStorage.getItem(autoKey) === "1";
  } catch {
    return false;  // storage refused: the box starts off
  }
}

if (bar) {
  button.addEventListener("click", ask);
  if (auto) {
    auto.checked = remembered();
    auto.addEventListener("change", () => {
      try { sessionStorage.setItem(autoKey, auto.checked ? "1" : "0"); } catch { /* kept for this page only */ }
      autoAskedFor = -1;
      askEveryTurn();
    });
  }
  document.addEventListener("keydown", (event) => {
    if (event.target instanceof Element && event.target.closest("input, textarea, select, dialog")) return;
    if (event.metaKey || event.ctrlKey || event.altKey) return;
    if (event.key.toLowerCase() === "h") { event.preventDefault(); ask(); }
  });
  document.addEventListener("gin:socket-message", (event) => {
    const version = event.detail?.version;
    if (typeof version === "number" && version > latest) latest = version;
    // After the table has drawn this message (and marked whose turn it is).
    requestAnimationFrame(askEveryTurn);
    if (shownFor !== null && typeof version === "number" && version > shownFor) clear();
    else if (shownFor !== null) {
      // The table re-rendered the hand: put the ring back on the suggested card.
      const action = JSON.parse(note.dataset.hintAction || "null");
      if (action) requestAnimationFrame(() => ring(action.type === "discard" || action.type === "knock" ? action.card : null));
    }
  });
}
