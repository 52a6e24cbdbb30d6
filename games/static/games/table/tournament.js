// @ts-check
// A tournament match's table, once the match is over: its player may be paired again
// at any moment (an arena pairs at once, a Swiss when the round ends), so the table
// opens the tournament's socket (docs/protocol.md, "Tournament socket"), says in the
// result dialog what comes next, with a link to the tournament, and on the player's
// next match_ready takes them to that table as the tournament page does
// (match_ready.js: the tab's title, the "turn" sound, then the table).

import { goToMatch, tournamentSocket } from "/static/tournaments/match_ready.js";
import { config, isPlayer, ui } from "./state.js";

const tournament = config.tournament;  // null but for a player of a tournament match
/** @type {{status: string | undefined, entrant: string, next: string | null}} */
const live = { status: tournament?.status, entrant: "active", next: null };
let following = false;

/** Once the match is over, follow the tournament (once per page). */
export function followTournament() {
  if (!tournament || following || !isPlayer() || ui.msg?.match.status !== "finished") return;
  following = true;
  tournamentSocket(tournament.wsPath, {
    /** @param {import("../wire.js").TournamentSocketFrame} message */
    message(message) {
      if (message.type === "standings") {
        live.status = message.status;
        const row = message.rows.find((r) => r.player === tournament.player);
        if (row) live.entrant = row.status;
      } else if (message.type === "match_ready" && message.match_id !== config.matchId) {
        live.next = message.url;
        goToMatch(message.url);
      } else {
        return;
      }
      renderTournamentNext();
    },
  });
}

/**
 * What comes next, as words around the tournament's name (a link to its page).
 * @param {import("./state.js").TournamentConfig} tournament
 */
function sentence(tournament) {
  const name = tournament.name;
  if (live.next) return ["Your next match in ", name, " is ready: taking you to the table…"];
  if (live.status === "finished") return ["", name, " is over: the final standings are on its page."];
  if (live.status === "cancelled") return ["", name, " was cancelled."];
  if (live.entrant === "paused") return ["You paused in ", name, ": you are not paired again until you resume on its page."];
  if (live.entrant !== "active") return ["You no longer play in ", name, "."];
  const when = tournament.format === "arena"
    ? "you are paired again as soon as an opponent is free"
    : "the next round is paired when every match of this round is over";
  return ["", name, ` goes on: ${when}, and your next match opens here by itself.`];
}

/** The result dialog's line about the tournament (shown once the match is over). */
export function renderTournamentNext() {
  const line = /** @type {HTMLElement} */ (document.querySelector("#showdown [data-tournament-next]"));
  const over = ui.msg?.match.status === "finished";
  line.hidden = !tournament || !over || !isPlayer();
  if (!tournament || line.hidden) return;
  const [before, name, after] = sentence(tournament);
  const link = document.createElement("a");
  link.href = tournament.url;
  link.textContent = name;
  line.replaceChildren(before, link, after);
}
