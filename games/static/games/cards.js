// Cards: names, values, sorting and SVG rendering, shared by the table, the
// showdown, replays and the home page. Card text is rank then suit ("TD").

import { format, gettext, pgettext } from "./i18n.js";

export const RANKS = "A23456789TJQK";
export const SUITS = "CDHS";

// Names for screen readers, in the page's language ("diez de picas"): read when asked
// for, so the catalog (games/i18n.js) is loaded by then.
const RANK_NAMES = () => ({
  A: pgettext("card rank", "ace"), 2: pgettext("card rank", "two"), 3: pgettext("card rank", "three"),
  4: pgettext("card rank", "four"), 5: pgettext("card rank", "five"), 6: pgettext("card rank", "six"),
  7: pgettext("card rank", "seven"), 8: pgettext("card rank", "eight"), 9: pgettext("card rank", "nine"),
  T: pgettext("card rank", "ten"), J: pgettext("card rank", "jack"), Q: pgettext("card rank", "queen"),
  K: pgettext("card rank", "king"),
});
const SUIT_NAMES = () => ({
  C: pgettext("card suit", "clubs"), D: pgettext("card suit", "diamonds"),
  H: pgettext("card suit", "hearts"), S: pgettext("card suit", "spades"),
});
const RANK_LABELS = { T: "10" };
const SUIT_SYMBOLS = { C: "♣", D: "♦", H: "♥", S: "♠" };

// Suit shapes drawn in a 100 x 100 box, so they never depend on installed fonts.
const SUIT_PATHS = {
  H: "M50 90C18 62 4 46 10 28C16 10 40 8 50 30C60 8 84 10 90 28C96 46 82 62 50 90Z",
  D: "M50 4L88 50L50 96L12 50Z",
  S: "M50 6C74 32 94 46 90 64C86 80 66 82 55 70C57 82 61 89 68 95H32C39 89 43 82 45 70C34 82 14 80 10 64C6 46 26 32 50 6Z",
  C: "M50 8a19 19 0 0 1 15 31a19 19 0 1 1 -8 34c1 9 4 16 10 22h-34c6 -6 9 -13 10 -22a19 19 0 1 1 -8 -34a19 19 0 0 1 15 -31Z",
};

export function rankOf(card) { return card[0]; }
export function suitOf(card) { return card[1]; }
export function rankIndex(card) { return RANKS.indexOf(card[0]) + 1; }

/** Deadwood value: ace 1, 2-10 face value, J/Q/K 10. */
export function cardValue(card) { return Math.min(rankIndex(card), 10); }

/** Accessible name: "ten of diamonds". */
export function cardName(card) {
  return format(pgettext("card name", "%(rank)s of %(suit)s"), { rank: RANK_NAMES()[card[0]], suit: SUIT_NAMES()[card[1]] });
}
export function suitName(suit) { return SUIT_NAMES()[suit]; }
export function suitSymbol(suit) { return SUIT_SYMBOLS[suit]; }

/** Readable list: "ten of diamonds, jack of diamonds and queen of diamonds". */
export function cardListName(cards) {
  const names = cards.map(cardName);
  if (names.length <= 1) return names.join("");
  return format(gettext("%(list)s and %(last)s"), { list: names.slice(0, -1).join(", "), last: names[names.length - 1] });
}

/** Sort by suit (spades, hearts, clubs, diamonds alternate colours) then rank. */
const SUIT_ORDER = { S: 0, H: 1, C: 2, D: 3 };
export function sortBySuit(cards) {
  return [...cards].sort((a, b) => SUIT_ORDER[a[1]] - SUIT_ORDER[b[1]] || rankIndex(a) - rankIndex(b));
}
export function sortByRank(cards) {
  return [...cards].sort((a, b) => rankIndex(a) - rankIndex(b) || SUIT_ORDER[a[1]] - SUIT_ORDER[b[1]]);
}

/** Sort a meld for display: runs ascending, sets by suit. */
export function sortMeld(meld) { return sortByRank(meld); }

const SVG_NS = "http://www.w3.org/2000/svg";

function svgEl(name, attrs) {
  const el = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  return el;
}

function pip(suit, x, y, size, rotate = false) {
  const s = size / 100;
  const transform = rotate
    ? `translate(${x + size} ${y + size}) rotate(180) scale(${s})`
    : `translate(${x} ${y}) scale(${s})`;
  return svgEl("path", { d: SUIT_PATHS[suit], transform, class: "card__pip" });
}

// Corner indices per card style: rank font size and baseline, its left edge, a
// horizontal squeeze (taller glyphs in the strip an overlapped card leaves visible;
// a two-character "10" is fitted to wideLength), then the suit pip under it.
const INDEX = {
  classic: { size: 34, wideSize: 30, wideLength: 34, x: 8, wideX: 4, y: 33, squeeze: 1, pip: 22, pipX: 8, pipY: 39 },
  large: { size: 54, wideSize: 50, wideLength: 40, x: 5, wideX: 3, y: 48, squeeze: 0.86, pip: 32, pipX: 6, pipY: 56 },
  minimal: { size: 60, wideSize: 56, wideLength: 42, x: 5, wideX: 3, y: 54, squeeze: 0.84, pip: 40, pipX: 5, pipY: 63 },
};

function cornerIndex(label, suit, style, rotate) {
  const i = INDEX[style];
  const g = svgEl("g", rotate ? { transform: "rotate(180 50 70)" } : {});
  const wide = label.length > 1;
  const place = svgEl("g", { transform: `translate(${wide ? i.wideX : i.x} ${i.y}) scale(${i.squeeze} 1)` });
  const attrs = { x: 0, y: 0, class: "card__rank", "font-size": wide ? i.wideSize : i.size };
  if (wide) Object.assign(attrs, { textLength: i.wideLength / i.squeeze, lengthAdjust: "spacingAndGlyphs" });
  const text = svgEl("text", attrs);
  text.textContent = label;
  place.append(text);
  g.append(place, pip(suit, i.pipX, i.pipY, i.pip));
  return g;
}

// Every face carries the art of each card style; CSS on html[data-card-style]
// shows one (table.css), so a change of preference needs no re-rendering.
function faceSvg(card) {
  const rank = card[0];
  const suit = card[1];
  const label = RANK_LABELS[rank] ?? rank;
  const svg = svgEl("svg", { viewBox: "0 0 100 140", "aria-hidden": "true", focusable: "false" });
  svg.append(svgEl("rect", { x: 1, y: 1, width: 98, height: 138, rx: 9, class: "card__face" }));
  const classic = svgEl("g", { class: "card__art card__art--classic" });
  classic.append(cornerIndex(label, suit, "classic", false), cornerIndex(label, suit, "classic", true));
  // The centre stays clear of the big corner indices (x < 34 top left, x > 66 bottom right).
  if ("JQK".includes(rank)) {
    classic.append(svgEl("rect", { x: 34, y: 28, width: 32, height: 84, rx: 5, class: "card__frame" }));
    const letter = svgEl("text", { x: 50, y: 76, class: "card__court", "text-anchor": "middle", "font-size": 36 });
    letter.textContent = rank;
    classic.append(letter, pip(suit, 40, 82, 20));
  } else {
    classic.append(pip(suit, 33, 52, 34));
  }
  // Large: jumbo indices in two corners, readable on the visible strip of an overlapped card.
  const large = svgEl("g", { class: "card__art card__art--large" });
  large.append(cornerIndex(label, suit, "large", false), cornerIndex(label, suit, "large", true));
  // Minimal: one big rank over one big suit, nothing else.
  const minimal = svgEl("g", { class: "card__art card__art--minimal" });
  minimal.append(cornerIndex(label, suit, "minimal", false));
  svg.append(classic, large, minimal);
  return svg;
}

/**
 * A card element. options: {tag: "div"|"button"|"li", faceDown, small, className, title}.
 * Face-up cards carry data-card and an accessible name; face-down ones say "card back".
 */
export function renderCard(card, options = {}) {
  const el = document.createElement(options.tag ?? "div");
  el.classList.add("card");
  if (options.small) el.classList.add("card--small");
  if (options.className) el.classList.add(...options.className.split(" ").filter(Boolean));
  if (options.tag === "button") el.type = "button";
  if (options.faceDown || !card) {
    el.classList.add("card--back");
    if (options.label === "") {  // decoration: the pile around it is named
      el.setAttribute("aria-hidden", "true");
      return el;
    }
    if (options.tag !== "button") el.setAttribute("role", "img");
    el.setAttribute("aria-label", options.label ?? gettext("card back"));
    return el;
  }
  el.dataset.card = card;
  el.dataset.suit = card[1];
  if (options.tag !== "button") el.setAttribute("role", "img");
  el.setAttribute("aria-label", options.label ?? cardName(card));
  el.append(faceSvg(card));
  return el;
}

/** A card as players write it: "10♦", "Q♠" (never its code "TD"). */
export function cardShortText(card) { return `${RANK_LABELS[card[0]] ?? card[0]}${SUIT_SYMBOLS[card[1]]}`; }

/** Inline text for a card: "10♦" coloured by suit, with the accessible name. */
export function renderCardText(card) {
  const span = document.createElement("span");
  span.className = "card-text";
  span.dataset.suit = card[1];
  span.setAttribute("aria-label", cardName(card));
  span.textContent = cardShortText(card);
  return span;
}
