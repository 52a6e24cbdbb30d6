// The puzzle page (games/learn): a puzzle's view on the table (board.js), the answer
// sent as JSON, then the verdict: right or not, the expected points of every legal
// action (best first), the player's rating before and after, and the streak.

import { format, formatNumber, gettext } from "../games/i18n.js";
import { cardName } from "../games/cards.js";
import { createBoard } from "./board.js";


const config = JSON.parse(document.getElementById("puzzle-config").textContent);
const $ = (sel) => document.querySelector(sel);
const table = $("[data-table]");
const ui = { puzzle: null, verdict: null, sending: false };

const THEMES = Object.fromEntries([...document.querySelectorAll("[data-theme-choice] option")].map((o) => [o.value, o.textContent]));

function csrfToken() {
  return document.cookie.split("; ").find((c) => c.startsWith("csrftoken="))?.slice("csrftoken=".length) ?? "";
}

function announce(text) {
  const el = document.getElementById("announce");
  el.textContent = "";
  setTimeout(() => { el.textContent = text; }, 50);
}

/** "Discard the ten of clubs", "Draw from the stock"... */
function describe(action) {
  switch (action.type) {
    case "pass": return gettext("Pass");
    case "draw": return action.source === "stock" ? gettext("Draw from the stock") : gettext("Take the upcard");
    case "discard": return format(gettext("Discard the %(card)s"), { card: cardName(action.card) });
    case "knock": return format(gettext("Knock, discarding the %(card)s"), { card: cardName(action.card) });
    case "big_gin": return gettext("Big gin");
    default: return action.type;
  }
}
const same = (a, b) => a.type === b.type && (a.source ?? null) === (b.source ?? null) && (a.card ?? null) === (b.card ?? null);

const board = createBoard(table, {
  get: () => ({ view: ui.puzzle?.view ?? null, legal: ui.puzzle && !ui.verdict && !ui.sending ? ui.puzzle.legal_actions : [] }),
  play: answer,
});

function show(puzzle) {
  ui.puzzle = puzzle;
  ui.verdict = null;
  table.hidden = false;
  table.dataset.puzzleId = String(puzzle.id);
  $("[data-puzzle-rating]").textContent = formatNumber(puzzle.rating);
  // The themes would give the answer away: they are shown with the verdict.
  $("[data-puzzle-themes]").textContent = "";
  const goal = puzzle.view.phase === "discard" ? gettext("Your move: which card, and knock or not?")
    : gettext("Your move: take the upcard, or not?");
  $("[data-goal]").textContent = goal;
  $("[data-feedback]").hidden = true;
  $("[data-values-panel]").hidden = true;
  $("[data-next-puzzle]").hidden = true;
  board.render();
  announce(`${goal} ${format(gettext("Puzzle rated %(rating)s."), { rating: formatNumber(puzzle.rating) })}`);
}

async function next() {
  const theme = $("[data-theme-choice]").value;
  const url = new URL(config.nextUrl, location.href);
  if (theme) url.searchParams.set("theme", theme);
  const response = await fetch(url, { credentials: "same-origin" });
  const data = await response.json();
  if (!response.ok) {
    table.hidden = true;
    $("[data-goal]").textContent = data.error?.message ?? gettext("No puzzle now.");
    return;
  }
  showPlayer(data.player);
  show(data.puzzle);
}

function showPlayer(player) {
  $("[data-player-rating]").textContent = formatNumber(player.rating);
  $("[data-player-streak]").textContent = formatNumber(player.streak);
}

async function answer(action) {
  if (!ui.puzzle || ui.verdict || ui.sending) return;
  ui.sending = true;
  board.render();
  try {
    const response = await fetch(config.answerUrl.replace("/0/", `/${ui.puzzle.id}/`), {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
      body: JSON.stringify({ action }),
    });
    const data = await response.json();
    if (!response.ok) { $("[data-feedback]").hidden = false; $("[data-feedback]").textContent = data.error?.message ?? "?"; return; }
    ui.verdict = data;
    verdict(action, data);
  } finally {
    ui.sending = false;
    board.render();
  }
}

function verdict(action, data) {
  const box = $("[data-feedback]");
  box.hidden = false;
  box.dataset.result = data.correct ? "right" : "wrong";
  const change = data.rating.after - data.rating.before;
  const rating = format(gettext("Your rating: %(before)s → %(after)s (%(change)s)."), {
    before: formatNumber(data.rating.before), after: formatNumber(data.rating.after),
    change: formatNumber(change, { signDisplay: "always" }),
  });
  const withdrawn = data.retired
    ? ` ${gettext("This puzzle has been withdrawn (its answer was found doubtful): answers to it no longer count.")}`
    : "";
  const said = data.correct
    ? `${gettext("Right!")} ${describe(data.best)}.`
    : `${gettext("Not the best.")} ${format(gettext("Best: %(best)s."), { best: describe(data.best) })}`;
  box.textContent = `${said} ${rating}${withdrawn}`;
  $("[data-player-rating]").textContent = formatNumber(data.rating.after);
  $("[data-player-streak]").textContent = formatNumber(data.streak);
  $("[data-puzzle-themes]").textContent = ui.puzzle.themes.map((t) => THEMES[t] ?? t).join(" · ");
  const list = $("[data-values]");
  list.replaceChildren();
  for (const { action: a, value } of data.values) {
    const li = document.createElement("li");
    li.dataset.best = String(same(a, data.best));
    li.dataset.chosen = String(same(a, action));
    const name = document.createElement("span");
    name.textContent = describe(a);
    const points = document.createElement("span");
    points.className = "num";
    points.textContent = format(gettext("%(points)s points"), {
      points: formatNumber(value, { minimumFractionDigits: 1, maximumFractionDigits: 1, signDisplay: "always" }),
    });
    li.append(name, " ", points);
    if (same(a, action)) li.append(" ", gettext("(your move)"));
    list.append(li);
  }
  $("[data-values-panel]").hidden = false;
  const button = $("[data-next-puzzle]");
  button.hidden = false;
  announce(box.textContent);
  button.focus();
}

$("[data-next-puzzle]").addEventListener("click", next);
$("[data-theme-choice]").addEventListener("change", next);
if (config.first) show(config.first); else next();
document.body.dataset.ready = "true";
