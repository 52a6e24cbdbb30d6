// @ts-check
// The live table's WebSocket (docs/protocol.md): one per match page, reconnecting with
// backoff; every (re)connect gets a full state from the server, so nothing needs
// replaying on our side. The entry (table.js) sets its handlers and connects.

import { config } from "./state.js";

/**
 * What the page does with the socket: each frame the server sends, and each change of
 * the connection ("connecting", "online", "reconnecting" with its delay in ms,
 * "refused" with the close code).
 * @typedef {object} Handlers
 * @property {(frame: import("../wire.js").MatchSocketFrame) => void} message
 * @property {(status: string, detail?: number) => void} status
 */

// --------------------------------------------------------------------------
// Connection: reconnects with exponential backoff; every (re)connect gets a
// full state from the server, so nothing needs replaying on our side.
// --------------------------------------------------------------------------
export class Connection {
  /** @param {string} url @param {Handlers} handlers */
  constructor(url, handlers) {
    this.url = url;
    this.handlers = handlers;
    this.attempt = 0;
    /** @type {number | undefined} */
    this.timer = undefined;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.closedByUs = false;
  }

  connect() {
    clearTimeout(this.timer);
    this.timer = undefined;
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

  /** @param {import("../wire.js").MatchClientFrame} obj @returns {boolean} sent */
  send(obj) {
    if (!this.open || !this.ws) return false;
    this.ws.send(JSON.stringify(obj));
    return true;
  }
}

const wsUrl = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${config.wsPath}`;
export const conn = new Connection(wsUrl, { message: () => {}, status: () => {} });
