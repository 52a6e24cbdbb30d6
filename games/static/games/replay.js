// Move-by-move replay of a finished hand: both hands face up, step with the
// buttons, the slider or the arrow keys, or let it play. With the hand's analysis:
// a coloured mark on each labelled decision, the better action on the cards, the
// graph of each player's expected points, and N / P to the next / previous mistake.

import { cardGroup, handSort, moveParts, sortedCards } from "./hands.js";
import { cardListName, cardName, renderCard, sortByRank, sortMeld } from "./cards.js";
import { deadwoodAfterDiscard } from "./melds.js";
import { actionText, countsText, fetchReview, labelName, lossText, markFor } from "./review.js";
import { format, gettext, ngettext } from "./i18n.js";

const data = JSON.parse(document.getElementById("replay-data").textContent);
const app = document.getElementById("replay-app");
const $ = (sel) => app.querySelector(sel);
const steps = data.steps;
const bottom = data.you === 1 ? 1 : 0;
const top = 1 - bottom;
const name = (seat) => (data.you === seat ? format(gettext("%(name)s (you)"), { name: data.seats[seat] }) : data.seats[seat]);
let index = 0;
let timer = null;

const range = $("[data-range]");
range.max = String(steps.length - 1);

function renderHand(box, view, seat) {
  box.replaceChildren();
  box.setAttribute("aria-label", format(gettext("Hand of %(name)s"), { name: name(seat) }));
  const melds = (view.melds || []).map(sortMeld);
  const inMelds = new Set(melds.flat());
  const dead = sortByRank(view.hand.filter((c) => !inMelds.has(c)));
  if (handSort() !== "melds") {  // the table settings: one row by rank or suit, melds marked
    const card = (c) => renderCard(c, inMelds.has(c) ? { className: "card--melded", label: `${cardName(c)}${gettext(" (in a meld)")}` } : {});
    const row = cardGroup(sortedCards(view.hand), { deadwood: true, card });
    row.setAttribute("aria-label", format(gettext("%(name)s: %(cards)s"), { name: name(seat), cards: cardListName(sortedCards(view.hand)) }));
    box.append(row);
    return;
  }
  for (const meld of melds) box.append(cardGroup(meld));
  if (dead.length) box.append(cardGroup(dead, { deadwood: true }));
}

function caption(i) {
  const frag = document.createElement("span");
  const step = steps[i];
  if (!step.move) { frag.textContent = gettext("The deal"); return frag; }
  const { seat, action, auto } = step.move;
  const who = data.seats[seat];
  const before = steps[i - 1].views[seat].hand;
  const after = step.views[seat].hand;
  const drawn = after.find((c) => !before.includes(c));
  frag.append(...moveParts(action, who, { drawn, auto }));
  return frag;
}

function renderResult(result) {
  const box = $("[data-replay-result]");
  if (!result) { box.hidden = true; return; }
  box.hidden = false;
  const winner = result.winner === null || result.winner === undefined ? null : data.seats[result.winner];
  const label = { knock: gettext("Knock"), gin: gettext("Gin"), big_gin: gettext("Big gin"), undercut: gettext("Undercut"), draw: gettext("Draw") }[result.kind] ?? result.kind;
  $("[data-result-headline]").textContent = winner
    ? format(gettext("%(result)s: %(name)s scores %(points)s"), { result: label, name: winner, points: result.points })
    : format(gettext("%(result)s: nobody scores"), { result: label });
  const dw = result.deadwood || [];
  const parts = [format(gettext("Deadwood: %(first)s %(a)s, %(second)s %(b)s."), { first: data.seats[0], a: dw[0], second: data.seats[1], b: dw[1] })];
  if ((result.layoffs || []).length) parts.push(format(gettext("Laid off: %(cards)s."), { cards: cardListName(result.layoffs) }));
  $("[data-result-why]").textContent = parts.join(" ");
}

function show(i) {
  index = Math.max(0, Math.min(steps.length - 1, i));
  const step = steps[index];
  const views = step.views;
  renderHand($("[data-replay-hand='top']"), views[top], top);
  renderHand($("[data-replay-hand='bottom']"), views[bottom], bottom);
  $("[data-replay-name='top']").textContent = name(top);
  $("[data-replay-name='bottom']").textContent = name(bottom);
  $("[data-replay-dw='top']").textContent = format(gettext("deadwood %(points)s"), { points: views[top].deadwood });
  $("[data-replay-dw='bottom']").textContent = format(gettext("deadwood %(points)s"), { points: views[bottom].deadwood });
  const pub = views[0];
  const stock = $("[data-replay-stock]");
  stock.replaceChildren();
  if (pub.stock_count) stock.append(renderCard(null, { faceDown: true, label: format(ngettext("stock, %(n)s card", "stock, %(n)s cards", pub.stock_count), { n: pub.stock_count }) }));
  $("[data-replay-stock-count]").textContent = String(pub.stock_count);
  const discard = $("[data-replay-discard]");
  discard.replaceChildren(...pub.discard_pile.slice(-3).map((c) => renderCard(c)));
  $("[data-replay-caption]").replaceChildren(caption(index));
  annotate(index);
  range.value = String(index);
  $("[data-position]").textContent = `${index} / ${steps.length - 1}`;
  renderResult(index === steps.length - 1 ? pub.result : null);
}

function stop() {
  clearInterval(timer);
  timer = null;
  $("[data-step='play']").textContent = gettext("▶ Play");
}

app.addEventListener("click", (event) => {
  const step = event.target.closest("[data-step]")?.dataset.step;
  if (!step) return;
  if (step === "play") {
    if (timer) { stop(); return; }
    if (index >= steps.length - 1) show(0);
    $("[data-step='play']").textContent = gettext("⏸ Pause");
    timer = setInterval(() => { if (index >= steps.length - 1) stop(); else show(index + 1); }, document.documentElement.dataset.motion === "fast" ? 450 : 900);  // the table settings' speed
    return;
  }
  stop();
  show({ first: 0, prev: index - 1, next: index + 1, last: steps.length - 1 }[step]);
});
range.addEventListener("input", () => { stop(); show(Number(range.value)); });
document.addEventListener("keydown", (event) => {
  if (event.target instanceof Element && event.target.closest("input, textarea, select")) return;
  if (event.metaKey || event.ctrlKey || event.altKey) return;
  const key = event.key.toLowerCase();
  if (event.key === "ArrowRight") { stop(); show(index + 1); }
  else if (event.key === "ArrowLeft") { stop(); show(index - 1); }
  else if (key === "n") { stop(); stepToMistake(1); }
  else if (key === "p") { stop(); stepToMistake(-1); }
});

// --------------------------------------------------------------------------
// Analysis: step i shows the position after the decision of ply i - 1.
// --------------------------------------------------------------------------
const review = { ready: false, byPly: new Map(), hinted: new Set() };

function decisionAt(i) { return i > 0 ? review.byPly.get(i - 1) : undefined; }

function annotate(i) {
  const note = $("[data-review-note]");
  app.querySelectorAll(".card--better").forEach((el) => el.classList.remove("card--better"));
  const d = decisionAt(i);
  app.querySelectorAll("[data-review-moves] button").forEach((b) => {
    if (Number(b.dataset.ply) === i - 1) b.setAttribute("aria-current", "step"); else b.removeAttribute("aria-current");
  });
  drawCursor(i);
  if (!d) { note.hidden = true; note.replaceChildren(); return; }
  note.hidden = false;
  note.replaceChildren();
  if (review.hinted.has(steps[i].move?.seq)) note.append(gettext("💡 hint shown · "));
  if (!d.label) {
    note.append(d.loss > 0 ? format(gettext("Good (%(loss)s)"), { loss: lossText(d.loss) }) : gettext("Best play"));
    return;
  }
  const labelText = labelName(d.label);
  note.append(markFor(d.label), ` ${labelText[0].toUpperCase()}${labelText.slice(1)}. `);
  const better = document.createElement("span");
  better.className = "review-note__better";
  better.dataset.better = "";
  const hand = steps[i - 1].views[d.seat].hand;
  const gin = d.best.type === "knock" && deadwoodAfterDiscard(hand).get(d.best.card) === 0;
  better.append(gettext("Better: "), actionText(d.best, { gin }), ` (${lossText(d.loss)})`);
  note.append(better);
  // The better action on the cards: its card in the player's hand, or the pile.
  const box = $(`[data-replay-hand='${d.seat === bottom ? "bottom" : "top"}']`);
  if (d.best.card && d.best.type !== "draw") box.querySelector(`.card[data-card="${d.best.card}"]`)?.classList.add("card--better");
  else if (d.best.type === "draw" && d.best.source === "discard") $("[data-replay-discard] .card:last-child")?.classList.add("card--better");
  else if (d.best.type === "draw") $("[data-replay-stock]")?.classList.add("card--better");
}

function stepToMistake(direction) {
  const plies = [...review.byPly.values()].filter((d) => d.label).map((d) => d.ply + 1);
  const target = direction > 0 ? plies.find((p) => p > index) : plies.reverse().find((p) => p < index);
  if (target !== undefined) show(target);
}
app.addEventListener("click", (event) => {
  const step = event.target.closest("[data-review-step]")?.dataset.reviewStep;
  if (step) { stop(); stepToMistake(step === "next" ? 1 : -1); return; }
  const ply = event.target.closest("[data-ply]")?.dataset.ply;
  if (ply !== undefined) { stop(); show(Number(ply) + 1); }
});

const GRAPH = { w: 640, h: 140, pad: 10 };
const SEAT_COLOURS = ["#f4c54d", "#7cc4ff"];
let scale = null;

function svg(name, attrs) {
  const el = document.createElementNS("http://www.w3.org/2000/svg", name);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  return el;
}

function drawGraph(decisions) {
  const box = $("[data-review-svg]");
  box.replaceChildren();
  const values = decisions.map((d) => d.value);
  const top = Math.max(10, ...values.map(Math.abs));
  const x = (ply) => GRAPH.pad + (ply + 1) * (GRAPH.w - 2 * GRAPH.pad) / Math.max(1, steps.length - 1);
  const y = (v) => GRAPH.h / 2 - (v / top) * (GRAPH.h / 2 - GRAPH.pad);
  scale = { x };
  box.append(svg("line", { x1: 0, x2: GRAPH.w, y1: y(0), y2: y(0), stroke: "#5b7a66", "stroke-dasharray": "4 4" }));
  for (const [v, dy] of [[top, 12], [-top, -4]]) {
    const t = svg("text", { x: 4, y: y(v) + dy, "font-size": 11, fill: "#a9bfb0" });
    t.textContent = `${v > 0 ? "+" : "−"}${Math.round(Math.abs(v))}`;
    box.append(t);
  }
  for (const seat of [0, 1]) {
    const mine = decisions.filter((d) => d.seat === seat);
    if (!mine.length) continue;
    const line = svg("polyline", {
      points: mine.map((d) => `${x(d.ply).toFixed(1)},${y(d.value).toFixed(1)}`).join(" "),
      fill: "none", stroke: SEAT_COLOURS[seat], "stroke-width": 2, "stroke-linejoin": "round",
      "data-seat-line": String(seat),
    });
    const title = svg("title", {});
    title.textContent = format(gettext("%(name)s: expected points"), { name: data.seats[seat] });
    line.append(title);
    box.append(line);
    for (const d of mine.filter((m) => m.label)) {
      const dot = svg("circle", { cx: x(d.ply), cy: y(d.value), r: 5, fill: `var(--${d.label})`, stroke: "#111", "data-ply": String(d.ply) });
      const t = svg("title", {});
      t.textContent = `${data.seats[seat]}: ${d.label} (${lossText(d.loss)})`;
      dot.append(t);
      box.append(dot);
    }
  }
  box.append(svg("line", { x1: 0, x2: 0, y1: 0, y2: GRAPH.h, stroke: "#fff", "stroke-opacity": .5, "data-cursor": "" }));
}

function drawCursor(i) {
  const cursor = app.querySelector("[data-cursor]");
  if (!cursor || !scale) return;
  const at = scale.x(i - 1);
  cursor.setAttribute("x1", at);
  cursor.setAttribute("x2", at);
}

function renderReview(r) {
  const status = $("[data-review-status]");
  if (!r) { status.textContent = gettext("No analysis for this hand."); return; }
  if (!r.ready) { status.textContent = gettext("The analysis of this hand is not ready yet: reload in a moment."); return; }
  review.ready = true;
  for (const d of r.decisions) review.byPly.set(d.ply, d);
  // A hint was given for the position of ``version``: the move that followed is seq version + 1.
  for (const h of r.hinted_versions || []) review.hinted.add(h.version + 1);
  status.textContent = gettext("Each decision judged from what its player could see at that moment.");
  const summary = $("[data-review-summary]");
  summary.replaceChildren();
  for (const seat of [bottom, top]) {
    const div = document.createElement("div");
    div.dataset.reviewAccuracy = String(seat);
    const acc = r.accuracy[seat];
    const big = document.createElement("div");
    big.className = "accuracy";
    big.textContent = acc === null || acc === undefined ? "–" : String(Math.round(acc));
    const small = document.createElement("div");
    small.append(`${name(seat)} · accuracy · ${countsText(r.counts[seat])}`);
    if (r.hints?.[seat]) small.append(` · ${r.hints[seat]} hint${r.hints[seat] === 1 ? "" : "s"} used`);
    div.append(big, small);
    summary.append(div);
  }
  const list = $("[data-review-moves]");
  list.replaceChildren();
  for (const d of r.decisions) {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.ply = String(d.ply);
    if (d.label) b.dataset.label = d.label;
    // The name the page was sent (games/messages.py seat_name), whole: "BOT alphabot",
    // "Computer (easy)", never a first word of it.
    b.append(`${d.ply + 1}. ${data.seats[d.seat]} `, actionText(d.played));
    if (d.label) b.append(markFor(d.label));
    li.append(b);
    list.append(li);
  }
  $("[data-review-graph]").hidden = false;
  const legend = $("[data-review-legend]");
  legend.replaceChildren();
  for (const seat of [0, 1]) {
    const swatch = document.createElement("span");
    swatch.className = "review__swatch";
    swatch.style.background = SEAT_COLOURS[seat];
    legend.append(swatch, `${name(seat)} `);
  }
  drawGraph(r.decisions);
  app.dataset.review = "ready";
  show(index);
}

show(0);
// A hand the match ended in the middle of (resignation, abandonment) has no analysis:
// the page is sent no review_url for it, and the status says why (replay.html).
if (data.review_url) fetchReview(data.review_url, { waitMs: 120000 }).then(renderReview).catch(() => renderReview(null));
