// @ts-check
// A tournament match's table, once the match is over: its player may be paired again
// at any moment (an arena pairs at once, a Swiss when the round ends), so the table
// opens the tournament's socket (docs/protocol.md, "Tournament socket"), says in the
// result dialog what comes next, with a link to the tournament, and on the player's
// next match_ready takes them to that table as the tournament page does
// (match_ready.js: the tab's title, the "turn" sound, then the table).

import { goToMatch, tournamentSocket } from "/static/tournaments/match_ready.js";
import { config, isPlayer, ui } from "./state.js";
import { gettext } from "../i18n.js";

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
  /** @param {string} text */
  const around = (text) => {
    const [before, after = ""] = text.split("%(tournament)s");
    return [before, name, after];
  };
  if (live.next) return around(gettext("Your next match in %(tournament)s is ready: taking you to the table…"));
  if (live.status === "finished") return around(gettext("%(tournament)s is over: the final standings are on its page."));
  if (live.status === "cancelled") return around(gettext("%(tournament)s was cancelled."));
  if (live.entrant === "paused") return around(gettext("You paused in %(tournament)s: you are not paired again until you resume on its page."));
  if (live.entrant !== "active") return around(gettext("You no longer play in %(tournament)s."));
  return around(tournament.format === "arena"
    ? gettext("%(tournament)s goes on: you are paired again as soon as an opponent is free, and your next match opens here by itself.")
    : gettext("%(tournament)s goes on: the next round is paired when every match of this round is over, and your next match opens here by itself."));
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
