// @ts-check
// The result dialog: the hands of a finished hand and why it scored what it did, the
// match's end and its totals, the deal's verification.

import { renderResultHands } from "../hands.js";
import { renderReviewLine } from "../review.js";
import { format, gettext, ngettext } from "../i18n.js";
import { verify } from "./fairness.js";
import { config, find, held, isPlayer, me, opp, seatInfo, seatName, showdownDialog, ui, you } from "./state.js";
import { renderTournamentNext } from "./tournament.js";

/** @typedef {import("../wire.js").HandResult} HandResult */
/** @typedef {import("../wire.js").MatchTable} MatchTable */

// --------------------------------------------------------------------------
// Showdown and match end
// --------------------------------------------------------------------------
export const rematchUrl = () => config.matchUrlTemplate.replace("__ID__", String(held().match.rematch.match_id));

export const dismissedKey = `gin-dismissed:${config.matchId}`;
export const dismissed = () => Number(sessionStorage.getItem(dismissedKey) || 0);

/** @param {boolean} firstState */
export function handleFinishedHands(firstState) {
  const hands = held().match.hands || [];
  for (const h of hands) if (h.seed) verify(h);
  const count = hands.length;
  const last = hands[count - 1];
  const over = held().match.status === "finished";
  if (firstState) {
    ui.handsSeen = count;
    const freshDeal = (held().view?.history || []).length === 0;
    if ((last && last.number > dismissed() && (freshDeal || over)) || (over && !last)) openShowdown(last?.number ?? null);
    return;
  }
  if (count > (ui.handsSeen ?? 0) || (over && ui.showdownFor === null && !showdownDialog().open)) {
    ui.handsSeen = count;
    openShowdown(last?.number ?? null);
  }
}

/** @param {number | null} number the finished hand to show (null: the match's end) */
export function openShowdown(number) {
  ui.showdownFor = number;
  const dialog = showdownDialog();
  renderShowdown();
  // Only a hand played to its end has an analysis (not one a resignation or an
  // abandonment ended: its result is null): none is asked for the others.
  const played = (held().match.hands || []).find((h) => h.number === number)?.result;
  renderReviewLine(find(dialog, "[data-showdown-review]"), { matchId: config.matchId, number: played ? number : null, seat: you(), names: [0, 1].map((s) => seatName(s, { capital: true })) });
  if (!dialog.open) dialog.showModal();
}

export function closeShowdown() {
  const dialog = showdownDialog();
  if (ui.showdownFor) sessionStorage.setItem(dismissedKey, String(ui.showdownFor));
  if (dialog.open) dialog.close();
}

/** @param {HandResult} result */
export function resultHeadline(result) {
  const w = result.winner;
  const mine = isPlayer() && w === you();
  const who = w === null || w === undefined ? "" : seatName(w, { capital: true });
  const pts = result.points;
  switch (result.kind) {
    case "gin": return mine ? format(ngettext("Gin! You score %(n)s point", "Gin! You score %(n)s points", pts), { n: pts })
      : format(ngettext("%(name)s went gin: %(n)s point", "%(name)s went gin: %(n)s points", pts), { name: who, n: pts });
    case "big_gin": return mine ? format(ngettext("Big gin! You score %(n)s point", "Big gin! You score %(n)s points", pts), { n: pts })
      : format(ngettext("%(name)s made big gin: %(n)s point", "%(name)s made big gin: %(n)s points", pts), { name: who, n: pts });
    case "undercut": return mine ? format(ngettext("Undercut! You score %(n)s point", "Undercut! You score %(n)s points", pts), { n: pts })
      : format(ngettext("Undercut! %(name)s scores %(n)s point", "Undercut! %(name)s scores %(n)s points", pts), { name: who, n: pts });
    case "knock": return mine ? format(ngettext("You win the hand: %(n)s point", "You win the hand: %(n)s points", pts), { n: pts })
      : format(ngettext("%(name)s wins the hand: %(n)s point", "%(name)s wins the hand: %(n)s points", pts), { name: who, n: pts });
    case "draw": return gettext("Draw: nobody scores");
    default: return gettext("Hand over");
  }
}

/** @param {HandResult} result @param {import("../wire.js").Rules} rules */
export function resultWhy(result, rules) {
  // Every kind of hand but a draw and big gin has a knocker (k) and a defender (d).
  const k = /** @type {number} */ (result.knocker);
  const dw = result.deadwood || [0, 0];
  const d = /** @type {number} */ (k === 0 || k === 1 ? 1 - k : null);
  /** @param {number} s */
  const name = (s) => seatName(s);
  const winner = /** @type {number} */ (result.winner);
  const straight = rules?.straight;
  switch (result.kind) {
    case "gin":
      return straight
        ? format(gettext("%(knocker)s melded all ten cards; %(defender)s had %(deadwood)s deadwood (Straight Gin: no gin bonus)."), { knocker: seatName(k, { capital: true }), defender: name(d), deadwood: dw[d] })
        : format(gettext("%(knocker)s melded all ten cards: %(defender)s's deadwood %(deadwood)s plus the gin bonus %(bonus)s. No lay-offs after gin."), { knocker: seatName(k, { capital: true }), defender: name(d), deadwood: dw[d], bonus: rules?.gin_bonus ?? 25 });
    case "big_gin":
      return straight
        ? format(gettext("%(winner)s melded all eleven cards; the opponent had %(deadwood)s deadwood."), { winner: seatName(winner, { capital: true }), deadwood: dw[1 - winner] })
        : format(gettext("%(winner)s melded all eleven cards: the opponent's deadwood %(deadwood)s plus the big gin bonus %(bonus)s."), { winner: seatName(winner, { capital: true }), deadwood: dw[1 - winner], bonus: rules?.big_gin_bonus ?? 31 });
    case "knock":
      return format(gettext("%(knocker)s knocked with %(kd)s deadwood; %(defender)s had %(dd)s after laying off. The knocker scores the difference: %(points)s."), { knocker: seatName(k, { capital: true }), kd: dw[k], defender: name(d), dd: dw[d], points: result.points });
    case "undercut":
      return format(gettext("%(knocker)s knocked with %(kd)s deadwood but %(defender)s had only %(dd)s after laying off: undercut! The difference plus the undercut bonus %(bonus)s = %(points)s."), { knocker: seatName(k, { capital: true }), kd: dw[k], defender: name(d), dd: dw[d], bonus: rules?.undercut_bonus ?? 25, points: result.points });
    case "draw":
      return gettext("The stock ran down to two cards without a knock: the hand is a draw. The same dealer deals again.");
    default:
      return "";
  }
}


export function renderShowdown() {
  const dialog = showdownDialog();
  const m = held().match;
  const hand = (m.hands || []).find((h) => h.number === ui.showdownFor);
  const body = find(dialog, "[data-showdown-body]");
  const headline = find(dialog, "[data-showdown-headline]");
  const why = find(dialog, "[data-showdown-why]");
  const handsBox = find(dialog, "[data-showdown-hands]");
  const scores = find(dialog, "[data-showdown-scores]");
  const end = find(dialog, "[data-match-over]");
  const over = m.status === "finished";
  if (hand?.result) {
    headline.textContent = resultHeadline(hand.result);
    why.textContent = format(gettext("Hand %(number)s. %(why)s"), { number: hand.number, why: resultWhy(hand.result, m.rules) });
    renderResultHands(hand.result, handsBox, {
      order: isPlayer() ? [opp(), you()] : [1, 0],
      name: (/** @type {number} */ seat) => seatName(seat, { capital: true }),
    });
  } else {
    headline.textContent = over ? (m.aborted ? gettext("Match aborted") : gettext("Match over")) : gettext("Hand over");
    why.textContent = m.end_reason === "resign" ? gettext("The match ended by resignation.") : m.end_reason === "abandon" ? gettext("The match ended by abandonment.") : m.end_reason === "suspended" ? suspendedText(m) : "";
    handsBox.replaceChildren();
  }
  scores.replaceChildren();
  for (const seat of isPlayer() ? [me(), opp()] : [0, 1]) {
    const name = document.createElement("span");
    name.textContent = seatName(seat, { capital: true });
    const delta = document.createElement("span");
    delta.className = "num";
    delta.textContent = hand?.result && hand.result.winner === seat ? `+${hand.result.points}` : "";
    const total = document.createElement("span");
    total.className = "num";
    total.textContent = String(seatInfo(seat).score ?? 0);
    scores.append(name, delta, total);
  }
  end.hidden = !over;
  if (over) renderMatchOver(end);
  renderTournamentNext();
  renderShowdownVerification();
  find(dialog, "[data-next-hand]").hidden = over;
  // No rematch with a player whose account was suspended, nor in a tournament (whose
  // next pairing would find the player at the rematch's table).
  find(dialog, "[data-rematch]").hidden = !over || !isPlayer() || m.end_reason === "suspended" || Boolean(config.tournament);
  const offered = m.rematch?.offered_by;
  const rematchBtn = /** @type {HTMLButtonElement} */ (find(dialog, "[data-rematch]"));
  if (m.rematch?.match_id) { rematchBtn.textContent = gettext("Go to the rematch"); rematchBtn.disabled = false; }
  else if (offered === you()) { rematchBtn.textContent = gettext("Rematch offered…"); rematchBtn.disabled = true; }
  else if (offered !== null && offered !== undefined) { rematchBtn.textContent = gettext("Accept rematch"); rematchBtn.disabled = false; }
  else { rematchBtn.textContent = gettext("Rematch"); rematchBtn.disabled = false; }
  body.scrollTop = 0;
}

/** Why a match that ended early counts nowhere (games/services/play.py ABORT_BEFORE_MOVES). */
const abortedText = () => gettext("Aborted: it ended before each player had made two moves, so it is not rated and counts on no leaderboard.");

/** A forfeit because a moderator suspended the loser's account (not a resignation). */
/** @param {MatchTable} m */
export function suspendedText(m) {
  const winner = m.winner ?? m.final?.winner;
  if (winner !== 0 && winner !== 1) return gettext("Forfeit: an account was suspended by a moderator.");
  const loser = 1 - winner;
  return isPlayer() && loser === you() ? gettext("Forfeit: your account was suspended by a moderator.")
    : format(gettext("Forfeit: %(name)s's account was suspended by a moderator."), { name: seatName(loser) });
}

/** @param {HTMLElement} box */
export function renderMatchOver(box) {
  const m = held().match;
  /** @type {Partial<import("../wire.js").MatchScore>} */
  const f = m.final || {};
  const title = find(box, "h3");
  const winner = m.winner ?? f.winner;
  if (winner === null || winner === undefined) title.textContent = gettext("Match over");
  else if (isPlayer() && winner === you()) title.textContent = gettext("🏆 You win the match!");
  else title.textContent = format(gettext("%(name)s wins the match"), { name: seatName(winner, { capital: true }) });
  const reason = find(box, "[data-end-reason]");
  /** @type {Record<string, string>} */
  const reasons = {
    target: format(ngettext("First to %(n)s point.", "First to %(n)s points.", m.rules?.target_score ?? 0), { n: m.rules?.target_score ?? 0 }),
    resign: gettext("Ended by resignation."),
    abandon: gettext("Ended by abandonment."),
    suspended: suspendedText(m),
  };
  reason.textContent = reasons[String(m.end_reason)] || "";
  if (m.aborted) reason.textContent += ` ${abortedText()}`;
  const table = find(box, "tbody");
  table.replaceChildren();
  const seats = isPlayer() ? [me(), opp()] : [0, 1];
  find(box, "[data-col-a]").textContent = seatName(seats[0], { capital: true });
  find(box, "[data-col-b]").textContent = seatName(seats[1], { capital: true });
  /** @type {[string, (s: number) => number | undefined][]} */
  const rows = [
    [gettext("Hand points"), (s) => f.hand_points?.[s]],
    [gettext("Game bonus"), (s) => f.bonuses?.[s]?.game],
    [gettext("Line bonus"), (s) => f.bonuses?.[s]?.line],
    [gettext("Shutout"), (s) => f.bonuses?.[s]?.shutout],
  ];
  for (const [label, get] of rows) {
    const tr = document.createElement("tr");
    const th = document.createElement("th");
    th.textContent = label;
    tr.append(th);
    for (const s of seats) {
      const td = document.createElement("td");
      td.className = "num";
      td.textContent = String(get(s) ?? 0);
      tr.append(td);
    }
    table.append(tr);
  }
  const tfoot = find(box, "tfoot tr");
  tfoot.children[1].textContent = String(f.totals?.[seats[0]] ?? seatInfo(seats[0]).score ?? 0);
  tfoot.children[2].textContent = String(f.totals?.[seats[1]] ?? seatInfo(seats[1]).score ?? 0);
}

/** @param {import("./state.js").Verification | "pending" | undefined} outcome */
export function verificationNode(outcome) {
  const wrap = document.createElement("div");
  const line = document.createElement("p");
  line.className = "verify";
  if (!outcome || outcome === "pending") {
    line.textContent = gettext("Checking the deal…");
    wrap.append(line);
    return wrap;
  }
  line.dataset.ok = String(outcome.verified);
  line.dataset.fairness = outcome.verified ? "verified" : "failed";
  line.textContent = outcome.verified
    ? gettext("✓ Deal verified: the revealed seed matches the commitment and deals these cards")
    : outcome.unavailable ? gettext("Deal not checked: this browser has no WebCrypto here") : gettext("✗ Deal NOT verified");
  const details = document.createElement("details");
  const summary = document.createElement("summary");
  summary.textContent = gettext("What was checked");
  const list = document.createElement("ul");
  list.className = "verify-checks";
  for (const c of outcome.checks) {
    const li = document.createElement("li");
    li.textContent = `${c.ok ? "✓" : "✗"} ${c.label}`;
    list.append(li);
  }
  details.append(summary, list);
  wrap.append(line, details);
  return wrap;
}

export function renderShowdownVerification() {
  const dialog = showdownDialog();
  const box = find(dialog, "[data-showdown-fairness]");
  const hand = (ui.msg?.match.hands || []).find((h) => h.number === ui.showdownFor);
  if (!hand) { box.hidden = true; return; }
  box.hidden = false;
  find(box, "[data-seed]").textContent = hand.seed || "";
  find(box, "[data-commit]").textContent = hand.commitment || "";
  find(box, "[data-verify]").replaceChildren(verificationNode(ui.verifications.get(hand.number)));
}
