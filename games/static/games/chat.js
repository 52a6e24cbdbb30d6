// The chat panel (templates/chat/_panel.html): lobby chat over the lobby's socket, which
// this module opens (data-ws-path: /ws/lobby/); table and tournament chat over the
// page's one socket, opened by another module (table.js: the match socket;
// tournaments/tournament.js: /ws/tournament/<id>/). Whoever owns the page's socket
// relays its frames as "gin:socket-message" events and sends what a "gin:socket-send"
// event carries, cancelling the event once sent. Messages are plain text: everything a user wrote is put in
// the page with textContent, never parsed as HTML. While the messages are out of
// sight (below the table on a phone, another tab), a button counts the new ones
// and brings the chat into view.

import { errorSentence } from "./words.js";
import { format, gettext, ngettext, pageLanguage } from "./i18n.js";

const panel = document.querySelector("[data-chat]");
if (panel) mount(panel);

const CHAT_ERRORS = new Set([
  "muted", "rate_limited", "chat_too_long", "chat_empty", "chat_not_allowed", "account_closed",
]);
const CLOSE_FINAL = new Set([4001, 4003]);
// Refusals that are about a frame of ours only while a message of ours is on its way.
const OUR_FRAME_ERRORS = new Set(["not_a_player", "frame_too_large"]);

function mount(root) {
  const $ = (sel) => root.querySelector(sel);
  const log = $("[data-chat-log]");
  if (!log) return;  // the viewer may not read this room
  const notice = $("[data-chat-notice]");
  const form = $("[data-chat-form]");
  const input = $("[data-chat-input]");
  const me = root.dataset.me;
  let waiting = false;  // a message of ours is on its way (to attribute an error to chat)
  // The text of that message: put back in the box if the server refuses it.
  let pendingText = null;
  const maxLength = Number(root.dataset.maxLength) || 0;
  const count = $("[data-chat-count]");
  // The limit comes in sight as the text nears it.
  function showCount() {
    if (!count || !input || !maxLength) return;
    const left = maxLength - input.value.length;
    count.hidden = left > 50;
    count.textContent = left >= 0
      ? format(gettext("%(left)s of %(max)s characters left"), { left, max: maxLength })
      : format(ngettext("%(n)s character over the limit of %(max)s", "%(n)s characters over the limit of %(max)s", -left), { n: -left, max: maxLength });
  }
  input?.addEventListener("input", showCount);
  function restoreText() {
    if (input && pendingText !== null && !input.value) input.value = pendingText;
    pendingText = null;
    showCount();
  }

  const unreadButton = $("[data-chat-unread]");
  let unread = 0;
  let inView = true;
  function setUnread(count) {
    unread = count;
    unreadButton.hidden = count === 0;
    unreadButton.textContent = format(ngettext("Chat: %(n)s new message", "Chat: %(n)s new messages", count), { n: count });
  }
  new IntersectionObserver((entries) => {
    inView = entries.at(-1).isIntersecting;
    if (inView && !document.hidden) setUnread(0);
  }, { threshold: 0.5 }).observe(log);
  document.addEventListener("visibilitychange", () => { if (inView && !document.hidden) setUnread(0); });
  unreadButton.addEventListener("click", () => {
    root.scrollIntoView({ block: "end", behavior: "smooth" });
    (input ?? log).focus({ preventScroll: true });
    setUnread(0);
  });

  // data-state: "connecting" until the history arrives, then "live" ("offline" while
  // the lobby socket reconnects).
  root.dataset.state = "connecting";
  const onOffline = () => { root.dataset.state = "offline"; };
  const transport = root.dataset.wsPath
    ? lobbyTransport(root.dataset.wsPath, onMessage, onOffline)
    : pageTransport(onMessage);

  function showNotice(text, kind = "error") {
    notice.textContent = text;
    notice.dataset.kind = kind;
    notice.hidden = !text;
  }

  function timeOf(iso) {
    const d = new Date(iso);
    return Number.isNaN(d.getTime()) ? "" : d.toLocaleTimeString(pageLanguage(), { hour: "2-digit", minute: "2-digit" });
  }

  function messageItem(m) {
    const li = document.createElement("li");
    li.className = "chat-msg";
    li.dataset.id = String(m.id);
    li.dataset.author = m.author;
    if (m.author === me) li.classList.add("chat-msg--mine");
    const time = document.createElement("time");
    time.className = "chat-msg__time";
    time.dateTime = m.created_at;
    time.textContent = timeOf(m.created_at);
    const who = document.createElement("span");
    who.className = "chat-msg__author";
    who.textContent = m.author;
    const text = document.createElement("span");
    text.className = "chat-msg__text";
    text.textContent = m.text;
    li.append(time, who, text);
    if (me && m.author !== me && m.author !== "deleted player") {
      const tools = document.createElement("span");
      tools.className = "chat-msg__tools";
      tools.append(
        toolButton("⚑", format(gettext("Report this message from %(name)s"), { name: m.author }), "report", () => openReport(m)),
        toolButton("⊘", format(gettext("Block %(name)s"), { name: m.author }), "block", () => block(m)),
      );
      li.append(tools);
    }
    return li;
  }

  function toolButton(symbol, label, kind, onClick) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "chat-tool";
    b.dataset.chatTool = kind;
    b.textContent = symbol;
    b.title = label;
    b.setAttribute("aria-label", label);
    b.addEventListener("click", onClick);
    return b;
  }

  function append(m) {
    if (log.querySelector(`[data-id="${CSS.escape(String(m.id))}"]`)) return;
    const nearBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
    log.append(messageItem(m));
    while (log.children.length > 200) log.firstElementChild.remove();
    if (nearBottom || m.author === me) log.scrollTop = log.scrollHeight;
  }

  function onMessage(data) {
    switch (data.type) {
      case "chat_history":
        log.replaceChildren(...data.messages.map(messageItem));
        log.scrollTop = log.scrollHeight;
        root.dataset.state = "live";
        break;
      case "chat":
        if (data.message.author === me) {
          waiting = false;
          pendingText = null;
          if (notice.dataset.kind === "error") showNotice("");
        }
        append(data.message);
        if (data.message.author !== me && (!inView || document.hidden)) setUnread(unread + 1);
        break;
      case "chat_hidden":
        log.querySelector(`[data-id="${CSS.escape(String(data.id))}"]`)?.remove();
        break;
      case "chat_notice":
        showNotice(data.text, data.code === "unmuted" ? "info" : "error");
        break;
      case "error":
        if (CHAT_ERRORS.has(data.code) || (waiting && OUR_FRAME_ERRORS.has(data.code))) {
          waiting = false;
          // The socket's frame limit is in bytes: say it in the characters of the box.
          showNotice(data.code === "frame_too_large" && maxLength
            ? format(gettext("Your message is too long to send: messages are limited to %(max)s characters. Shorten it, then send it again."), { max: maxLength })
            : data.message || errorSentence(data.code));
          restoreText();
        }
        break;
      default:
        break;
    }
  }

  function send(text) {
    text = text.trim();
    if (!text) return;
    // The box's own limit (its maxlength), for a text that got past it (pasted by a
    // script, say): refused here, the text kept. The server checks again.
    const limit = input && input.maxLength > 0 ? input.maxLength : 0;
    if (limit && text.length > limit) {
      showNotice(format(gettext("Messages are limited to %(max)s characters (yours has %(length)s). Shorten it, then send it again."), { max: limit, length: text.length }));
      return;
    }
    if (!transport.send({ type: "chat", text })) {
      showNotice(gettext("Not connected: your message was not sent."));
      return;
    }
    waiting = true;
    if (input && input.value.trim() === text) {
      pendingText = input.value;
      input.value = "";
      showCount();
    }
  }

  form?.addEventListener("submit", (event) => {
    event.preventDefault();
    send(input.value);
  });
  for (const chip of root.querySelectorAll("[data-chat-quick]")) {
    chip.addEventListener("click", () => send(chip.dataset.chatQuick));
  }

  // --- report and block (HTTP, CSRF-protected) -----------------------------------
  async function post(url, body) {
    const response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRFToken": root.dataset.csrf },
      body: JSON.stringify(body),
      credentials: "same-origin",
    });
    let reply = {};
    try { reply = await response.json(); } catch { reply = { message: gettext("The server did not answer.") }; }
    // A refusal is {"error": {"code", "message"}} (ginsite/errors.py).
    return { ok: response.ok, reply: reply.error ?? reply };
  }

  const dialog = $("[data-chat-report]");
  let reporting = null;
  function openReport(m) {
    reporting = m;
    dialog.querySelector("[data-chat-report-quote]").textContent = `${m.author}: ${m.text}`;
    dialog.querySelector("[data-chat-report-form]").reset();
    dialog.showModal();
  }
  dialog.addEventListener("close", async () => {
    const m = reporting;
    reporting = null;
    if (!m || dialog.returnValue !== "report") return;
    const fields = new FormData(dialog.querySelector("[data-chat-report-form]"));
    const url = root.dataset.reportUrl.replace("/0/report/", `/${encodeURIComponent(m.id)}/report/`);
    const { ok, reply } = await post(url, { reason: fields.get("reason"), comment: fields.get("comment") });
    showNotice(reply.message || (ok ? gettext("Report sent.") : errorSentence(reply.code)), ok ? "info" : "error");
  });

  async function block(m) {
    if (!window.confirm(format(gettext("Block %(name)s? You will no longer see their messages or be paired with them."), { name: m.author }))) return;
    const { ok, reply } = await post(root.dataset.blockUrl, { message: m.id });
    if (ok) {
      for (const li of log.querySelectorAll(".chat-msg")) {
        if (li.dataset.author === m.author) li.remove();
      }
    }
    showNotice(reply.message || "", ok ? "info" : "error");
  }
}

// --- transports ------------------------------------------------------------------

/** The page's one socket, owned by another module (the table's, the tournament's). */
function pageTransport(onMessage) {
  document.addEventListener("gin:socket-message", (event) => onMessage(event.detail));
  return {
    send(obj) {
      const event = new CustomEvent("gin:socket-send", { detail: obj, cancelable: true });
      // The socket's owner cancels the event once the frame is on an open socket.
      return !document.dispatchEvent(event);
    },
  };
}

/** The lobby's socket, opened here and the page's one socket (its frames relayed as
 *  "gin:socket-message", "gin:socket-send" sent on it), reconnecting with backoff (not
 *  after a ban or sign-out). */
function lobbyTransport(path, onMessage, onOffline) {
  const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${path}`;
  let ws = null;
  let attempt = 0;
  function connect() {
    ws = new WebSocket(url);
    ws.addEventListener("open", () => { attempt = 0; });
    ws.addEventListener("message", (event) => {
      let data;
      try { data = JSON.parse(event.data); } catch { return; }
      onMessage(data);
      // The lobby's other listeners (challenges.js: challenges to the player, live;
      // the bell, social/notifications.js).
      document.dispatchEvent(new CustomEvent("gin:socket-message", { detail: data }));
    });
    ws.addEventListener("close", (event) => {
      onOffline();
      if (CLOSE_FINAL.has(event.code)) return;
      const delay = Math.min(15000, 500 * 2 ** attempt) * (0.75 + Math.random() * 0.5);
      attempt += 1;
      setTimeout(connect, delay);
    });
  }
  connect();
  // The bell (social/notifications.js) shares this socket: its pings come this way.
  document.addEventListener("gin:socket-send", (event) => {
    if (ws && ws.readyState === WebSocket.OPEN) {
      ws.send(JSON.stringify(event.detail));
      event.preventDefault();
    }
  });
  return {
    send(obj) {
      if (!ws || ws.readyState !== WebSocket.OPEN) return false;
      ws.send(JSON.stringify(obj));
      return true;
    },
  };
}
