// Countdowns: every <time data-countdown datetime="..."> shows "in 4 min 05 s"
// until its time, then "now". Ticks once a second.

import { format, gettext } from "/static/games/i18n.js";

function left(ms) {
  if (ms <= 0) return gettext("now");
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, "0");
  if (h >= 24) return format(gettext("in %(d)s d %(h)s h"), { d: Math.floor(h / 24), h: h % 24 });
  if (h > 0) return format(gettext("in %(h)s h %(m)s min"), { h, m: String(m).padStart(2, "0") });
  return format(gettext("in %(m)s min %(s)s s"), { m, s: sec });
}

export function tick(now = Date.now()) {
  for (const el of document.querySelectorAll("time[data-countdown]")) {
    const at = Date.parse(el.getAttribute("datetime"));
    if (!Number.isNaN(at)) {
      el.textContent = left(at - now);
      el.title = new Date(at).toUTCString();
    }
  }
}

tick();
setInterval(tick, 1000);
