// The table settings of a visitor or a guest, applied before the first paint: a
// classic (blocking) script in the <head> of every page, the offline table's too.
// The browser keeps them in localStorage "gin-prefs" as the <html> attributes of
// accounts/display.py ({"card-size": "huge", "theme": "contrast", ...}); a registered
// player's are rendered by the server (<html data-prefs="account">) and left alone.
// prefs.js writes them (the settings page, and a copy of an account's on each page).
{
  const root = document.documentElement;
  const NAMES = [
    "card-size", "card-style", "suits", "card-back", "theme", "motion", "sound", "volume",
    "hand-sort", "hand", "confirm-discard",
  ];
  if (root.dataset.prefs !== "account") {
    try {
      const saved = JSON.parse(localStorage.getItem("gin-prefs") || "{}");
      const old = localStorage.getItem("gin-suits");  // the footer's switch, before
      if (old && !saved.suits) saved.suits = old;
      for (const name of NAMES) {
        const value = saved[name];
        if (typeof value === "string" && /^[a-z0-9]{1,12}$/.test(value)) root.setAttribute(`data-${name}`, value);
      }
    } catch { /* private mode, or nothing kept: the page as it was sent */ }
  }
}
