// @ts-check
// The bell in the header (templates/social/_bell.html), live over the page's one socket
// (docs/protocol.md "Notifications"): on the lobby and a tournament's page, their chat
// socket (games/chat.js, whose frames come as "gin:lobby-message" events and which sends
// what "gin:lobby-send" events carry); on any other page that is not a table, the
// notification socket (/ws/notifications/). It keeps the player online for their friends (a ping every 30 s),
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

  // A lobby or tournament chat panel the player reads has its own socket: share it.
  const chatRoom = document.querySelector(
    '[data-chat][data-room="lobby"] [data-chat-log], [data-chat][data-room="tournament"] [data-chat-log]',
  );
  if (chatRoom) {
    document.addEventListener("gin:lobby-message", (event) => {
      const frame = /** @type {CustomEvent} */ (event).detail;
      if (frame && (frame.type === "unread" || frame.type === "notification")) bell.dataset.live = "on";
      onFrame(frame);
    });
    window.setInterval(() => {
      document.dispatchEvent(new CustomEvent("gin:lobby-send", { detail: { type: "ping" }, cancelable: true }));
    }, PING_MS);
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
