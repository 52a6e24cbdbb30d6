// The browser's computer players against each other (games/static/games/offline):
// seat-swapped matches of one level against another, to 100 with the default bonuses
// and no clock, as bench/botarena.py does for games.bots. Run with Node.js:
//
//     node bench/offline_bots.mjs --a medium --b easy --matches 400 --seed 1
//
// Each pair of matches plays the same deals with the seats exchanged. Prints the match
// win rate of --a with Wilson's 95% interval, points per hand, and decision times.

import { apply, deal, nextDealer, playerView, rulesFor, scoreMatch } from "../games/static/games/offline/engine.js";
import { chooseAction } from "../games/static/games/offline/bots.js";
import { PyRandom } from "../games/static/games/offline/random.js";
import { sha256 } from "../games/static/games/offline/sha256.js";

const args = Object.fromEntries(process.argv.slice(2).join(" ").split("--").filter(Boolean).map((p) => p.trim().split(/\s+/)));
const A = args.a ?? "medium";
const B = args.b ?? "easy";
const MATCHES = Number(args.matches ?? 400);
const SEED = Number(args.seed ?? 1);
const rules = rulesFor("time_freedom");
const encoder = new TextEncoder();

const times = { [A]: [], [B]: [] };
let won = 0;
const points = { [A]: 0, [B]: 0 };
let hands = 0;
for (let m = 0; m < MATCHES; m++) {
  const pair = Math.floor(m / 2);
  const levels = m % 2 === 0 ? [A, B] : [B, A];
  const rng = new PyRandom(SEED * 1_000_003 + m);
  let dealer = pair % 2;
  const results = [];
  for (let h = 0; ; h++) {
    let state = deal(rules, dealer, sha256(encoder.encode(`offline bench ${SEED} ${pair} ${h}`)));
    while (state.phase !== "over") {
      const seat = state.current_player;
      const view = playerView(state, seat);
      const start = performance.now();
      const action = chooseAction(levels[seat], view, view.legal_actions, rng);
      times[levels[seat]].push(performance.now() - start);
      state = apply(state, action, seat).state;
    }
    results.push(state.result);
    hands++;
    if (state.result.winner !== null) points[levels[state.result.winner]] += state.result.points;
    const score = scoreMatch(rules, results);
    if (score.over) { if (levels[score.winner] === A) won++; break; }
    dealer = nextDealer(dealer, state.result);
  }
}
const p = won / MATCHES;
const z = 1.96;
const centre = (p + (z * z) / (2 * MATCHES)) / (1 + (z * z) / MATCHES);
const half = (z * Math.sqrt((p * (1 - p)) / MATCHES + (z * z) / (4 * MATCHES * MATCHES))) / (1 + (z * z) / MATCHES);
const pct = (x) => `${(100 * x).toFixed(1)}%`;
const at = (list, q) => { const s = [...list].sort((x, y) => x - y); return s[Math.min(s.length - 1, Math.floor(q * s.length))].toFixed(2); };
console.log(`${A} vs ${B}: ${MATCHES} matches, ${hands} hands, seed ${SEED}`);
console.log(`${A} won ${won} = ${pct(p)} [95% CI ${pct(centre - half)}, ${pct(centre + half)}]`);
console.log(`points/hand: ${A} ${(points[A] / hands).toFixed(2)}, ${B} ${(points[B] / hands).toFixed(2)}, net ${((points[A] - points[B]) / hands).toFixed(2)}`);
for (const level of [A, B]) console.log(`decision ms (${level}): p50 ${at(times[level], 0.5)} p95 ${at(times[level], 0.95)} p99 ${at(times[level], 0.99)} max ${at(times[level], 1)}`);
