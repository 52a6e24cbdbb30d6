// The lessons (games/learn): the course list and one lesson at a time, each exercise
// a fixed position on the table's markup (table.css, hands.js, controls.js), played
// with the browser's port of the engine (games/offline/engine.js), so that a lesson
// works offline once the page was opened. A right action moves on, a wrong one is
// explained in one sentence and the position stays for another try. Progress is kept
// in this browser (localStorage "gin-learn") and, for a signed-in account, on the
// server (/learn/progress/): what this browser finished joins the account that signs
// in or up. The goal and the result of each exercise are announced to screen readers.

import { format, gettext } from "../games/i18n.js";
import { cardName } from "../games/cards.js";
import { renderResultHands } from "../games/hands.js";
import { deadwoodAfterDiscard } from "../games/melds.js";
import { apply, playerView } from "../games/offline/engine.js";
import { keepPageInLanguage } from "../games/page_language.js";
import { createBoard } from "./board.js";


const course = JSON.parse(document.getElementById("learn-course").textContent);
const lessons = course.lessons;
const STORE = "gin-learn";
const YOU = 0;

const $ = (sel) => document.querySelector(sel);
const table = $("[data-table]");
const ui = {
  lesson: null,     // index into lessons
  step: 0,          // index of the exercise
  state: null,      // the engine's state of the position shown
  solved: false,
  account: null,    // {signed_in, guest, lessons} once asked
};

// --------------------------------------------------------------------------
// Progress: this browser's, and the account's
// --------------------------------------------------------------------------
function loadLocal() {
  try {
    const data = JSON.parse(localStorage.getItem(STORE) ?? "{}");
    return { lessons: Array.isArray(data.lessons) ? data.lessons : [], exercises: Array.isArray(data.exercises) ? data.exercises : [] };
  } catch { return { lessons: [], exercises: [] }; }
}
function saveLocal(progress) {
  try { localStorage.setItem(STORE, JSON.stringify(progress)); } catch { /* private mode: this visit only */ }
}
const progress = loadLocal();
const lessonDone = (slug) => progress.lessons.includes(slug);

function csrfToken() {
  return document.cookie.split("; ").find((c) => c.startsWith("csrftoken="))?.slice("csrftoken=".length) ?? "";
}

async function sendProgress(slugs) {
  const response = await fetch(course.progressUrl, {
    method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
    body: JSON.stringify({ lessons: slugs }),
  });
  if (!response.ok) throw new Error(String(response.status));
  return response.json();
}

/** Ask who is signed in; a signed-in account receives what this browser finished and
 * this browser what the account finished elsewhere. */
async function syncProgress() {
  let account;
  try {
    const response = await fetch(course.progressUrl, { credentials: "same-origin" });
    if (!response.ok) return;
    account = await response.json();
  } catch { return; }  // offline: this browser's progress only
  keepPageInLanguage(account.language);  // the cached page, in another language than its reader's
  if (account.signed_in) {
    const missing = progress.lessons.filter((slug) => !account.lessons.includes(slug));
    if (missing.length) {
      try { account = await sendProgress(missing); } catch { /* kept here, sent next time */ }
    }
    progress.lessons = lessons.map((l) => l.slug).filter((s) => progress.lessons.includes(s) || account.lessons.includes(s));
    saveLocal(progress);
  }
  ui.account = account;
  renderAccount();
  renderCourse();
}

function renderAccount() {
  const a = ui.account;
  $("[data-account]").textContent = a?.signed_in && !a.guest ? gettext("Progress saved to your account") : "";
  $("[data-signup]").hidden = !a || (a.signed_in && !a.guest);
  const note = $("[data-progress-note]");
  const done = progress.lessons.length;
  note.textContent = format(gettext("%(done)s of %(total)s lessons finished."), { done, total: lessons.length })
    + (a?.signed_in && !a.guest ? "" : ` ${gettext("Your progress is kept in this browser; sign up to keep it on your account.")}`);
}

async function finishLesson(slug) {
  if (!progress.lessons.includes(slug)) progress.lessons.push(slug);
  saveLocal(progress);
  if (ui.account?.signed_in) {
    try { ui.account = await sendProgress([slug]); } catch { /* sent with the next sync */ }
  }
  renderAccount();
}

// --------------------------------------------------------------------------
// The course list
// --------------------------------------------------------------------------
function renderCourse() {
  const list = $("[data-lesson-list]");
  list.replaceChildren();
  const next = lessons.findIndex((l) => !lessonDone(l.slug));
  lessons.forEach((lesson, i) => {
    const li = document.createElement("li");
    li.className = "lesson-list__item";
    li.dataset.lessonItem = lesson.slug;
    li.dataset.done = String(lessonDone(lesson.slug));
    const a = document.createElement("a");
    a.href = `#lesson-${lesson.slug}`;
    a.textContent = lesson.title;
    const state = document.createElement("span");
    state.className = "lesson-list__state";
    if (lessonDone(lesson.slug)) { state.textContent = gettext("done"); state.classList.add("badge", "badge--done"); }
    else if (i === next) { state.textContent = gettext("next"); state.classList.add("badge"); }
    const count = document.createElement("small");
    count.textContent = format(gettext("%(n)s exercises"), { n: lesson.exercises.length });
    li.append(a, " ", state, " ", count);
    list.append(li);
  });
  renderAccount();
}

// --------------------------------------------------------------------------
// One lesson
// --------------------------------------------------------------------------
const exercise = () => lessons[ui.lesson].exercises[ui.step];

function openLesson(index) {
  ui.lesson = index;
  ui.step = 0;
  const lesson = lessons[index];
  $("[data-course]").hidden = true;
  $("[data-lesson]").hidden = false;
  $("[data-finish]").hidden = true;
  $("[data-exercise]").hidden = false;
  $("[data-lesson-title]").textContent = lesson.title;
  $("[data-lesson-number]").textContent = format(gettext("Lesson %(n)s of %(total)s"), { n: index + 1, total: lessons.length });
  const text = $("[data-lesson-text]");
  text.replaceChildren(...lesson.text.map((line) => { const p = document.createElement("p"); p.textContent = line; return p; }));
  document.title = `${lesson.title} · ${gettext("Learn gin rummy")}`;
  showExercise();
  $("[data-lesson-title]").focus();
}

function showCourse() {
  ui.lesson = null;
  $("[data-course]").hidden = false;
  $("[data-lesson]").hidden = true;
  document.title = gettext("Learn gin rummy · Gin Rummy Online");
  renderCourse();
}

function showExercise() {
  const ex = exercise();
  ui.state = ex.state;
  ui.solved = false;
  const total = lessons[ui.lesson].exercises.length;
  $("[data-step]").textContent = format(gettext("Exercise %(n)s of %(total)s"), { n: ui.step + 1, total });
  $("[data-goal]").textContent = ex.goal;
  setFeedback(null);
  $("[data-next]").hidden = true;
  $("[data-retry]").hidden = true;
  renderChoices(ex);
  render();
  announce(`${$("[data-step]").textContent}. ${ex.goal}`);
}

function setFeedback(kind, text = "") {
  const box = $("[data-feedback]");
  box.hidden = !kind;
  box.dataset.result = kind ?? "";
  box.textContent = text;
}

function announce(text) {
  const el = document.getElementById("announce");
  el.textContent = "";
  // A new text in the live region, even when it repeats the last one.
  setTimeout(() => { el.textContent = text; }, 50);
}

const sameAction = (a, b) => a.type === b.type && (a.source ?? null) === (b.source ?? null) && (a.card ?? null) === (b.card ?? null);

function judge(action) {
  const ex = exercise();
  if (ex.correct.some((a) => sameAction(a, action))) return { right: true, why: ex.success };
  const named = ex.wrong.find((w) => sameAction(w.action, action));
  if (named) return { right: false, why: named.why };
  const hand = ui.state.hands[YOU];
  if (action.card && hand.length === 11) {
    const after = deadwoodAfterDiscard(hand);
    const best = Math.min(...after.values());
    return { right: false, why: format(ex.otherwise, { card: cardName(action.card), after: after.get(action.card), best }) };
  }
  return { right: false, why: ex.otherwise || gettext("That is not it. Read the goal again and try another move.") };
}

function play(action) {
  if (ui.solved || exercise().kind !== "action") return;
  const verdict = judge(action);
  if (!verdict.right) {
    setFeedback("wrong", `${gettext("Not quite.")} ${verdict.why}`);
    announce(`${gettext("Not quite.")} ${verdict.why} ${gettext("Try again.")}`);
    render();
    return;
  }
  ui.state = apply(ui.state, action, YOU).state;
  solved(verdict.why);
}

function solved(why) {
  ui.solved = true;
  const last = ui.step === lessons[ui.lesson].exercises.length - 1;
  setFeedback("right", `${gettext("Right!")} ${why}`);
  progress.exercises = [...new Set([...progress.exercises, exercise().id])];
  saveLocal(progress);
  const next = $("[data-next]");
  next.hidden = false;
  next.textContent = last ? gettext("Finish the lesson") : gettext("Next exercise");
  render();
  announce(`${gettext("Right!")} ${why}`);
  next.focus();
}

function renderChoices(ex) {
  const box = $("[data-choices]");
  box.replaceChildren();
  box.hidden = ex.kind !== "choice";
  box.setAttribute("aria-label", ex.goal);
  for (const option of ex.options) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "btn learn-choice";
    b.textContent = option.label;
    b.addEventListener("click", () => {
      if (ui.solved) return;
      if (option.right) { b.dataset.result = "right"; solved(option.why); return; }
      b.dataset.result = "wrong";
      setFeedback("wrong", `${gettext("Not quite.")} ${option.why}`);
      announce(`${gettext("Not quite.")} ${option.why} ${gettext("Try again.")}`);
    });
    box.append(b);
  }
}

async function nextStep() {
  const lesson = lessons[ui.lesson];
  if (ui.step < lesson.exercises.length - 1) { ui.step += 1; showExercise(); $("[data-goal]").focus(); return; }
  await finishLesson(lesson.slug);
  $("[data-exercise]").hidden = true;
  table.hidden = true;
  const finish = $("[data-finish]");
  finish.hidden = false;
  const more = ui.lesson < lessons.length - 1;
  $("[data-finish-text]").textContent = more
    ? format(gettext("Well done: “%(title)s” is finished. Next: “%(next)s”."), { title: lesson.title, next: lessons[ui.lesson + 1].title })
    : gettext("Well done: you have finished the whole course.");
  $("[data-next-lesson]").hidden = !more;
  const final = $("[data-final-match]");
  final.hidden = !lesson.final_match;
  final.querySelector("[data-csrf]").value = csrfToken();
  final.querySelector("button").disabled = !navigator.onLine;
  final.querySelector("[data-final-offline]").hidden = navigator.onLine;
  announce($("[data-finish-text]").textContent);
  finish.querySelector("h2").focus();
}

// --------------------------------------------------------------------------
// The table (board.js), and the hands shown once a knock ended the hand
// --------------------------------------------------------------------------
const board = createBoard(table, {
  get: () => ({
    view: ui.state ? playerView(ui.state, YOU) : null,
    legal: !ui.state || ui.solved || exercise().kind !== "action" ? [] : playerView(ui.state, YOU).legal_actions,
  }),
  play,
});

function render() {
  const ex = exercise();
  const over = ui.state?.phase === "over";
  table.hidden = !ui.state;
  if (!ui.state) return;
  table.querySelector(".felt").hidden = over && ex.kind === "choice";
  board.render();
  renderShowdown();
}

function renderShowdown() {
  const box = $("[data-showdown]");
  const result = ui.state.phase === "over" ? ui.state.result : null;
  box.hidden = !result;
  if (!result) return;
  const names = { [YOU]: gettext("You"), 1: gettext("Opponent") };
  const headline = {
    gin: gettext("Gin"), big_gin: gettext("Big gin"), undercut: gettext("Undercut"), knock: gettext("Knock"), draw: gettext("Draw"),
  }[result.kind] ?? result.kind;
  box.querySelector("[data-showdown-headline]").textContent = result.winner === null ? headline
    : `${headline}: ${format(gettext("%(who)s scores %(points)s"), { who: names[result.winner], points: result.points })}`;
  renderResultHands(result, box.querySelector("[data-showdown-hands]"), { order: [1, YOU], name: (seat) => names[seat] });
}

$("[data-next]").addEventListener("click", nextStep);
$("[data-next-lesson]").addEventListener("click", () => { location.hash = `#lesson-${lessons[ui.lesson + 1].slug}`; });
for (const link of document.querySelectorAll("[data-to-course]")) {
  link.addEventListener("click", (event) => { event.preventDefault(); history.pushState(null, "", location.pathname); showCourse(); });
}

function route() {
  const slug = location.hash.startsWith("#lesson-") ? location.hash.slice("#lesson-".length) : null;
  const index = lessons.findIndex((l) => l.slug === slug);
  if (index >= 0) openLesson(index);
  else showCourse();
}
window.addEventListener("hashchange", route);
window.addEventListener("online", syncProgress);

// The service worker keeps this page and its files for offline use (docs/offline.md).
if ("serviceWorker" in navigator) navigator.serviceWorker.register(course.swUrl, { scope: "/" }).catch(() => {});

route();
document.body.dataset.ready = "true";
syncProgress();
