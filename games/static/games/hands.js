// Rendering shared by the live table (games/static/games/table/) and the replay
// (replay.js), and with the offline table (offline/app.js): a group of cards (a meld,
// or the deadwood), the player's own hand in the order they chose (the table
// settings: <html data-hand-sort>), the hands of a finished hand, and the sentence of
// a move.

import {
  cardListName, cardName, renderCard, renderCardText, sortByRank, sortBySuit, sortMeld,
} from "./cards.js";

import { format, gettext } from "./i18n.js";

/** A sentence with one card in it: `text` (translated) around "%(card)s", with the
 * card's node in its place. */
function withCard(text, node, values = {}) {
  const [before, after = ""] = format(text, values).split("%(card)s");
  return [before, node, after];
}

/** How the player sorts their hand (the table settings): "melds", "rank" or "suit". */
export function handSort() {
  const sort = document.documentElement.dataset.handSort;
  return sort === "rank" || sort === "suit" ? sort : "melds";
}

/** Whether a discard waits for a second press of the card (the table settings). */
export function confirmsDiscard() {
  return document.documentElement.dataset.confirmDiscard === "on";
}

/** The card a first press chose, when a discard waits for a second one: raised (CSS:
 * [data-confirm]) and named so. */
export function markConfirming(el, chosen) {
  if (!chosen) return el;
  el.dataset.confirm = "true";
  const name = el.querySelector("[data-card-name]");
  if (name) name.textContent += gettext(": press again to discard it");
  return el;
}

/** `cards` in the order `sort` ("rank" or "suit"; "melds" keeps them as given). */
export function sortedCards(cards, sort = handSort()) {
  if (sort === "rank") return sortByRank(cards);
  if (sort === "suit") return sortBySuit(cards);
  return cards;
}

/** A meld (or with `deadwood`, the deadwood) as a labelled group of cards; `card`
 * renders each one (the table marks the cards laid off). */
export function cardGroup(cards, { deadwood = false, role = "group", card = (c) => renderCard(c) } = {}) {
  const g = document.createElement("div");
  g.className = deadwood ? "meld-group meld-group--deadwood" : "meld-group";
  g.setAttribute("role", role);
  g.setAttribute("aria-label", format(deadwood ? gettext("deadwood: %(cards)s") : gettext("meld: %(cards)s"), { cards: cardListName(cards) }));
  g.append(...cards.map(card));
  return g;
}

/** What `who` did, as text and card nodes to append: `move` is an event of the
 * table's history or an action of the replay; `drawn` is the card drawn when the
 * viewer may know it; `auto` marks a move the server played when the clock ran out. */
export function moveParts(move, who, { drawn = null, auto = false } = {}) {
  const suffix = auto ? gettext(" (clock ran out: played by the server)") : "";
  const mine = who === gettext("You");
  const values = { name: who };
  switch (move.type) {
    case "pass": return [format(mine ? gettext("You passed") : gettext("%(name)s passed"), values) + suffix];
    case "draw": {
      const shown = move.card ?? drawn;
      const fromDiscard = move.source === "discard";
      if (shown) {
        const text = fromDiscard
          ? (mine ? gettext("You took %(card)s from the discard pile") : gettext("%(name)s took %(card)s from the discard pile"))
          : (mine ? gettext("You drew %(card)s from the stock") : gettext("%(name)s drew %(card)s from the stock"));
        return [...withCard(text, renderCardText(shown), values), suffix];
      }
      const text = fromDiscard
        ? (mine ? gettext("You took from the discard pile") : gettext("%(name)s took from the discard pile"))
        : (mine ? gettext("You drew from the stock") : gettext("%(name)s drew from the stock"));
      return [format(text, values) + suffix];
    }
    case "discard":
      return [...withCard(mine ? gettext("You discarded %(card)s") : gettext("%(name)s discarded %(card)s"), move.card ? renderCardText(move.card) : "", values), suffix];
    case "knock":
      return move.card
        ? [...withCard(mine ? gettext("You knocked, discarding %(card)s face down") : gettext("%(name)s knocked, discarding %(card)s face down"), renderCardText(move.card), values), suffix]
        : [format(mine ? gettext("You knocked") : gettext("%(name)s knocked"), values) + suffix];
    case "gin": return [format(mine ? gettext("You went gin") : gettext("%(name)s went gin"), values) + suffix];
    case "big_gin": return [format(mine ? gettext("You made big gin") : gettext("%(name)s made big gin"), values) + suffix];
    default: return [`${who}: ${move.type}`];
  }
}

/** The two hands of a finished hand in the result dialog, in `order` (seats), each
 * named by `name(seat)`: melds (with the cards laid off on the knocker's), deadwood,
 * the knock card, and a legend of the lay-offs. */
export function renderResultHands(result, container, { order, name }) {
  container.replaceChildren();
  const laid = new Set(result.layoffs || []);
  for (const seat of order) {
    const box = document.createElement("section");
    box.className = "showdown__seat";
    // Cards the defender laid off are shown on the knocker's meld they joined.
    const melds = (result.melds?.[seat] || []).map((m, i) => (
      seat === result.knocker ? sortMeld([...m, ...(result.layoffs_onto?.[i] || [])]) : sortMeld(m)
    ));
    const dead = sortByRank(result.deadwood_cards?.[seat] || []);
    const h = document.createElement("h3");
    const label = document.createElement("span");
    const role = result.knocker === seat
      ? { gin: gettext(" · gin"), big_gin: gettext(" · big gin") }[result.kind] ?? gettext(" · knocked")
      : "";
    label.textContent = `${name(seat)}${role}`;
    const dwLabel = document.createElement("span");
    dwLabel.textContent = format(gettext("deadwood %(points)s"), { points: result.deadwood?.[seat] ?? "?" });
    h.append(label, dwLabel);
    const cards = document.createElement("div");
    cards.className = "showdown__cards";
    cards.setAttribute("role", "list");
    cards.setAttribute("aria-label", format(gettext("%(name)s: melds and deadwood"), { name: name(seat) }));
    const card = (c) => {
      const laidOff = laid.has(c) && seat === result.knocker;
      return renderCard(c, {
        className: laidOff ? "card--layoff" : "",
        label: laidOff ? format(gettext("%(card)s, laid off"), { card: cardName(c) }) : undefined,
      });
    };
    for (const meld of melds) cards.append(cardGroup(meld, { role: "listitem", card }));
    if (dead.length) cards.append(cardGroup(dead, { deadwood: true, role: "listitem" }));
    box.append(h, cards);
    if (result.knocker === seat && result.knock_card) {
      const note = document.createElement("p");
      note.className = "legend";
      note.append(...withCard(gettext("Discarded face down: %(card)s"), renderCardText(result.knock_card)));
      box.append(note);
    }
    container.append(box);
  }
  if (laid.size) {
    const legend = document.createElement("p");
    legend.className = "legend";
    const swatch = document.createElement("span");
    swatch.className = "swatch swatch--layoff";
    legend.append(swatch, format(gettext("Laid off onto the knocker's melds: %(cards)s."), { cards: cardListName([...laid]) }));
    container.append(legend);
  }
}

/** A card of the player's own hand, as a button named by what it would do now:
 * on their discard turn it can be discarded (deadwood left after: `after`) or, in
 * knock mode, knocked with (`knocks`: card -> deadwood), unless it was just taken from
 * the discard pile; otherwise it is inert but focusable, so the hand reads card by card.
 * The name is the text of the button (visually hidden, `data-card-name`), not an
 * aria-label: the corner indices drawn on the card are a picture, not its label. */
export function handCard(c, { discardTurn, takenFromDiscard, knocks, after, canDiscard, fresh = false }) {
  const locked = takenFromDiscard === c && discardTurn;
  const el = renderCard(c, { tag: "button" });
  el.dataset.drag = discardTurn && !locked ? "card" : "";
  if (fresh) el.classList.add("card--new");
  if (locked) el.classList.add("card--locked");
  let label = cardName(c);
  if (discardTurn) {
    if (knocks) {
      el.dataset.knock = String(knocks.has(c));
      el.disabled = !knocks.has(c);
      label += knocks.has(c) ? format(gettext(": knock with it, deadwood %(points)s"), { points: knocks.get(c) }) : gettext(": cannot knock with it");
    } else if (locked) {
      el.disabled = true;
      label += gettext(": just taken from the discard pile, cannot be discarded this turn");
    } else {
      el.disabled = !canDiscard(c);
      label += format(gettext(": discard (deadwood after: %(points)s)"), { points: after.get(c) });
      el.title = format(gettext("Discard %(card)s — deadwood left: %(points)s"), { card: cardName(c), points: after.get(c) });
    }
  } else {
    el.setAttribute("aria-disabled", "true");
    el.dataset.inert = "true";
  }
  el.removeAttribute("aria-label");
  const name = document.createElement("span");
  name.className = "visually-hidden";
  name.dataset.cardName = "";
  name.textContent = label;
  el.append(name);
  return el;
}

/** The player's hand into `box`, as they sort it: its melds (each tagged "set" or
 * "run") then the deadwood; or, sorted by rank or by suit, one row in which the cards
 * of a meld are marked (and named so). `groups`: [{kind, cards}]; `card(c)` makes
 * the element of a card. */
export function layOutHand(box, groups, dead, card) {
  const sort = handSort();
  if (sort === "melds") {
    for (const g of groups) box.append(taggedGroup(g.kind, g.cards, card));
    if (dead.length) box.append(taggedGroup("deadwood", dead, card));
    return;
  }
  const melded = new Set(groups.flatMap((g) => g.cards));
  const row = document.createElement("div");
  row.className = "meld-group meld-group--deadwood meld-group--sorted";
  row.setAttribute("role", "group");
  row.setAttribute("aria-label", sort === "rank" ? gettext("your hand, by rank") : gettext("your hand, by suit"));
  for (const c of sortedCards([...melded, ...dead], sort)) {
    const el = card(c);
    if (melded.has(c)) {
      el.classList.add("card--melded");
      const name = el.querySelector("[data-card-name]");
      if (name) name.textContent += gettext(" (in a meld)");
      else el.setAttribute("aria-label", `${el.getAttribute("aria-label")}${gettext(" (in a meld)")}`);
    }
    row.append(el);
  }
  box.append(row);
}

/** A group of the player's own hand (a set, a run, or the deadwood) with its tag. */
export function taggedGroup(kind, cards, card) {
  const wrap = document.createElement("div");
  wrap.className = kind === "deadwood" ? "meld-group meld-group--deadwood" : "meld-group";
  wrap.setAttribute("role", "group");
  const kindName = { set: gettext("set"), run: gettext("run"), deadwood: gettext("deadwood") }[kind] ?? kind;
  wrap.setAttribute("aria-label", format(gettext("%(kind)s: %(cards)s"), { kind: kindName, cards: cardListName(cards) }));
  const tag = document.createElement("span");
  tag.className = "meld-group__tag";
  tag.textContent = kindName;
  tag.setAttribute("aria-hidden", "true");
  wrap.append(tag, ...cards.map(card));
  return wrap;
}
