// Move-by-move replay of a finished hand: both hands face up, step with the
// buttons, the slider or the arrow keys, or let it play.

import { cardListName, renderCard, renderCardText, sortByRank, sortMeld } from "./cards.js";

const data = JSON.parse(document.getElementById("replay-data").textContent);
const app = document.getElementById("replay-app");
const $ = (sel) => app.querySelector(sel);
const steps = data.steps;
const bottom = data.you === 1 ? 1 : 0;
const top = 1 - bottom;
const name = (seat) => data.seats[seat] + (data.you === seat ? " (you)" : "");
let index = 0;
let timer = null;

const range = $("[data-range]");
range.max = String(steps.length - 1);

function renderHand(box, view, seat) {
  box.replaceChildren();
  box.setAttribute("aria-label", `${name(seat)}'s hand`);
  const melds = (view.melds || []).map(sortMeld);
  const inMelds = new Set(melds.flat());
  for (const meld of melds) {
    const g = document.createElement("div");
    g.className = "meld-group";
    g.setAttribute("role", "group");
    g.setAttribute("aria-label", `meld: ${cardListName(meld)}`);
    g.append(...meld.map((c) => renderCard(c)));
    box.append(g);
  }
  const dead = sortByRank(view.hand.filter((c) => !inMelds.has(c)));
  if (dead.length) {
    const g = document.createElement("div");
    g.className = "meld-group meld-group--deadwood";
    g.setAttribute("role", "group");
    g.setAttribute("aria-label", `deadwood: ${cardListName(dead)}`);
    g.append(...dead.map((c) => renderCard(c)));
    box.append(g);
  }
}

function caption(i) {
  const frag = document.createElement("span");
  const step = steps[i];
  if (!step.move) { frag.textContent = "The deal"; return frag; }
  const { seat, action, auto } = step.move;
  const who = data.seats[seat];
  const before = steps[i - 1].views[seat].hand;
  const after = step.views[seat].hand;
  const drawn = after.find((c) => !before.includes(c));
  const suffix = auto ? " (clock ran out: played by the server)" : "";
  switch (action.type) {
    case "pass": frag.textContent = `${who} passed${suffix}`; break;
    case "draw":
      frag.append(`${who} ${action.source === "stock" ? "drew" : "took"} `);
      if (drawn) frag.append(renderCardText(drawn));
      frag.append(` from the ${action.source === "stock" ? "stock" : "discard pile"}${suffix}`);
      break;
    case "discard": frag.append(`${who} discarded `, renderCardText(action.card), suffix); break;
    case "knock":
      frag.append(`${who} knocked`);
      if (action.card) frag.append(", discarding ", renderCardText(action.card), " face down");
      break;
    case "big_gin": frag.textContent = `${who} laid down big gin`; break;
    default: frag.textContent = `${who}: ${action.type}`;
  }
  return frag;
}

function renderResult(result) {
  const box = $("[data-replay-result]");
  if (!result) { box.hidden = true; return; }
  box.hidden = false;
  const winner = result.winner === null || result.winner === undefined ? null : data.seats[result.winner];
  const label = { knock: "Knock", gin: "Gin", big_gin: "Big gin", undercut: "Undercut", draw: "Draw" }[result.kind] ?? result.kind;
  $("[data-result-headline]").textContent = winner ? `${label}: ${winner} scores ${result.points}` : `${label}: nobody scores`;
  const dw = result.deadwood || [];
  const parts = [`Deadwood: ${data.seats[0]} ${dw[0]}, ${data.seats[1]} ${dw[1]}.`];
  if ((result.layoffs || []).length) parts.push(`Laid off: ${cardListName(result.layoffs)}.`);
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
  $("[data-replay-dw='top']").textContent = `deadwood ${views[top].deadwood}`;
  $("[data-replay-dw='bottom']").textContent = `deadwood ${views[bottom].deadwood}`;
  const pub = views[0];
  const stock = $("[data-replay-stock]");
  stock.replaceChildren();
  if (pub.stock_count) stock.append(renderCard(null, { faceDown: true, label: `stock, ${pub.stock_count} cards` }));
  $("[data-replay-stock-count]").textContent = String(pub.stock_count);
  const discard = $("[data-replay-discard]");
  discard.replaceChildren(...pub.discard_pile.slice(-3).map((c) => renderCard(c)));
  $("[data-replay-caption]").replaceChildren(caption(index));
  range.value = String(index);
  $("[data-position]").textContent = `${index} / ${steps.length - 1}`;
  renderResult(index === steps.length - 1 ? pub.result : null);
}

function stop() {
  clearInterval(timer);
  timer = null;
  $("[data-step='play']").textContent = "▶ Play";
}

app.addEventListener("click", (event) => {
  const step = event.target.closest("[data-step]")?.dataset.step;
  if (!step) return;
  if (step === "play") {
    if (timer) { stop(); return; }
    if (index >= steps.length - 1) show(0);
    $("[data-step='play']").textContent = "⏸ Pause";
    timer = setInterval(() => { if (index >= steps.length - 1) stop(); else show(index + 1); }, 900);
    return;
  }
  stop();
  show({ first: 0, prev: index - 1, next: index + 1, last: steps.length - 1 }[step]);
});
range.addEventListener("input", () => { stop(); show(Number(range.value)); });
document.addEventListener("keydown", (event) => {
  if (event.target.closest("input, textarea, select")) return;
  if (event.key === "ArrowRight") { stop(); show(index + 1); }
  else if (event.key === "ArrowLeft") { stop(); show(index - 1); }
});
show(0);
