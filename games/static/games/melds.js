// Best melds of a few cards, for hints on the table ("discarding this leaves 4").
// The server is the authority on what is legal; this only helps the player see.

import { cardValue, rankIndex } from "./cards.js";

function combinations(items, k) {
  const out = [];
  const pick = (start, acc) => {
    if (acc.length === k) { out.push([...acc]); return; }
    for (let i = start; i < items.length; i++) { acc.push(items[i]); pick(i + 1, acc); acc.pop(); }
  };
  pick(0, []);
  return out;
}

/** Every set (3 or 4 of a rank) and run (3+ consecutive of a suit, aces low). */
export function allMelds(cards) {
  const melds = [];
  const byRank = new Map();
  const bySuit = new Map();
  for (const c of cards) {
    byRank.set(c[0], [...(byRank.get(c[0]) ?? []), c]);
    bySuit.set(c[1], [...(bySuit.get(c[1]) ?? []), c]);
  }
  for (const group of byRank.values()) {
    if (group.length >= 3) melds.push(...combinations(group, 3));
    if (group.length === 4) melds.push(group);
  }
  for (const group of bySuit.values()) {
    const sorted = [...group].sort((a, b) => rankIndex(a) - rankIndex(b));
    for (let i = 0; i < sorted.length; i++) {
      let j = i;
      while (j + 1 < sorted.length && rankIndex(sorted[j + 1]) === rankIndex(sorted[j]) + 1) {
        j += 1;
        if (j - i >= 2) melds.push(sorted.slice(i, j + 1));
      }
    }
  }
  return melds;
}

/** {melds, deadwood (cards), points}: the arrangement with the lowest deadwood. */
export function bestMelds(cards) {
  const index = new Map(cards.map((c, i) => [c, i]));
  const candidates = allMelds(cards).map((m) => ({
    cards: m,
    mask: m.reduce((acc, c) => acc | (1 << index.get(c)), 0),
    value: m.reduce((acc, c) => acc + cardValue(c), 0),
  }));
  let best = { value: 0, chosen: [] };
  const search = (start, used, value, chosen) => {
    if (value > best.value) best = { value, chosen: [...chosen] };
    for (let i = start; i < candidates.length; i++) {
      const m = candidates[i];
      if (m.mask & used) continue;
      chosen.push(m);
      search(i + 1, used | m.mask, value + m.value, chosen);
      chosen.pop();
    }
  };
  search(0, 0, 0, []);
  const melded = new Set(best.chosen.flatMap((m) => m.cards));
  const deadwood = cards.filter((c) => !melded.has(c));
  return {
    melds: best.chosen.map((m) => m.cards),
    deadwood,
    points: deadwood.reduce((acc, c) => acc + cardValue(c), 0),
  };
}

/** For an 11-card hand: the deadwood left by discarding each card. */
export function deadwoodAfterDiscard(hand) {
  const out = new Map();
  for (const c of hand) out.set(c, bestMelds(hand.filter((x) => x !== c)).points);
  return out;
}
