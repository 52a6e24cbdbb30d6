// Countdowns: every <time data-countdown datetime="..."> shows "in 4 min 05 s"
// until its time, then "now". Ticks once a second.

function format(ms) {
  if (ms <= 0) return "now";
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, "0");
  if (h >= 24) return `in ${Math.floor(h / 24)} d ${h % 24} h`;
  if (h > 0) return `in ${h} h ${String(m).padStart(2, "0")} min`;
  return `in ${m} min ${sec} s`;
}

export function tick(now = Date.now()) {
  for (const el of document.querySelectorAll("time[data-countdown]")) {
    const at = Date.parse(el.getAttribute("datetime"));
    if (!Number.isNaN(at)) {
      el.textContent = format(at - now);
      el.title = new Date(at).toUTCString();
    }
  }
}

tick();
setInterval(tick, 1000);
