// The tournament page, live: standings and live matches from /ws/tournament/<id>/
// (docs/protocol.md, "Tournament socket"), and "your match is ready": a sound, the
// tab's title, and the player taken to the table. Reconnects after a lost connection. Text is set with textContent.
// That socket is the page's one socket: it also carries the tournament's chat and the
// header's bell, whose modules (games/chat.js, social/notifications.js) hear every frame
// as a "gin:socket-message" event and send theirs as "gin:socket-send" events.
// A Swiss page lists the current round's pairings, live from the same messages; an
// earlier round's are fetched (an HTML fragment of the site's own template) when its
// section is opened.

import { goToMatch, tournamentSocket } from "./match_ready.js";
import { format, gettext, ngettext, pgettext } from "/static/games/i18n.js";

const config = JSON.parse(document.getElementById("tournament-config").textContent);
const body = document.getElementById("standings-body");
const live = document.getElementById("live-matches");
const ready = document.getElementById("match-ready");
const readyLink = document.getElementById("match-ready-link");
const dot = document.getElementById("t-socket");
const statusBadge = document.getElementById("t-status");
const STATUS = {
  scheduled: pgettext("tournament", "Upcoming"), live: pgettext("tournament", "Live"),
  finished: pgettext("tournament", "Finished"), cancelled: pgettext("tournament", "Cancelled"),
};
/** An entrant's status, as its badge says it. */
const entrantStatus = (status) => ({
  paused: pgettext("entrant", "paused"), withdrawn: pgettext("entrant", "withdrawn"),
  removed: pgettext("entrant", "removed"),
})[status] ?? status;
let lastVersion = -1;

function cell(text, cls) {
  const td = document.createElement("td");
  td.textContent = text;
  if (cls) td.className = cls;
  return td;
}

function badge(text) {
  const span = document.createElement("span");
  span.className = "badge";
  span.textContent = text;
  return span;
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
      fire.title = gettext("On fire: the next win counts double");
      fire.textContent = " 🔥";
      name.append(fire);
    }
    if (r.status !== "active") name.append(" ", badge(entrantStatus(r.status)));
    const byes = r.byes ? ` ${format(ngettext("(+%(n)s bye)", "(+%(n)s byes)", r.byes), { n: r.byes })}` : "";
    tr.append(name, cell(fmt(r.points)), cell(`${r.wins}–${r.losses}${byes}`));
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
    li.textContent = gettext("No match in play.");
    items.push(li);
  }
  live.replaceChildren(...items);
  if (statusBadge && STATUS[message.status]) statusBadge.textContent = STATUS[message.status];
  const when = document.getElementById("t-when");
  if (when && when.dataset.status !== message.status) {
    // The start or the end happened while the page was open.
    when.dataset.status = message.status;
    if (message.status === "live" && message.ends_at) {
      // An arena: the time left, counted down (countdown.js ticks every such element).
      const time = document.createElement("time");
      time.dateTime = message.ends_at;
      time.dataset.countdown = "";
      time.textContent = new Date(message.ends_at).toUTCString();
      when.replaceChildren(gettext("ends "), time);
    } else {
      when.textContent = message.status === "live"
        ? (config.format === "swiss" ? format(gettext("round %(number)s"), { number: message.round }) : gettext("started: in play now"))
        : STATUS[message.status].toLowerCase();
    }
  }
  if (message.status !== "scheduled" && message.status !== "live" && dot) dot.remove();
  renderPairings(message);
  document.body.dataset.standingsVersion = String(message.version);
}

const currentRound = document.getElementById("t-current-round");
const currentPairings = document.getElementById("current-pairings");
const earlierRounds = document.getElementById("earlier-rounds");

// One line of tournaments/_pairings.html, from a message's pairing.
function pairingItem(p) {
  const li = document.createElement("li");
  if (!p.seat1) {
    li.append(`${p.seat0} `, badge(gettext("bye")));
    return li;
  }
  const names = [p.seat0, p.seat1].map((name, seat) => {
    const span = document.createElement("span");
    span.textContent = name;
    if (p.winner === seat) span.className = "t-won";
    return span;
  });
  li.append(names[0], " – ", names[1]);
  if (p.finished) {
    li.append(" ", badge(p.winner === 0 ? "1–0" : "0–1"));
  } else if (p.url) {
    const watch = document.createElement("a");
    watch.href = p.url;
    watch.textContent = gettext("watch");
    li.append(" ", watch);
  }
  return li;
}

// A round that just ended joins the earlier rounds (its pairings fetched when opened).
function addEarlierRound(number) {
  const url = config.roundUrl.replace(/\/0\/(\?|$)/, `/${number}/$1`);
  const details = document.createElement("details");
  details.className = "t-round";
  details.dataset.roundUrl = url;
  const summary = document.createElement("summary");
  summary.textContent = format(gettext("Round %(number)s"), { number });
  const box = document.createElement("div");
  box.className = "t-round__pairings";
  const link = document.createElement("a");
  link.href = url;
  link.textContent = format(gettext("Show the pairings of round %(number)s"), { number });
  box.append(link);
  details.append(summary, box);
  watchRound(details);
  earlierRounds.prepend(details);
}

function renderPairings(message) {
  if (!currentPairings || !message.round || !Array.isArray(message.pairings)) return;
  const shown = Number(currentRound.dataset.round);
  if (shown && shown !== message.round) addEarlierRound(shown);
  currentRound.dataset.round = String(message.round);
  currentRound.textContent = format(gettext("Round %(number)s"), { number: message.round });
  const list = document.createElement("ul");
  list.className = "t-pairings";
  list.append(...message.pairings.map(pairingItem));
  currentPairings.replaceChildren(list);
  document.getElementById("t-rounds").hidden = false;
  const roundOf = document.getElementById("t-round");
  if (roundOf) roundOf.textContent = String(message.round);
}

// A player's match is ready: the page says so (the tab's title too), plays the "turn"
// sound and takes the player to the table a moment later (match_ready.js), so that a
// player who waits here as told is at the table when their turn comes.
function matchReady(message) {
  readyLink.href = message.url;
  ready.hidden = false;
  const text = document.getElementById("match-ready-text");
  if (text) text.textContent = gettext("Your match is ready: taking you to the table…");
  goToMatch(message.url);
}

// The page was opened while the viewer's match is in play: to the table at once.
if (!ready.hidden && readyLink.getAttribute("href")) {
  matchReady({ url: readyLink.getAttribute("href") });
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

function watchRound(details) {
  details.addEventListener("toggle", () => { if (details.open) loadRound(details); });
}
document.querySelectorAll("details[data-round-url]").forEach(watchRound);

const send = tournamentSocket(config.wsPath, {
  message(message) {
    if (message.type === "standings") renderStandings(message);
    else if (message.type === "match_ready") matchReady(message);
    document.dispatchEvent(new CustomEvent("gin:socket-message", { detail: message }));
  },
  status(on) { if (dot) dot.dataset.on = on ? "1" : "0"; },
});
document.addEventListener("gin:socket-send", (event) => {
  if (send(event.detail)) event.preventDefault();
});
