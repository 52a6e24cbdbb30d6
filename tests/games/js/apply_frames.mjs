// Reads {"sequences": [{"audience", "initial", "steps": [{"frame", "expected"}]}]} on
// standard input; applies every frame with games/static/games/events.js and prints
// {"checked": n, "mismatches": [...]} comparing each result with the server's state.
import { readFileSync } from "node:fs";
import { applyFrame } from "../../../games/static/games/events.js";

const canonical = (value) => JSON.stringify(value, (key, v) =>
  v && typeof v === "object" && !Array.isArray(v)
    ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]]))
    : v);

const input = JSON.parse(readFileSync(0, "utf8"));
let checked = 0;
const mismatches = [];
for (const sequence of input.sequences) {
  let msg = sequence.initial;
  for (const [index, { frame, expected }] of sequence.steps.entries()) {
    const next = frame.type === "state" ? frame : applyFrame(msg, frame);
    checked += 1;
    const got = next && { version: next.version, current_seat: next.match.current_seat, view: next.view };
    const want = { version: expected.version, current_seat: expected.match.current_seat, view: expected.view };
    if (canonical(got) !== canonical(want)) {
      if (mismatches.length < 3) mismatches.push({ audience: sequence.audience, step: index, frame, got, want });
    }
    msg = next ?? expected;
  }
}
process.stdout.write(JSON.stringify({ checked, mismatches }));
