// A tournament player's match is ready (docs/protocol.md, "Tournament socket"): the
// tournament's socket, opened again after a lost connection, and the way a page takes
// its player to the table: the tab's title, the "turn" sound, then the table a moment
// later. Shared by the tournament page (tournament.js) and the live table once its
// tournament match is over (games/static/games/table/tournament.js).

import { play } from "/static/games/sound.js";
import { gettext } from "/static/games/i18n.js";

const readyTitle = () => gettext("▶ Your match is ready");
// Long enough to hear the sound and read the prompt; short enough that the player is
// at the table when their turn comes (their clock runs from the start).
const GO_AFTER_MS = 1200;
let goingTo = null;

/** Take the player to their match's table at `url` (once per match). */
export function goToMatch(url) {
  document.title = readyTitle();
  if (goingTo === url) return;
  goingTo = url;
  play("turn");
  setTimeout(() => location.assign(url), GO_AFTER_MS);
}

/** Open the tournament socket at `path` and keep it open: `message(m)` hears each
 *  message, `status(on)` each opening and loss; a refusal (4404) is final. Returns
 *  `send(frame)`, true once the frame is on the open socket. */
export function tournamentSocket(path, { message, status = () => {} }) {
  let delay = 500;
  let socket = null;
  const connect = () => {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}${path}`);
    socket.onopen = () => { delay = 500; status(true); };
    socket.onmessage = (event) => message(JSON.parse(event.data));
    socket.onclose = (event) => {
      status(false);
      if (event.code === 4404) return;
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 10000);
    };
  };
  connect();
  return (frame) => {
    if (!socket || socket.readyState !== WebSocket.OPEN) return false;
    socket.send(JSON.stringify(frame));
    return true;
  };
}
