// Post-hand analysis in the browser: the words for an action, the label marks,
// fetching a hand's review (polling while the worker is still on it), and the
// result dialog's "2 mistakes, 1 blunder: review" line with the hints used.

import { renderCardText } from "./cards.js";
import { format, gettext, ngettext } from "./i18n.js";

export const LABELS = ["inaccuracy", "mistake", "blunder"];
export const MARKS = { inaccuracy: "?!", mistake: "?", blunder: "??" };
/** A label's name in the page's language. */
export const labelName = (label) => ({ inaccuracy: gettext("inaccuracy"), mistake: gettext("mistake"), blunder: gettext("blunder") })[label] ?? label;

/** "%(card)s" in a translated phrase replaced by the card's node. */
function withCard(frag, text, card) {
  const [before, after = ""] = text.split("%(card)s");
  frag.append(before, card, after);
}

/** "discard K♠", "take 7♥", "draw from the stock", "knock, discarding 3♦"... */
export function actionText(action, { gin = false } = {}) {
  const frag = document.createElement("span");
  switch (action.type) {
    case "pass": frag.textContent = gettext("pass"); break;
    case "draw":
      if (action.source === "stock") frag.textContent = gettext("draw from the stock");
      else if (action.card) withCard(frag, gettext("take %(card)s"), renderCardText(action.card));
      else frag.textContent = gettext("take the discard");
      break;
    case "discard": withCard(frag, gettext("discard %(card)s"), renderCardText(action.card)); break;
    case "knock": withCard(frag, gin ? gettext("go gin, discarding %(card)s") : gettext("knock, discarding %(card)s"), renderCardText(action.card)); break;
    case "big_gin": frag.textContent = gettext("lay down big gin"); break;
    default: frag.textContent = action.type;
  }
  return frag;
}

/** A coloured label mark ("?!", "?", "??") with its name for screen readers. */
export function markFor(label) {
  const mark = document.createElement("span");
  mark.className = `mark mark--${label}`;
  mark.dataset.mark = label;
  mark.title = labelName(label);
  mark.setAttribute("aria-label", labelName(label));
  mark.textContent = MARKS[label];
  return mark;
}

/** "−6.2": a loss in points. */
export const lossText = (loss) => `−${Number(loss).toFixed(1)}`;

/** "2 mistakes, 1 blunder" (or "no mistakes") from {inaccuracy, mistake, blunder}. */
export function countsText(counts) {
  const parts = [];
  for (const label of ["mistake", "blunder", "inaccuracy"]) {
    const n = counts?.[label] ?? 0;
    if (!n) continue;
    const text = {
      mistake: ngettext("%(n)s mistake", "%(n)s mistakes", n),
      blunder: ngettext("%(n)s blunder", "%(n)s blunders", n),
      inaccuracy: ngettext("%(n)s inaccuracy", "%(n)s inaccuracies", n),
    }[label];
    parts.push(format(text, { n }));
  }
  return parts.length ? parts.join(", ") : gettext("no mistakes");
}

/** The review of a hand; polls every 2 s while the analysis runs, up to ``waitMs``. */
export async function fetchReview(url, { waitMs = 60000, signal } = {}) {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const res = await fetch(url, { credentials: "same-origin", signal });
    if (!res.ok) return null;
    const review = await res.json();
    if (review.ready || Date.now() > deadline) return review;
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}

const hintsText = (n) => format(ngettext("%(n)s hint used", "%(n)s hints used", n), { n });

/**
 * Fill the result dialog's review line for hand ``number`` of the match, as seen by
 * ``seat`` (null for a spectator: both players' figures): "2 mistakes, 1 blunder:
 * review" linking to the replay, the accuracy, and the hints used.
 */
let current = null;
export async function renderReviewLine(box, { matchId, number, seat, names }) {
  if (!box) return;
  if (current) current.abort();
  box.replaceChildren();
  if (!number) { box.hidden = true; return; }
  box.hidden = false;
  box.textContent = gettext("Analysing your play…");
  const controller = new AbortController();
  current = controller;
  let review;
  try {
    review = await fetchReview(`/match/${matchId}/hand/${number}/analysis.json`, { signal: controller.signal });
  } catch { return; }
  if (controller.signal.aborted) return;
  box.replaceChildren();
  if (!review) { box.hidden = true; return; }
  const seats = seat === 0 || seat === 1 ? [seat] : [0, 1];
  for (const s of seats) {
    const line = document.createElement("p");
    line.dataset.reviewSeat = String(s);
    const who = seats.length > 1 ? `${names?.[s] ?? format(gettext("Seat %(seat)s"), { seat: s + 1 })}: ` : "";
    const link = document.createElement("a");
    link.href = `/match/${matchId}/hand/${number}/replay/`;
    link.textContent = gettext("review");
    link.dataset.reviewLink = "";
    if (review.ready) {
      line.append(`${who}${countsText(review.counts?.[s])}: `, link);
      const acc = review.accuracy?.[s];
      if (acc !== null && acc !== undefined) line.append(" · ", format(gettext("accuracy %(accuracy)s"), { accuracy: Math.round(acc) }));
    } else {
      line.append(who, gettext("analysis still running: "), link);
    }
    const hints = review.hints?.[s] ?? 0;
    const total = review.match_hints?.[s] ?? 0;
    if (hints) line.append(" · ", total > hints ? format(gettext("%(hints)s (%(total)s in the match)"), { hints: hintsText(hints), total }) : hintsText(hints));
    else if (total) line.append(" · ", format(gettext("%(hints)s in the match"), { hints: hintsText(total) }));
    box.append(line);
  }
}
