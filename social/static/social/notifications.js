// @ts-check
// The bell in the header (templates/social/_bell.html), live over the page's one socket
// (docs/protocol.md "Notifications"). Where the page has a socket of its own (the bell's
// data-notify-socket "page": the lobby's, a tournament's; "table": a seated player's match
// socket), the module that owns it relays its frames as "gin:socket-message" events and
// sends what a "gin:socket-send" event carries (games/chat.js, tournaments/tournament.js,
// games/table.js); on any other page, the notification socket (/ws/notifications/), opened
// here. It keeps the player online for their friends (a ping every 30 s; at a table the seat does),
// keeps the unread count live, and shows each new notification for a while, as a link
// to what it is about. The words come from the server, in the page's language.

const PING_MS = 30_000;
const TOAST_MS = 12_000;

/** @typedef {{ id: number, kind: string, text: string, url: string, created_at: string }} Notice */

function start() {
  const bell = /** @type {HTMLElement | null} */ (document.querySelector("[data-bell][data-notify-socket]"));
  if (!bell) return;
  const count = /** @type {HTMLElement | null} */ (bell.querySelector("[data-unread]"));
  const toast = /** @type {HTMLElement | null} */ (document.querySelector("[data-notify-toast]"));
  const path = bell.dataset.notifySocket || "/ws/notifications/";
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  let retry = 1000;
  /** @type {number | undefined} */
  let hideTimer;

  /** @param {number} unread */
  function showCount(unread) {
    if (!count) return;
    count.textContent = String(unread);
    count.hidden = unread <= 0;
    bell.dataset.unreadCount = String(unread);
  }

  /** @param {Notice} notice */
  function showNotice(notice) {
    if (!toast) return;
    const link = document.createElement("a");
    link.href = notice.url;
    link.textContent = notice.text;
    link.dataset.notification = String(notice.id);
    toast.replaceChildren(link);
    toast.hidden = false;
    window.clearTimeout(hideTimer);
    hideTimer = window.setTimeout(() => { toast.hidden = true; }, TOAST_MS);
  }

  /** @param {any} frame */
  function onFrame(frame) {
    if (!frame || typeof frame !== "object") return;
    if (frame.type === "unread") showCount(Number(frame.unread) || 0);
    if (frame.type === "notification") {
      showCount(Number(frame.unread) || 0);
      showNotice(/** @type {Notice} */ (frame.notification));
    }
  }

  // The page's own socket: share it.
  if (path === "page" || path === "table") {
    document.addEventListener("gin:socket-message", (event) => {
      const frame = /** @type {CustomEvent} */ (event).detail;
      if (frame && (frame.type === "unread" || frame.type === "notification")) bell.dataset.live = "on";
      onFrame(frame);
    });
    if (path === "page") {
      window.setInterval(() => {
        document.dispatchEvent(new CustomEvent("gin:socket-send", { detail: { type: "ping" }, cancelable: true }));
      }, PING_MS);
    }
    return;
  }

  function connect() {
    const socket = new WebSocket(`${scheme}//${location.host}${path}`);
    /** @type {number | undefined} */
    let pinger;
    socket.addEventListener("open", () => {
      retry = 1000;
      bell.dataset.live = "on";
      pinger = window.setInterval(() => socket.send(JSON.stringify({ type: "ping" })), PING_MS);
    });
    socket.addEventListener("message", (message) => {
      let frame;
      try { frame = JSON.parse(String(message.data)); } catch { return; }
      onFrame(frame);
    });
    socket.addEventListener("close", (event) => {
      window.clearInterval(pinger);
      bell.dataset.live = "off";
      if (event.code === 4001) return; // not signed in: nothing to hear
      window.setTimeout(connect, retry);
      retry = Math.min(retry * 2, 30_000);
    });
  }

  connect();
}

start();
