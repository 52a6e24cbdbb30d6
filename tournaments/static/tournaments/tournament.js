// The tournament page, live: standings and live matches from /ws/tournament/<id>/
// (docs/protocol.md, "Tournament socket"), and the "your match is ready" prompt
// with a sound. Reconnects after a lost connection. Text is set with textContent.
// A Swiss page lists the current round's pairings; an earlier round's are fetched
// (an HTML fragment of the site's own template) when its section is opened.

import { play } from "/static/games/sound.js";

const config = JSON.parse(document.getElementById("tournament-config").textContent);
const body = document.getElementById("standings-body");
const live = document.getElementById("live-matches");
const ready = document.getElementById("match-ready");
const readyLink = document.getElementById("match-ready-link");
const dot = document.getElementById("t-socket");
const statusBadge = document.getElementById("t-status");
const STATUS = { scheduled: "Upcoming", live: "Live", finished: "Finished", cancelled: "Cancelled" };
let lastVersion = -1;

function cell(text, cls) {
  const td = document.createElement("td");
  td.textContent = text;
  if (cls) td.className = cls;
  return td;
}

// The viewer's row (the page's rows are the same for every viewer).
function markMe() {
  if (!config.userName) return;
  for (const tr of body.querySelectorAll("tr[data-player]")) {
    tr.classList.toggle("t-me", tr.dataset.player === config.userName);
  }
}
markMe();

function fmt(n) {
  return Number.isInteger(n) ? String(n) : n.toFixed(1);
}

function renderStandings(message) {
  if (message.version < lastVersion) return;
  lastVersion = message.version;
  const rows = message.rows.map((r) => {
    const tr = document.createElement("tr");
    tr.dataset.player = r.player;
    tr.append(cell(String(r.rank)));
    const name = cell(r.player);
    if (r.fire) {
      const fire = document.createElement("span");
      fire.className = "t-fire";
      fire.title = "On fire: the next win counts double";
      fire.textContent = " 🔥";
      name.append(fire);
    }
    if (r.status !== "active") {
      const badge = document.createElement("span");
      badge.className = "badge";
      badge.textContent = r.status;
      name.append(" ", badge);
    }
    tr.append(name, cell(fmt(r.points)), cell(`${r.wins}–${r.losses}${r.byes ? ` (+${r.byes} bye)` : ""}`));
    if (config.format === "swiss") for (const tb of r.tiebreaks) tr.append(cell(fmt(tb)));
    return tr;
  });
  body.replaceChildren(...rows);
  markMe();
  const items = message.live.map((m) => {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = m.url;
    a.textContent = `${m.players[0]} – ${m.players[1]}`;
    li.append(a);
    return li;
  });
  if (!items.length) {
    const li = document.createElement("li");
    li.className = "empty";
    li.textContent = "No match in play.";
    items.push(li);
  }
  live.replaceChildren(...items);
  if (statusBadge && STATUS[message.status]) statusBadge.textContent = STATUS[message.status];
  const when = document.getElementById("t-when");
  if (when && when.dataset.status !== message.status) {
    // The start or the end happened while the page was open.
    when.dataset.status = message.status;
    when.textContent = message.status === "live"
      ? (config.format === "swiss" ? `round ${message.round}` : "started: in play now")
      : STATUS[message.status].toLowerCase();
  }
  document.body.dataset.standingsVersion = String(message.version);
}

function matchReady(message) {
  readyLink.href = message.url;
  ready.hidden = false;
  play("turn");
  document.title = "▶ Your match is ready";
}

async function loadRound(details) {
  const box = details.querySelector(".t-round__pairings");
  if (details.dataset.loaded || !box) return;
  details.dataset.loaded = "1";
  const response = await fetch(details.dataset.roundUrl, { credentials: "same-origin" });
  if (!response.ok) {
    delete details.dataset.loaded;
    return;
  }
  const fragment = document.createRange().createContextualFragment(await response.text());
  box.replaceChildren(fragment);
}

for (const details of document.querySelectorAll("details[data-round-url]")) {
  details.addEventListener("toggle", () => { if (details.open) loadRound(details); });
}

let delay = 500;
function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}${config.wsPath}`);
  socket.onopen = () => { delay = 500; dot.dataset.on = "1"; };
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "standings") renderStandings(message);
    else if (message.type === "match_ready") matchReady(message);
  };
  socket.onclose = (event) => {
    dot.dataset.on = "0";
    if (event.code === 4404) return;
    setTimeout(connect, delay);
    delay = Math.min(delay * 2, 10000);
  };
}
connect();
