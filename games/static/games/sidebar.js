// The table's side panel, shared by the live table (table/render.js) and the offline
// one (offline/app.js): the match's facts, the scoreboard, the hand's log.

import { gettext } from "./i18n.js";

/** Fill the `<dl>` with `[term, value]` rows (rows without a value are left out). */
export function renderFacts(dl, rows) {
  dl.replaceChildren();
  for (const [term, value] of rows) {
    if (value === undefined || value === null || value === "") continue;
    const dt = document.createElement("dt");
    dt.textContent = term;
    const dd = document.createElement("dd");
    dd.textContent = String(value);
    dl.append(dt, dd);
  }
}

/** Fill the scoreboard's `<tbody>` with `[name, score]` rows. */
export function renderScoreboard(tbody, rows) {
  tbody.replaceChildren();
  for (const [name, score] of rows) {
    const tr = document.createElement("tr");
    const a = document.createElement("td");
    a.textContent = name;
    const b = document.createElement("td");
    b.textContent = String(score);
    tr.append(a, b);
    tbody.append(tr);
  }
}

/** Fill the log `<ol>` with the hand's moves, newest first (`describe` renders one);
 * a finished hand's "hand_over" event is no move (the result dialog tells it). */
export function renderMoveLog(list, history, describe) {
  const moves = history.filter((e) => e.type !== "hand_over");
  list.replaceChildren(...moves.map(describe).reverse());
  if (!moves.length) {
    const li = document.createElement("li");
    li.className = "empty";
    li.textContent = gettext("New deal.");
    list.append(li);
  }
}
