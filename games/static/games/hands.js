// Rendering shared by the live table (games/static/games/table/) and the replay
// (replay.js): a group of cards (a meld, or the deadwood) and the sentence of a move.

import { cardListName, renderCard, renderCardText } from "./cards.js";

/** A meld (or with `deadwood`, the deadwood) as a labelled group of cards; `card`
 * renders each one (the table marks the cards laid off). */
export function cardGroup(cards, { deadwood = false, role = "group", card = (c) => renderCard(c) } = {}) {
  const g = document.createElement("div");
  g.className = deadwood ? "meld-group meld-group--deadwood" : "meld-group";
  g.setAttribute("role", role);
  g.setAttribute("aria-label", `${deadwood ? "deadwood" : "meld"}: ${cardListName(cards)}`);
  g.append(...cards.map(card));
  return g;
}

/** What `who` did, as text and card nodes to append: `move` is an event of the
 * table's history or an action of the replay; `drawn` is the card drawn when the
 * viewer may know it; `auto` marks a move the server played when the clock ran out. */
export function moveParts(move, who, { drawn = null, auto = false } = {}) {
  const suffix = auto ? " (clock ran out: played by the server)" : "";
  switch (move.type) {
    case "pass": return [`${who} passed${suffix}`];
    case "draw": {
      const verb = move.source === "discard" ? "took" : "drew";
      const pile = move.source === "discard" ? "the discard pile" : "the stock";
      const shown = move.card ?? drawn;
      return shown
        ? [`${who} ${verb} `, renderCardText(shown), ` from ${pile}${suffix}`]
        : [`${who} ${verb} from ${pile}${suffix}`];
    }
    case "discard": return [`${who} discarded `, move.card ? renderCardText(move.card) : "", suffix];
    case "knock":
      return move.card
        ? [`${who} knocked, discarding `, renderCardText(move.card), ` face down${suffix}`]
        : [`${who} knocked${suffix}`];
    case "gin": return [`${who} went gin${suffix}`];
    case "big_gin": return [`${who} made big gin${suffix}`];
    default: return [`${who}: ${move.type}`];
  }
}
