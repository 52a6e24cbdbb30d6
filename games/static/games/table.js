// The live table: one WebSocket per match page (docs/protocol.md), rendering of
// the state the server sends, input by click, drag and keyboard, showdown and
// match end, auto-reconnect with backoff and full resync, deal verification.

import {
  cardListName, cardName, renderCard, renderCardText, sortByRank, sortMeld,
} from "./cards.js";
import { bestMelds, deadwoodAfterDiscard } from "./melds.js";
import { applyFrame, isStale } from "./events.js";
import { verifyHand } from "./fairness.js";
import { play } from "./sound.js";
import { errorSentence, plural } from "./words.js";
import { renderReviewLine } from "./review.js";

const config = JSON.parse(document.getElementById("table-config").textContent);
const root = document.getElementById("table-app");
const $ = (sel) => root.querySelector(sel);

const ui = {
  msg: null,            // last "state" message
  pending: false,       // an action is on its way
  knockMode: false,
  handsSeen: null,      // number of finished hands when last rendered
  previousHand: [],     // my cards before the last state (to mark a drawn card)
  newCards: new Set(),
  verifications: new Map(),  // hand number -> {verified, checks} | "pending"
  showdownFor: null,    // hand number shown in the dialog
};

// --------------------------------------------------------------------------
// Connection: reconnects with exponential backoff; every (re)connect gets a
// full state from the server, so nothing needs replaying on our side.
// --------------------------------------------------------------------------
class Connection {
  constructor(url, handlers) {
    this.url = url;
    this.handlers = handlers;
    this.attempt = 0;
    this.timer = null;
    this.ws = null;
    this.closedByUs = false;
  }

  connect() {
    clearTimeout(this.timer);
    this.timer = null;
    this.handlers.status("connecting");
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.attempt = 0;
      this.handlers.status("online");
    });
    ws.addEventListener("message", (event) => {
      let data;
      try { data = JSON.parse(event.data); } catch { return; }
      this.handlers.message(data);
    });
    ws.addEventListener("close", (event) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.closedByUs) return;
      if (event.code === 4003 || event.code === 4403 || event.code === 4404) {
        this.handlers.status("refused", event.code);
        return;
      }
      this.schedule();
    });
  }

  schedule() {
    const delay = Math.min(15000, 500 * 2 ** this.attempt) * (0.75 + Math.random() * 0.5);
    this.attempt += 1;
    this.retryAt = Date.now() + delay;
    this.handlers.status("reconnecting", delay);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  /** Drop this socket and open a fresh one at once (the server re-reads our seat). */
  reopen() {
    const ws = this.ws;
    this.ws = null;
    if (ws) ws.close();
    this.attempt = 0;
    this.connect();
  }

  /** Reconnect at once (network back, tab visible again, "retry now"). */
  nudge() {
    if (this.ws && this.ws.readyState <= WebSocket.OPEN) return;
    this.attempt = 0;
    this.connect();
  }

  get open() { return Boolean(this.ws && this.ws.readyState === WebSocket.OPEN); }

  send(obj) {
    if (!this.open) return false;
    this.ws.send(JSON.stringify(obj));
    return true;
  }
}

const CHAT_ERRORS = new Set(["muted", "chat_too_long", "chat_empty", "chat_not_allowed", "account_closed"]);

const wsUrl = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${config.wsPath}`;
const conn = new Connection(wsUrl, { message: onMessage, status: onStatus });
// The chat panel (chat.js) shares this socket: it hears every frame as a
// "gin:socket-message" event and sends through "gin:socket-send" (cancelled once sent).
document.addEventListener("gin:socket-send", (event) => { if (conn.send(event.detail)) event.preventDefault(); });

// --------------------------------------------------------------------------
// Helpers over the state message
// --------------------------------------------------------------------------
const you = () => ui.msg?.you ?? null;
const isPlayer = () => you() === 0 || you() === 1;
const opp = () => (isPlayer() ? 1 - you() : 1);
const seatInfo = (seat) => ui.msg?.match?.seats?.find((s) => s.seat === seat) ?? { seat, name: `Seat ${seat + 1}` };
function seatName(seat, { capital = false } = {}) {
  if (isPlayer() && seat === you()) return capital ? "You" : "you";
  return seatInfo(seat).name || `Seat ${seat + 1}`; // games/messages.py seat_name
}
const isBot = (seat) => Boolean(seatInfo(seat).bot_level);

function legalActions() {
  const msg = ui.msg;
  if (!msg || !isPlayer() || msg.match.status !== "active" || !msg.view) return [];
  return msg.view.legal_actions;
}

const can = (pred) => legalActions().some(pred);
const canDraw = (source) => can((a) => a.type === "draw" && a.source === source);
const canPass = () => can((a) => a.type === "pass");
const canDiscard = (card) => can((a) => a.type === "discard" && a.card === card);

function knockOptions() {
  const view = ui.msg.view;
  const after = deadwoodAfterDiscard(view.hand);
  return legalActions()
    .filter((a) => a.type === "knock" && a.card)
    .map((a) => ({ card: a.card, deadwood: after.get(a.card) ?? 99 }));
}
const ginOptions = () => knockOptions().filter((k) => k.deadwood === 0);
const nonGinKnocks = () => knockOptions().filter((k) => k.deadwood > 0);
const canBigGin = () => can((a) => a.type === "big_gin");

// --------------------------------------------------------------------------
// Sending
// --------------------------------------------------------------------------
function sendAction(action) {
  if (ui.pending || !ui.msg) return;
  const ok = conn.send({ type: "action", version: ui.msg.version, action });
  if (!ok) { toast("Not connected: reconnecting, try again in a moment."); return; }
  ui.pending = true;
  ui.knockMode = false;
  root.classList.add("is-pending");
  render();
}

function sendControl(type) {
  const body = type === "resign" ? { type, version: ui.msg.version } : { type };
  if (!conn.send(body)) toast("Not connected: reconnecting, try again in a moment.");
}

// --------------------------------------------------------------------------
// Incoming messages
// --------------------------------------------------------------------------
function onMessage(data) {
  document.dispatchEvent(new CustomEvent("gin:socket-message", { detail: data }));
  if (data.type === "state") {
    onState(data);
  } else if (data.type === "event") {
    // An ordinary move: only what changed (events.js). A frame we already hold is
    // dropped; one that does not follow our version means we missed one: resync.
    if (!ui.msg || isStale(ui.msg, data)) return;
    const next = applyFrame(ui.msg, data);
    if (next === null) { conn.send({ type: "sync" }); return; }
    onState(next);
  } else if (data.type === "presence") {
    if (!ui.msg) return;
    for (const p of data.seats) {
      const s = ui.msg.match.seats.find((x) => x.seat === p.seat);
      if (s) s.connected = p.connected;
    }
    renderSeats();
  } else if (data.type === "error") {
    if (CHAT_ERRORS.has(data.code)) return;  // chat.js shows those next to the chat
    ui.pending = false;
    root.classList.remove("is-pending");
    if (data.code !== "stale_version") { toast(errorSentence(data.code, data.message)); play("error"); }
    render();
  }
}

function onState(data) {
  if (wrongSeat(data)) return;
  const firstState = ui.msg === null;
  const previous = ui.msg;
  ui.msg = data;
  ui.pending = false;
  root.classList.remove("is-pending");
  markNewCards(previous, data);
  recordDeal(data);
  if (!legalActions().some((a) => a.type === "knock")) ui.knockMode = false;
  // A rematch created while we watch takes both players to the new table.
  if (!firstState && isPlayer() && data.match.rematch?.match_id && !previous.match.rematch?.match_id) {
    location.assign(rematchUrl());
    return;
  }
  if (!firstState) playSounds(previous, data);
  handleFinishedHands(firstState);
  render();
  announce(previous, data);
}

// Sounds (sound.js): the end of a hand, else the opponent's discard, then our turn.
function playSounds(previous, next) {
  if ((next.match.hands || []).length > (previous.match.hands || []).length) {
    const kind = next.match.hands.at(-1).result?.kind;
    play(kind === "gin" || kind === "big_gin" ? "gin" : "hand_end");
    return;
  }
  if (previous.view && next.view && previous.match.hand_number === next.match.hand_number) {
    const fresh = (next.view.history || []).slice((previous.view.history || []).length);
    if (fresh.some((e) => e.type === "discard" && e.seat !== you())) play("discard");
  }
  const myTurn = (msg) => isPlayer() && msg.match.status === "active" && msg.view?.current_player === you();
  if (myTurn(next) && !myTurn(previous)) play("turn");
}

// A socket opened while the match waited for an opponent may be bound to the seat
// we held then; once seats are drawn at the start it must be opened again.
let lastReopen = 0;
function wrongSeat(data) {
  const me = data.you;
  if (!config.userName || (me !== 0 && me !== 1)) return false;
  const seat = data.match.seats.find((s) => s.seat === me);
  if (!seat || seat.bot_level || seat.name === config.userName) return false;
  if (Date.now() - lastReopen > 3000) { lastReopen = Date.now(); conn.reopen(); }
  return true;
}

function onStatus(status, detail) {
  root.dataset.conn = status;
  const banner = document.getElementById("conn-banner");
  const text = banner.querySelector("[data-conn-text]");
  // For a spectator the bottom seat's dot shows that player's presence, not our socket.
  const mine = ui.msg === null || isPlayer() ? root.querySelector("[data-my-conn]") : null;
  if (status === "online") {
    root.dataset.connects = String(Number(root.dataset.connects || 0) + 1);
    banner.hidden = true;
    if (mine) { mine.dataset.state = "online"; mine.textContent = "connected"; }
    return;
  }
  banner.hidden = false;
  if (mine) { mine.dataset.state = "offline"; mine.textContent = status === "connecting" ? "connecting…" : "offline"; }
  if (status === "connecting") text.textContent = "Connecting…";
  else if (status === "reconnecting") text.textContent = `Connection lost. Reconnecting in ${Math.max(1, Math.round(detail / 1000))} s…`;
  else if (status === "refused") {
    text.textContent = { 4003: "Your account was closed.", 4403: "You cannot watch this match." }[detail] ?? "This match does not exist.";
  }
}

function markNewCards(previous, next) {
  ui.newCards = new Set();
  if (!previous?.view || !next.view || !isPlayer()) return;
  const samehand = previous.match.hand_number === next.match.hand_number;
  if (!samehand) return;
  const before = new Set(previous.view.hand);
  for (const c of next.view.hand) if (!before.has(c)) ui.newCards.add(c);
}

// --------------------------------------------------------------------------
// Fairness: remember what we saw at the deal; verify when the seed is revealed.
// --------------------------------------------------------------------------
const dealKey = (n) => `gin-deal:${config.matchId}:${n}`;

function loadDeal(n) {
  try { return JSON.parse(localStorage.getItem(dealKey(n)) || "null"); } catch { return null; }
}

function recordDeal(msg) {
  const m = msg.match;
  if (!m.commitment || !m.hand_number || !msg.view) return;
  const finished = (m.hands || []).some((h) => h.number === m.hand_number);
  if (finished) return;
  const seen = loadDeal(m.hand_number) || {};
  if (!seen.commitment) seen.commitment = m.commitment;
  if (!seen.upcard && msg.view.upcard) seen.upcard = msg.view.upcard;
  const me = msg.you;
  if ((me === 0 || me === 1) && !seen.hand) {
    const drew = (msg.view.history || []).some((e) => e.seat === me && e.type === "draw");
    if (!drew && msg.view.hand.length === 10) { seen.hand = [...msg.view.hand]; seen.seat = me; }
  }
  try { localStorage.setItem(dealKey(m.hand_number), JSON.stringify(seen)); } catch { /* private mode */ }
}

async function verify(hand) {
  if (!hand?.seed || ui.verifications.has(hand.number)) return;
  ui.verifications.set(hand.number, "pending");
  let observed = loadDeal(hand.number) || {};
  if (!observed.hand && config.dealUrlTemplate) {
    try {
      const res = await fetch(config.dealUrlTemplate.replace("__N__", String(hand.number)), { credentials: "same-origin" });
      if (res.ok) {
        const deal = await res.json();
        observed = { ...observed, hands: deal.hands, upcard: observed.upcard ?? deal.upcard };
      }
    } catch { /* the commitment check still runs */ }
  }
  let outcome;
  try {
    outcome = await verifyHand(hand, observed);
  } catch (err) {
    outcome = { verified: false, checks: [{ label: String(err.message || err), ok: false }] };
  }
  ui.verifications.set(hand.number, outcome);
  renderFairness();
  renderShowdownVerification();
}

// --------------------------------------------------------------------------
// Showdown and match end
// --------------------------------------------------------------------------
const rematchUrl = () => config.matchUrlTemplate.replace("__ID__", String(ui.msg.match.rematch.match_id));

const dismissedKey = `gin-dismissed:${config.matchId}`;
const dismissed = () => Number(sessionStorage.getItem(dismissedKey) || 0);

function handleFinishedHands(firstState) {
  const hands = ui.msg.match.hands || [];
  for (const h of hands) if (h.seed) verify(h);
  const count = hands.length;
  const last = hands[count - 1];
  const over = ui.msg.match.status === "finished";
  if (firstState) {
    ui.handsSeen = count;
    const freshDeal = (ui.msg.view?.history || []).length === 0;
    if ((last && last.number > dismissed() && (freshDeal || over)) || (over && !last)) openShowdown(last?.number ?? null);
    return;
  }
  if (count > (ui.handsSeen ?? 0) || (over && ui.showdownFor === null && !document.getElementById("showdown").open)) {
    ui.handsSeen = count;
    openShowdown(last?.number ?? null);
  }
}

function openShowdown(number) {
  ui.showdownFor = number;
  const dialog = document.getElementById("showdown");
  renderShowdown();
  renderReviewLine(dialog.querySelector("[data-showdown-review]"), { matchId: config.matchId, number, seat: you(), names: [0, 1].map((s) => seatName(s, { capital: true })) });
  if (!dialog.open) dialog.showModal();
}

function closeShowdown() {
  const dialog = document.getElementById("showdown");
  if (ui.showdownFor) sessionStorage.setItem(dismissedKey, String(ui.showdownFor));
  if (dialog.open) dialog.close();
}

function resultHeadline(result) {
  const me = you();
  const w = result.winner;
  const mine = isPlayer() && w === me;
  const who = w === null || w === undefined ? "" : seatName(w, { capital: true });
  const pts = result.points;
  switch (result.kind) {
    case "gin": return mine ? `Gin! You score ${plural(pts, "point")}` : `${who} went gin: ${plural(pts, "point")}`;
    case "big_gin": return mine ? `Big gin! You score ${plural(pts, "point")}` : `${who} made big gin: ${plural(pts, "point")}`;
    case "undercut": return mine ? `Undercut! You score ${plural(pts, "point")}` : `Undercut! ${who} scores ${plural(pts, "point")}`;
    case "knock": return mine ? `You win the hand: ${plural(pts, "point")}` : `${who} wins the hand: ${plural(pts, "point")}`;
    case "draw": return "Draw: nobody scores";
    default: return "Hand over";
  }
}

function resultWhy(result, rules) {
  const k = result.knocker;
  const dw = result.deadwood || [0, 0];
  const d = k === 0 || k === 1 ? 1 - k : null;
  const name = (s) => seatName(s);
  const straight = rules?.straight;
  switch (result.kind) {
    case "gin":
      return straight
        ? `${seatName(k, { capital: true })} melded all ten cards; ${name(d)} had ${dw[d]} deadwood (Straight Gin: no gin bonus).`
        : `${seatName(k, { capital: true })} melded all ten cards: ${name(d)}'s deadwood ${dw[d]} plus the gin bonus ${rules?.gin_bonus ?? 25}. No lay-offs after gin.`;
    case "big_gin":
      return straight
        ? `${seatName(result.winner, { capital: true })} melded all eleven cards; the opponent had ${dw[1 - result.winner]} deadwood.`
        : `${seatName(result.winner, { capital: true })} melded all eleven cards: the opponent's deadwood ${dw[1 - result.winner]} plus the big gin bonus ${rules?.big_gin_bonus ?? 31}.`;
    case "knock":
      return `${seatName(k, { capital: true })} knocked with ${dw[k]} deadwood; ${name(d)} had ${dw[d]} after laying off. The knocker scores the difference: ${result.points}.`;
    case "undercut":
      return `${seatName(k, { capital: true })} knocked with ${dw[k]} deadwood but ${name(d)} had only ${dw[d]} after laying off: undercut! The difference plus the undercut bonus ${rules?.undercut_bonus ?? 25} = ${result.points}.`;
    case "draw":
      return "The stock ran down to two cards without a knock: the hand is a draw. The same dealer deals again.";
    default:
      return "";
  }
}

function renderResultHands(result, container) {
  container.replaceChildren();
  const laid = new Set(result.layoffs || []);
  const order = isPlayer() ? [opp(), you()] : [1, 0];
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
      ? { gin: " · gin", big_gin: " · big gin" }[result.kind] ?? " · knocked"
      : "";
    label.textContent = `${seatName(seat, { capital: true })}${role}`;
    const dwLabel = document.createElement("span");
    dwLabel.textContent = `deadwood ${result.deadwood?.[seat] ?? "?"}`;
    h.append(label, dwLabel);
    const cards = document.createElement("div");
    cards.className = "showdown__cards";
    cards.setAttribute("role", "list");
    cards.setAttribute("aria-label", `${seatName(seat, { capital: true })}: melds and deadwood`);
    for (const meld of melds) {
      const g = document.createElement("div");
      g.className = "meld-group";
      g.setAttribute("role", "listitem");
      g.setAttribute("aria-label", `meld: ${cardListName(meld)}`);
      for (const c of meld) {
        const laidOff = laid.has(c) && seat === result.knocker;
        g.append(renderCard(c, {
          className: laidOff ? "card--layoff" : "",
          label: laidOff ? `${cardName(c)}, laid off` : undefined,
        }));
      }
      cards.append(g);
    }
    if (dead.length) {
      const g = document.createElement("div");
      g.className = "meld-group meld-group--deadwood";
      g.setAttribute("role", "listitem");
      g.setAttribute("aria-label", `deadwood: ${cardListName(dead)}`);
      for (const c of dead) g.append(renderCard(c));
      cards.append(g);
    }
    box.append(h, cards);
    if (result.knocker === seat && result.knock_card) {
      const note = document.createElement("p");
      note.className = "legend";
      note.append("Discarded face down: ", renderCardText(result.knock_card));
      box.append(note);
    }
    container.append(box);
  }
  if (laid.size) {
    const legend = document.createElement("p");
    legend.className = "legend";
    const swatch = document.createElement("span");
    swatch.className = "swatch swatch--layoff";
    legend.append(swatch, `Laid off onto the knocker's melds: ${cardListName([...laid])}.`);
    container.append(legend);
  }
}

function renderShowdown() {
  const dialog = document.getElementById("showdown");
  const m = ui.msg.match;
  const hand = (m.hands || []).find((h) => h.number === ui.showdownFor);
  const body = dialog.querySelector("[data-showdown-body]");
  const headline = dialog.querySelector("[data-showdown-headline]");
  const why = dialog.querySelector("[data-showdown-why]");
  const handsBox = dialog.querySelector("[data-showdown-hands]");
  const scores = dialog.querySelector("[data-showdown-scores]");
  const end = dialog.querySelector("[data-match-over]");
  const over = m.status === "finished";
  if (hand?.result) {
    headline.textContent = resultHeadline(hand.result);
    why.textContent = `Hand ${hand.number}. ${resultWhy(hand.result, m.rules)}`;
    renderResultHands(hand.result, handsBox);
  } else {
    headline.textContent = over ? "Match over" : "Hand over";
    why.textContent = m.end_reason === "resign" ? "The match ended by resignation." : m.end_reason === "abandon" ? "The match ended by abandonment." : m.end_reason === "suspended" ? suspendedText(m) : "";
    handsBox.replaceChildren();
  }
  scores.replaceChildren();
  for (const seat of isPlayer() ? [you(), opp()] : [0, 1]) {
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
  renderShowdownVerification();
  dialog.querySelector("[data-next-hand]").hidden = over;
  // No rematch with a player whose account was suspended.
  dialog.querySelector("[data-rematch]").hidden = !over || !isPlayer() || m.end_reason === "suspended";
  const offered = m.rematch?.offered_by;
  const rematchBtn = dialog.querySelector("[data-rematch]");
  if (m.rematch?.match_id) { rematchBtn.textContent = "Go to the rematch"; rematchBtn.disabled = false; }
  else if (offered === you()) { rematchBtn.textContent = "Rematch offered…"; rematchBtn.disabled = true; }
  else if (offered !== null && offered !== undefined) { rematchBtn.textContent = "Accept rematch"; rematchBtn.disabled = false; }
  else { rematchBtn.textContent = "Rematch"; rematchBtn.disabled = false; }
  body.scrollTop = 0;
}

/** A forfeit because a moderator suspended the loser's account (not a resignation). */
function suspendedText(m) {
  const winner = m.winner ?? m.final?.winner;
  if (winner !== 0 && winner !== 1) return "Forfeit: an account was suspended by a moderator.";
  const loser = 1 - winner;
  const whose = isPlayer() && loser === you() ? "your" : `${seatName(loser)}'s`;
  return `Forfeit: ${whose} account was suspended by a moderator.`;
}

function renderMatchOver(box) {
  const m = ui.msg.match;
  const f = m.final || {};
  const title = box.querySelector("h3");
  const winner = m.winner ?? f.winner;
  if (winner === null || winner === undefined) title.textContent = "Match over";
  else if (isPlayer() && winner === you()) title.textContent = "🏆 You win the match!";
  else title.textContent = `${seatName(winner, { capital: true })} wins the match`;
  const reason = box.querySelector("[data-end-reason]");
  reason.textContent = {
    target: `First to ${plural(m.rules?.target_score ?? 0, "point")}.`,
    resign: "Ended by resignation.",
    abandon: "Ended by abandonment.",
    suspended: suspendedText(m),
  }[m.end_reason] || "";
  const table = box.querySelector("tbody");
  table.replaceChildren();
  const seats = isPlayer() ? [you(), opp()] : [0, 1];
  box.querySelector("[data-col-a]").textContent = seatName(seats[0], { capital: true });
  box.querySelector("[data-col-b]").textContent = seatName(seats[1], { capital: true });
  const rows = [
    ["Hand points", (s) => f.hand_points?.[s]],
    ["Game bonus", (s) => f.bonuses?.[s]?.game],
    ["Line bonus", (s) => f.bonuses?.[s]?.line],
    ["Shutout", (s) => f.bonuses?.[s]?.shutout],
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
  const tfoot = box.querySelector("tfoot tr");
  tfoot.children[1].textContent = String(f.totals?.[seats[0]] ?? seatInfo(seats[0]).score ?? 0);
  tfoot.children[2].textContent = String(f.totals?.[seats[1]] ?? seatInfo(seats[1]).score ?? 0);
}

function verificationNode(outcome) {
  const wrap = document.createElement("div");
  const line = document.createElement("p");
  line.className = "verify";
  if (!outcome || outcome === "pending") {
    line.textContent = "Checking the deal…";
    wrap.append(line);
    return wrap;
  }
  line.dataset.ok = String(outcome.verified);
  line.dataset.fairness = outcome.verified ? "verified" : "failed";
  line.textContent = outcome.verified
    ? "✓ Deal verified: the revealed seed matches the commitment and deals these cards"
    : outcome.unavailable ? "Deal not checked: this browser has no WebCrypto here" : "✗ Deal NOT verified";
  const details = document.createElement("details");
  const summary = document.createElement("summary");
  summary.textContent = "What was checked";
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

function renderShowdownVerification() {
  const dialog = document.getElementById("showdown");
  const box = dialog.querySelector("[data-showdown-fairness]");
  const hand = (ui.msg?.match.hands || []).find((h) => h.number === ui.showdownFor);
  if (!hand) { box.hidden = true; return; }
  box.hidden = false;
  box.querySelector("[data-seed]").textContent = hand.seed || "";
  box.querySelector("[data-commit]").textContent = hand.commitment || "";
  box.querySelector("[data-verify]").replaceChildren(verificationNode(ui.verifications.get(hand.number)));
}

// --------------------------------------------------------------------------
// Rendering the table
// --------------------------------------------------------------------------
function render() {
  const msg = ui.msg;
  if (!msg) return;
  // An invitation closed (cancelled in another tab, or expired): the page says so
  // (unless this page is already leaving: its own Cancel button was pressed).
  if (msg.match.status === "cancelled") { if (!pageLeaving) location.reload(); return; }
  const waiting = msg.match.status === "waiting";
  $("[data-waiting]").hidden = !waiting;
  $("[data-play]").hidden = waiting;
  root.classList.toggle("knock-mode", ui.knockMode);
  renderSeats();
  renderTitle();
  if (waiting) { renderSidebar(); return; }
  renderOpponent();
  renderCentre();
  renderMyHand();
  renderActions();
  renderSidebar();
  renderClock();
  if (document.getElementById("showdown").open) renderShowdown();
}

let pageLeaving = false;
window.addEventListener("beforeunload", () => { pageLeaving = true; });

const baseTitle = document.title;
function renderTitle() {
  const m = ui.msg.match;
  const mine = isPlayer() && m.status === "active" && ui.msg.view?.current_player === you();
  document.title = mine ? `● Your turn · ${baseTitle}` : baseTitle;
}

function renderSeats() {
  if (!ui.msg) return;
  const view = ui.msg.view;
  const bars = [[$("[data-seat-bar='top']"), isPlayer() ? opp() : 1], [$("[data-seat-bar='bottom']"), isPlayer() ? you() : 0]];
  for (const [bar, seat] of bars) {
    if (!bar) continue;
    const info = seatInfo(seat);
    bar.dataset.turn = String(view?.current_player === seat && ui.msg.match.status === "active");
    bar.querySelector("[data-name]").textContent = isPlayer() && seat === you() ? `${info.name || "You"} (you)` : seatName(seat, { capital: true });
    bar.querySelector("[data-score]").textContent = String(info.score ?? 0);
    bar.querySelector("[data-score]").setAttribute("aria-label", `score ${info.score ?? 0}`);
    const dealer = bar.querySelector("[data-dealer]");
    dealer.hidden = view?.dealer !== seat;
    const c = bar.querySelector(".conn");
    if (isPlayer() && seat === you()) continue;  // my own dot follows the socket (onStatus)
    if (isBot(seat)) { c.dataset.state = "bot"; c.textContent = "computer"; }
    else if (info.connected) { c.dataset.state = "online"; c.textContent = "online"; }
    else { c.dataset.state = "offline"; c.textContent = "offline"; }
  }
}

function renderOpponent() {
  const view = ui.msg.view;
  const box = $("[data-opp-hand]");
  box.replaceChildren();
  const seat = isPlayer() ? opp() : 1;
  const known = isPlayer() ? view.opponent_known_cards || [] : view.known_cards?.[seat] || [];
  const count = isPlayer() ? view.opponent_card_count ?? 10 : view.card_counts?.[seat] ?? 10;
  for (const c of sortByRank(known)) box.append(renderCard(c, { className: "card--known", label: `${cardName(c)} (known)` }));
  for (let i = known.length; i < count; i++) box.append(renderCard(null, { faceDown: true, label: "hidden card" }));
  box.setAttribute("aria-label", `${seatName(seat, { capital: true })}: ${plural(count, "card")}${known.length ? `, known: ${cardListName(known)}` : ""}`);
  $("[data-opp-note]").textContent = `${plural(count, "card")}${known.length ? ` · known: ${known.length}` : ""}`;
}

function renderCentre() {
  const view = ui.msg.view;
  const stock = $("[data-stock]");
  const stockActive = canDraw("stock") && !ui.pending;
  stock.dataset.active = String(stockActive);
  stock.disabled = !stockActive;
  stock.querySelector("[data-stock-count]").textContent = String(view.stock_count);
  stock.setAttribute("aria-label", `Stock: ${plural(view.stock_count, "card")}${stockActive ? ". Draw from the stock (S)" : ""}`);
  const slot = stock.querySelector(".pile__slot");
  slot.replaceChildren();
  if (view.stock_count > 0) slot.append(renderCard(null, { faceDown: true, label: "" }));

  const discard = $("[data-discard]");
  const top = view.discard_pile[view.discard_pile.length - 1];
  const takeActive = canDraw("discard") && !ui.pending;
  const dropActive = ui.msg.view.phase === "discard" && isPlayer() && view.current_player === you() && !ui.pending;
  discard.dataset.active = String(takeActive);
  discard.disabled = !takeActive;
  discard.dataset.dropZone = dropActive ? "discard" : "";
  const dslot = discard.querySelector(".pile__slot");
  dslot.replaceChildren();
  dslot.classList.add("discard-stack");
  for (const c of view.discard_pile.slice(-3)) dslot.append(renderCard(c));
  discard.setAttribute("aria-label", top
    ? `Discard pile: ${cardName(top)} on top${takeActive ? `. Take the ${cardName(top)} (D)` : ""}`
    : "Discard pile: empty");

  $("[data-status]").replaceChildren(...statusLine());
}

// A touch screen without a mouse: the hints say "tap", not "click" or keys.
const touchScreen = () => matchMedia("(pointer: coarse)").matches || (navigator.maxTouchPoints > 0 && matchMedia("(hover: none)").matches);

function statusLine() {
  const msg = ui.msg;
  const view = msg.view;
  const m = msg.match;
  const main = document.createElement("span");
  const sub = document.createElement("small");
  if (m.status === "finished") {
    main.textContent = "Match over";
    sub.textContent = m.winner === you() ? "You won." : `${seatName(m.winner, { capital: true })} won.`;
    return [main, sub];
  }
  const turn = view.current_player;
  if (isPlayer() && turn === you()) {
    if (ui.pending) main.textContent = "…";
    else if (ui.knockMode) {
      main.textContent = "Knock: choose the card to discard face down";
      sub.textContent = "Highlighted cards keep you within the knock limit. Esc cancels.";
    } else if (view.phase === "first_turn") {
      main.textContent = `Your turn: take the ${cardName(view.discard_pile.at(-1))} or pass`;
      sub.textContent = "First turn: the stock is closed until both players pass.";
    } else if (view.phase === "draw") {
      main.textContent = "Your turn: draw from the stock or the discard pile";
      sub.textContent = touchScreen() ? "Tap a pile, or drag its card to your hand." : "Click, drag, or press S / D.";
    } else if (view.phase === "discard") {
      main.textContent = "Discard a card";
      const parts = [touchScreen() ? "Tap a card, or drag it to the discard pile." : "Click or drag a card to the discard pile."];
      if (ginOptions().length || canBigGin()) parts.push("You can go gin!");
      else if (nonGinKnocks().length) parts.push(`You can knock (limit ${view.knock_limit}).`);
      sub.textContent = parts.join(" ");
    }
  } else if (turn === null || turn === undefined) {
    main.textContent = "Hand over";
  } else {
    main.textContent = `${seatName(turn, { capital: true })} ${isBot(turn) ? "is thinking…" : "to play"}`;
    sub.textContent = view.phase === "first_turn" ? "First turn: upcard offer." : "";
  }
  return [main, sub];
}

function handGroups(view) {
  const hand = view.hand;
  let melds = Array.isArray(view.melds) ? view.melds : null;
  if (!melds || melds.flat().some((c) => !hand.includes(c))) melds = bestMelds(hand).melds;
  const inMelds = new Set(melds.flat());
  const dead = sortByRank(hand.filter((c) => !inMelds.has(c)));
  const groups = melds.map((m) => ({ kind: m.every((c) => c[0] === m[0][0]) ? "set" : "run", cards: sortMeld(m) }));
  groups.sort((a, b) => a.cards[0].localeCompare(b.cards[0]));
  return { groups, dead };
}

function renderMyHand() {
  const view = ui.msg.view;
  const box = $("[data-my-hand]");
  const focused = document.activeElement?.dataset?.card;
  box.replaceChildren();
  if (!isPlayer()) {
    // Watching: seat 0's cards face down, with those it took from the discard pile.
    $("[data-my-summary]").hidden = true;
    const known = view.known_cards?.[0] || [];
    const count = view.card_counts?.[0] ?? 10;
    const wrap = document.createElement("div");
    wrap.className = "meld-group meld-group--deadwood";
    for (const c of sortByRank(known)) wrap.append(renderCard(c, { className: "card--known", label: `${cardName(c)} (known)` }));
    for (let i = known.length; i < count; i++) wrap.append(renderCard(null, { faceDown: true, label: "hidden card" }));
    box.append(wrap);
    box.setAttribute("aria-label", `${seatName(0, { capital: true })}: ${plural(count, "card")}`);
    return;
  }
  $("[data-my-summary]").hidden = false;
  const { groups, dead } = handGroups(view);
  const myTurnDiscard = view.current_player === you() && view.phase === "discard" && !ui.pending;
  const knocks = ui.knockMode ? new Map(knockOptions().map((k) => [k.card, k.deadwood])) : null;
  const after = myTurnDiscard ? deadwoodAfterDiscard(view.hand) : null;
  const makeCard = (c) => {
    const locked = view.taken_from_discard === c && myTurnDiscard;
    const el = renderCard(c, { tag: "button" });
    el.dataset.drag = myTurnDiscard && !locked ? "card" : "";
    if (ui.newCards.has(c)) el.classList.add("card--new");
    if (locked) el.classList.add("card--locked");
    let label = cardName(c);
    if (myTurnDiscard) {
      if (knocks) {
        el.dataset.knock = String(knocks.has(c));
        el.disabled = !knocks.has(c);
        label += knocks.has(c) ? `: knock with it, deadwood ${knocks.get(c)}` : ": cannot knock with it";
      } else if (locked) {
        el.disabled = true;
        label += ": just taken from the discard pile, cannot be discarded this turn";
      } else {
        el.disabled = !canDiscard(c);
        label += `: discard (deadwood after: ${after.get(c)})`;
        el.title = `Discard ${cardName(c)} — deadwood left: ${after.get(c)}`;
      }
    } else {
      // Not playable now, but still focusable so the hand can be read card by card.
      el.setAttribute("aria-disabled", "true");
      el.dataset.inert = "true";
    }
    el.setAttribute("aria-label", label);
    return el;
  };
  for (const g of groups) {
    const wrap = document.createElement("div");
    wrap.className = "meld-group";
    wrap.setAttribute("role", "group");
    wrap.setAttribute("aria-label", `${g.kind}: ${cardListName(g.cards)}`);
    const tag = document.createElement("span");
    tag.className = "meld-group__tag";
    tag.textContent = g.kind;
    tag.setAttribute("aria-hidden", "true");
    wrap.append(tag, ...g.cards.map(makeCard));
    box.append(wrap);
  }
  if (dead.length) {
    const wrap = document.createElement("div");
    wrap.className = "meld-group meld-group--deadwood";
    wrap.setAttribute("role", "group");
    wrap.setAttribute("aria-label", `deadwood: ${cardListName(dead)}`);
    const tag = document.createElement("span");
    tag.className = "meld-group__tag";
    tag.setAttribute("aria-hidden", "true");
    tag.textContent = "deadwood";
    wrap.append(tag, ...dead.map(makeCard));
    box.append(wrap);
  }
  const total = $("[data-deadwood]");
  total.textContent = `Deadwood ${view.deadwood}`;
  total.setAttribute("aria-label", `Your deadwood: ${plural(view.deadwood, "point")}`);
  total.dataset.knockable = String(view.hand.length === 10 && view.deadwood <= view.knock_limit);
  $("[data-knock-limit]").textContent = view.rules?.straight ? "Straight gin: gin only" : `Knock limit ${view.knock_limit}`;
  if (focused) box.querySelector(`[data-card="${focused}"]`)?.focus();
  // A card just drawn takes the focus when nothing else has it (the pile pressed is
  // now disabled): Enter discards it, the arrow keys move to another card.
  else if (myTurnDiscard && ui.newCards.size && document.activeElement === document.body) {
    box.querySelector(`[data-card="${[...ui.newCards][0]}"]`)?.focus();
  }
}

function renderActions() {
  const box = $("[data-actions]");
  const show = (sel, visible) => { const el = box.querySelector(sel); el.hidden = !visible; el.disabled = ui.pending; return el; };
  const mine = isPlayer() && ui.msg.view.current_player === you() && ui.msg.match.status === "active";
  show("[data-act='pass']", mine && canPass());
  show("[data-act='take']", mine && ui.msg.view.phase === "first_turn" && canDraw("discard"));
  const knock = show("[data-act='knock']", mine && !ui.knockMode && nonGinKnocks().length > 0);
  const best = nonGinKnocks().sort((a, b) => a.deadwood - b.deadwood)[0];
  knock.textContent = best ? `Knock (${best.deadwood})` : "Knock";
  show("[data-act='gin']", mine && !ui.knockMode && ginOptions().length > 0);
  show("[data-act='big-gin']", mine && canBigGin());
  show("[data-act='cancel']", mine && ui.knockMode);
}

function renderSidebar() {
  const m = ui.msg.match;
  const r = m.rules || {};
  const variants = { default: "Default", time_freedom: "Time Freedom", straight: "Straight Gin", oklahoma: "Oklahoma Gin" };
  const meta = $("[data-meta]");
  const rows = [
    ["Variant", variants[m.variant] || m.variant],
    ["Target", r.target_score],
    ["Hand", m.hand_number],
    ["Knock limit", r.straight ? "gin only" : ui.msg.view?.knock_limit ?? r.knock_limit],
    ["Clock", r.turn_seconds ? `${r.turn_seconds} s per turn` : "none"],
    ["Rated", m.rated ? "yes" : "no"],
  ];
  meta.replaceChildren();
  for (const [k, v] of rows) {
    if (v === undefined || v === null || v === "") continue;
    const dt = document.createElement("dt");
    dt.textContent = k;
    const dd = document.createElement("dd");
    dd.textContent = String(v);
    meta.append(dt, dd);
  }
  const board = $("[data-scoreboard]");
  board.replaceChildren();
  for (const seat of isPlayer() ? [you(), opp()] : [0, 1]) {
    const tr = document.createElement("tr");
    const a = document.createElement("td");
    a.textContent = seatName(seat, { capital: true });
    const b = document.createElement("td");
    b.textContent = String(seatInfo(seat).score ?? 0);
    tr.append(a, b);
    board.append(tr);
  }
  $("[data-resign]").hidden = !(isPlayer() && m.status === "active");
  $("[data-show-result]").hidden = m.status !== "finished";
  renderFairness();
  renderLog();
}

function renderFairness() {
  if (!ui.msg) return;
  const m = ui.msg.match;
  // Before the first deal there is no commitment yet: say what will appear here.
  const dealt = Boolean(m.commitment && m.hand_number);
  $("[data-commitment-lead]").hidden = !dealt;
  $("[data-commitment]").hidden = !dealt;
  $("[data-commitment-none]").hidden = dealt;
  $("[data-commitment]").textContent = m.commitment || "";
  $("[data-commitment-short]").textContent = m.commitment ? m.commitment.slice(0, 12) : "";
  $("[data-commitment-hand]").textContent = m.hand_number ? `hand ${m.hand_number}` : "";
  const box = $("[data-last-verify]");
  const last = (m.hands || []).filter((h) => h.seed).at(-1);
  box.replaceChildren();
  if (!last) {
    const p = document.createElement("p");
    p.className = "panel__lead";
    p.textContent = "The seed is revealed and checked here when the hand ends.";
    box.append(p);
    return;
  }
  const p = document.createElement("p");
  p.textContent = `Hand ${last.number}:`;
  box.append(p, verificationNode(ui.verifications.get(last.number)));
}

function describeEvent(e) {
  const who = seatName(e.seat, { capital: true });
  const frag = document.createElement("li");
  const card = e.card ? renderCardText(e.card) : null;
  switch (e.type) {
    case "pass": frag.textContent = `${who} passed`; break;
    case "draw":
      if (e.source === "discard" && card) frag.append(`${who} took `, card, " from the discard pile");
      else frag.textContent = `${who} drew from the stock`;
      break;
    case "discard": frag.append(`${who} discarded `, card ?? ""); break;
    case "knock": frag.textContent = `${who} knocked`; break;
    case "gin": frag.textContent = `${who} went gin`; break;
    case "big_gin": frag.textContent = `${who} made big gin`; break;
    default: frag.textContent = `${who}: ${e.type}`;
  }
  return frag;
}

function renderLog() {
  const list = $("[data-log]");
  const history = ui.msg.view?.history || [];
  list.replaceChildren(...history.map(describeEvent).reverse());
  if (!history.length) {
    const li = document.createElement("li");
    li.className = "empty";
    li.textContent = "New deal.";
    list.append(li);
  }
}

// Clock: the server sends remaining_ms; count down from our own receipt time
// so a skewed device clock does not matter. After a showdown the turn clock starts
// late (docs/protocol.md): remaining_ms exceeds turn_seconds by the grace left, shown
// as "Next hand in N s" in the result dialog while the turn clock stands still.
let clockState = { until: 0, total: 0, seat: null, graceUntil: 0 };
function renderClock() {
  const c = ui.msg.match.clock;
  const el = $("[data-clock]");
  if (!c || ui.msg.match.status !== "active" || c.remaining_ms === null || c.remaining_ms === undefined) {
    el.hidden = true;
    clockState = { until: 0, total: 0, seat: null, graceUntil: 0 };
    tickGrace();
    return;
  }
  el.hidden = false;
  // A move within the turn (a draw) keeps the clock object: the countdown goes on.
  if (clockState.source !== c) {
    const now = performance.now();
    const total = (c.turn_seconds || 30) * 1000;
    const grace = Math.max(0, c.remaining_ms - total);
    clockState = { source: c, until: now + c.remaining_ms, total, seat: ui.msg.view.current_player, graceUntil: grace ? now + grace : 0 };
  }
  tickClock();
}
function tickClock() {
  tickGrace();
  const el = $("[data-clock]");
  if (el.hidden || !clockState.total) return;
  const waiting = clockState.graceUntil > performance.now();
  const left = waiting ? clockState.total : Math.max(0, clockState.until - performance.now());
  const secs = Math.ceil(left / 1000);
  el.dataset.waiting = String(waiting);
  el.querySelector("[data-clock-text]").textContent = `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, "0")}`;
  el.querySelector(".clock__bar span").style.width = `${Math.min(100, (left / clockState.total) * 100)}%`;
  el.dataset.urgent = String(secs <= 10);
  const mine = isPlayer() && clockState.seat === you();
  el.setAttribute("aria-label", waiting
    ? `The clock starts in ${plural(Math.ceil((clockState.graceUntil - performance.now()) / 1000), "second")}`
    : `${mine ? "Your" : "Opponent's"} time left: ${plural(secs, "second")}`);
}
function tickGrace() {
  const note = document.querySelector("#showdown [data-next-countdown]");
  const left = Math.ceil((clockState.graceUntil - performance.now()) / 1000);
  const show = left > 0 && ui.msg?.match.status === "active";
  note.hidden = !show;
  if (show) note.textContent = `Next hand in ${left} s: the clock starts then.`;
}
setInterval(tickClock, 250);

// --------------------------------------------------------------------------
// Announcements for screen readers and a toast for errors
// --------------------------------------------------------------------------
// Polite announcements of what changed between two rendered states: every move of
// either player (with the card I drew), the result of each hand, the next deal,
// the end of the match, then whose turn it is.
function announce(previous, next) {
  const live = document.getElementById("announce");
  if (!next.view) return;
  const parts = [];
  const handsBefore = (previous?.match.hands || []).length;
  const finished = previous ? (next.match.hands || []).slice(handsBefore) : [];
  for (const hand of finished) {
    if (hand.result) parts.push(`Hand ${hand.number} over. ${resultHeadline(hand.result)}. ${resultWhy(hand.result, next.match.rules)}`);
  }
  if (next.match.status === "finished" && previous?.match.status !== "finished") {
    const w = next.match.winner;
    parts.push(w === null || w === undefined ? "Match over." : isPlayer() && w === you() ? "Match over: you win the match!" : `Match over: ${seatName(w)} wins the match.`);
  } else if (!previous?.view || previous.match.hand_number !== next.match.hand_number) {
    parts.push(`Hand ${next.match.hand_number} dealt.`);
  }
  const samehand = previous?.view && previous.match.hand_number === next.match.hand_number;
  const history = next.view.history || [];
  const fresh = history.slice(samehand ? (previous.view.history || []).length : 0);
  // On arrival (first state, reload) only the hand's last move: what just happened.
  parts.push(...(previous ? fresh : history.slice(-1)).map(eventSentence));
  if (next.match.status === "active") parts.push(statusLine().map((n) => n.textContent).filter(Boolean).join(". "));
  live.textContent = parts.filter(Boolean).join(" ");
}

function eventSentence(e) {
  const who = seatName(e.seat, { capital: true });
  const card = e.card ? `the ${cardName(e.card)}` : "";
  switch (e.type) {
    case "pass": return `${who} passed.`;
    case "draw": {
      if (e.source === "discard") return `${who} took ${card} from the discard pile.`;
      const drawn = isPlayer() && e.seat === you() && ui.newCards.size === 1 ? [...ui.newCards][0] : null;
      return drawn ? `You drew the ${cardName(drawn)} from the stock.` : `${who} drew from the stock.`;
    }
    case "discard": return `${who} discarded ${card}.`;
    case "knock": return `${who} knocked.`;
    case "gin": return `${who} went gin.`;
    case "big_gin": return `${who} made big gin.`;
    default: return "";
  }
}

let toastTimer = null;
function toast(text) {
  const el = document.getElementById("toast");
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, 4000);
}

// --------------------------------------------------------------------------
// Input: clicks, drag and drop (pointer events: mouse and touch), keyboard
// --------------------------------------------------------------------------
function onHandClick(card) {
  if (ui.knockMode) { sendAction({ type: "knock", card }); return; }
  if (canDiscard(card)) sendAction({ type: "discard", card });
}

root.addEventListener("click", (event) => {
  if (suppressClick) { suppressClick = false; event.preventDefault(); return; }
  const cardEl = event.target.closest("[data-my-hand] .card");
  if (cardEl) { if (!cardEl.dataset.inert) onHandClick(cardEl.dataset.card); return; }
  if (event.target.closest("[data-stock]")) { if (canDraw("stock")) sendAction({ type: "draw", source: "stock" }); return; }
  if (event.target.closest("[data-discard]")) { if (canDraw("discard")) sendAction({ type: "draw", source: "discard" }); return; }
  const act = event.target.closest("[data-act]")?.dataset.act;
  if (act) doAct(act);
});

function doAct(act) {
  if (act === "pass") sendAction({ type: "pass" });
  else if (act === "take") sendAction({ type: "draw", source: "discard" });
  else if (act === "knock") {
    const options = nonGinKnocks();
    if (!options.length) return;
    ui.knockMode = true;
    render();
    root.querySelector("[data-my-hand] .card[data-knock='true']")?.focus();
  } else if (act === "gin") {
    const options = ginOptions();
    if (options.length) sendAction({ type: "knock", card: options[0].card });
  } else if (act === "big-gin") sendAction({ type: "big_gin" });
  else if (act === "cancel") { ui.knockMode = false; render(); }
}

let drag = null;
let suppressClick = false;
root.addEventListener("pointerdown", (event) => {
  if (event.button !== 0) return;
  const src = event.target.closest("[data-stock][data-active='true'], [data-discard][data-active='true'], [data-my-hand] .card[data-drag='card']");
  if (!src) return;
  drag = { src, x: event.clientX, y: event.clientY, id: event.pointerId, ghost: null };
});
window.addEventListener("pointermove", (event) => {
  if (!drag || event.pointerId !== drag.id) return;
  if (!drag.ghost) {
    if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 8) return;
    const face = drag.src.matches(".card") ? drag.src : drag.src.querySelector(".pile__slot .card:last-child");
    if (!face) { drag = null; return; }
    drag.ghost = face.cloneNode(true);
    drag.ghost.classList.add("drag-ghost");
    drag.ghost.removeAttribute("id");
    drag.ghost.setAttribute("aria-hidden", "true");
    document.body.append(drag.ghost);
    root.classList.add("is-dragging");
    const target = drag.src.matches(".card") ? $("[data-discard]") : $("[data-my-hand]");
    target.dataset.drop = "true";
  }
  drag.ghost.style.left = `${event.clientX}px`;
  drag.ghost.style.top = `${event.clientY}px`;
});
window.addEventListener("pointerup", (event) => {
  if (!drag || event.pointerId !== drag.id) return;
  const d = drag;
  drag = null;
  if (!d.ghost) return;
  d.ghost.remove();
  root.classList.remove("is-dragging");
  root.querySelectorAll("[data-drop]").forEach((el) => delete el.dataset.drop);
  suppressClick = true;
  setTimeout(() => { suppressClick = false; }, 0);
  const under = document.elementFromPoint(event.clientX, event.clientY);
  if (d.src.matches(".card")) {
    if (under?.closest("[data-discard]")) onHandClick(d.src.dataset.card);
  } else if (under?.closest("[data-my-hand], .seat--me")) {
    const source = d.src.matches("[data-stock]") ? "stock" : "discard";
    if (canDraw(source)) sendAction({ type: "draw", source });
  }
});
window.addEventListener("pointercancel", () => {
  if (drag?.ghost) drag.ghost.remove();
  drag = null;
  root.classList.remove("is-dragging");
});

document.addEventListener("keydown", (event) => {
  if (event.target.closest("input, textarea, select, dialog") || event.metaKey || event.ctrlKey || event.altKey) return;
  const key = event.key.toLowerCase();
  if (key === "escape" && ui.knockMode) { ui.knockMode = false; render(); return; }
  if (key === "arrowleft" || key === "arrowright") {
    const cards = [...root.querySelectorAll("[data-my-hand] .card")];
    const i = cards.indexOf(document.activeElement);
    if (i >= 0) {
      const next = cards[(i + (key === "arrowright" ? 1 : -1) + cards.length) % cards.length];
      next.focus();
      event.preventDefault();
    }
    return;
  }
  const map = { s: () => canDraw("stock") && sendAction({ type: "draw", source: "stock" }),
    d: () => canDraw("discard") && sendAction({ type: "draw", source: "discard" }),
    p: () => canPass() && sendAction({ type: "pass" }),
    k: () => nonGinKnocks().length && doAct("knock"),
    g: () => ginOptions().length && doAct("gin"),
    b: () => canBigGin() && doAct("big-gin") };
  if (map[key]) { map[key](); event.preventDefault(); }
});

// --------------------------------------------------------------------------
// Dialogs and page wiring
// --------------------------------------------------------------------------
document.getElementById("showdown").addEventListener("click", (event) => {
  if (event.target.closest("[data-next-hand]")) closeShowdown();
  else if (event.target.closest("[data-rematch]")) {
    if (ui.msg.match.rematch?.match_id) { location.assign(rematchUrl()); return; }
    sendControl("rematch");
    event.target.closest("[data-rematch]").disabled = true;
  }
});
document.getElementById("showdown").addEventListener("close", () => {
  if (ui.showdownFor) sessionStorage.setItem(dismissedKey, String(ui.showdownFor));
});
root.querySelector("[data-show-result]").addEventListener("click", () => {
  openShowdown((ui.msg.match.hands || []).at(-1)?.number ?? null);
});
const resignDialog = document.getElementById("resign-dialog");
root.querySelector("[data-resign]").addEventListener("click", () => resignDialog.showModal());
resignDialog.addEventListener("close", () => {
  if (resignDialog.returnValue === "resign") sendControl("resign");
});
document.getElementById("conn-retry").addEventListener("click", () => conn.nudge());
window.addEventListener("online", () => conn.nudge());
document.addEventListener("visibilitychange", () => { if (!document.hidden) conn.nudge(); });

conn.connect();
