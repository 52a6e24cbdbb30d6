// The lobby while its player waits in the quick-match queue (templates/home.html):
// ask every 2 s whether a match was found, and go to its table; back in the lobby's
// own state ("idle": the wait ended without a match), reload.
const waiting = document.querySelector("[data-quick-waiting]");
if (waiting) {
  const poll = async () => {
    try {
      const res = await fetch(waiting.dataset.statusUrl, { credentials: "same-origin" });
      const status = await res.json();
      if (status.url) { location.assign(status.url); return; }
      if (status.state === "idle") { location.reload(); return; }
    } catch { /* try again */ }
    setTimeout(poll, 2000);
  };
  setTimeout(poll, 2000);
}
