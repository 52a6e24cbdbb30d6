// The JavaScript side of tests/offline/test_crosscheck.py, using the browser's own
// modules (games/static/games/offline) unchanged. Reads jobs from stdin, one JSON
// object a line, while the Python side is still producing them, and writes one JSON
// line per hand, decision or deal to the file named by its argument. The Python side
// runs the same driver on games.engine and games.bots and compares line by line.
//
// Jobs: {"match": {rules, first_dealer, seeds: [hex], rng_seed, policy}, "number": n},
//       {"decision": {level, view, legal, rng_seed}, "number": n}, {"deal": hex, "number": n}

import { closeSync, openSync, writeSync } from "node:fs";
import { createInterface } from "node:readline";
import {
  apply, deal, legalActions, nextDealer, playerView, scoreMatch, shuffledDeck,
} from "../../games/static/games/offline/engine.js";
import { chooseAction } from "../../games/static/games/offline/bots.js";
import { PyRandom } from "../../games/static/games/offline/random.js";
import { fromHex } from "../../games/static/games/offline/sha256.js";

const file = openSync(process.argv[2], "w");
const out = [];
const emit = (obj) => { out.push(JSON.stringify(obj)); if (out.length >= 200) flush(); };
function flush() { if (out.length) { writeSync(file, `${out.join("\n")}\n`); out.length = 0; } }

const code = (a) => (a.type === "draw" ? `${a.type}:${a.source}` : a.card ? `${a.type}:${a.card}` : a.type);

/** The same picking rule as test_crosscheck.py's random_action. */
function randomAction(rng, legal, deadwoodCards) {
  const enders = legal.filter((a) => a.type === "knock" || a.type === "big_gin");
  if (enders.length && rng.randrange(4) !== 0) return enders[rng.randrange(enders.length)];
  const dead = legal.filter((a) => a.type === "discard" && deadwoodCards.includes(a.card));
  if (dead.length && rng.randrange(4) !== 0) return dead[dead.length - 1];
  const stock = legal.filter((a) => a.type === "draw" && a.source === "stock");
  if (stock.length && rng.randrange(4) !== 0) return stock[0];
  return legal[rng.randrange(legal.length)];
}

function playMatch(spec, m) {
  const rng = new PyRandom(spec.rng_seed);
  let dealer = spec.first_dealer;
  const results = [];
  for (const [h, hex] of spec.seeds.entries()) {
    let state = deal(spec.rules, dealer, fromHex(hex));
    const steps = [];
    while (state.phase !== "over") {
      const seat = state.current_player;
      const view = playerView(state, seat);
      const legal = legalActions(state);
      steps.push([seat, state.phase, legal.map(code).join(" "), view.deadwood, view.melds.map((x) => x.join(" ")).join("|")]);
      const action = spec.policy === "random"
        ? randomAction(rng, legal, view.deadwood_cards)
        : chooseAction(spec.policy, view, legal, rng);
      state = apply(state, action, seat).state;
    }
    results.push(state.result);
    const score = scoreMatch(spec.rules, results);
    emit({ match: m, hand: h, steps, result: state.result, score });
    if (score.over) break;
    dealer = nextDealer(dealer, state.result);
  }
}

for await (const line of createInterface({ input: process.stdin })) {
  if (!line) continue;
  const job = JSON.parse(line);
  if (job.match) playMatch(job.match, job.number);
  else if (job.decision) {
    const d = job.decision;
    emit({ decision: job.number, action: chooseAction(d.level, d.view, d.legal, new PyRandom(d.rng_seed)) });
  } else emit({ deal: job.number, deck: shuffledDeck(fromHex(job.deal)) });
}
flush();
closeSync(file);
