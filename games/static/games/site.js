// Small behaviours on every page: the table settings (prefs.js), the browser's time
// zone for the server (the tz cookie), copy buttons, and the
// service worker that makes the site installable and playable offline (/play/offline/).

import "./prefs.js";
import { gettext } from "./i18n.js";

// The browser's time zone, for the server to show times in it (ginsite/i18n.py reads
// the tz cookie; the boards' weeks and months stay UTC). Set when it changes; the
// next page has it.
try {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const current = document.cookie.split("; ").find((c) => c.startsWith("tz="))?.slice(3);
  if (zone && decodeURIComponent(current ?? "") !== zone) {
    document.cookie = `tz=${encodeURIComponent(zone)}; path=/; max-age=31536000; samesite=lax`;
  }
} catch { /* no Intl time zone: UTC */ }

document.addEventListener("click", async (event) => {
  const button = event.target.closest("[data-copy]");
  if (!button) return;
  const input = document.querySelector(button.dataset.copy);
  if (!input) return;
  input.select();
  let copied = false;
  try {
    await navigator.clipboard.writeText(input.value);
    copied = true;
  } catch {
    copied = document.execCommand?.("copy") ?? false;
  }
  const label = button.textContent;
  button.textContent = copied ? gettext("Copied!") : gettext("Select and copy");
  setTimeout(() => { button.textContent = label; }, 1800);
});

// A read-only field to copy by hand (an invite link): a click selects all of it.
document.addEventListener("click", (event) => {
  if (event.target.matches?.("input[data-select-on-click]")) event.target.select();
});

// Under a row of choices (the variant), say what the chosen one means.
function showChoiceHelp(input) {
  const help = input.closest("fieldset")?.querySelector("[data-choice-help]");
  if (!help || !input.dataset.help) return;
  try { help.textContent = JSON.parse(input.dataset.help)[input.value] ?? help.textContent; } catch { /* keep */ }
}
document.querySelectorAll("input[data-help]:checked").forEach(showChoiceHelp);
document.addEventListener("change", (event) => {
  if (event.target.matches?.("input[data-help]")) showChoiceHelp(event.target);
});

// The service worker (games/offline_views.py): once installed, the offline table
// opens with no network, and stands in for any page the network cannot bring.
const swUrl = document.body.dataset.sw;
if (swUrl && "serviceWorker" in navigator) {
  navigator.serviceWorker.register(swUrl, { scope: "/" }).catch(() => { /* unsupported or blocked */ });
}

// Offline matches finished in this browser go to the signed-in account from any page;
// "My matches" shows them at once (one reload after an upload).
async function uploadOfflineMatches() {
  const { accountUrl, uploadUrl, page } = document.body.dataset;
  if (!accountUrl) return;
  const { hasOfflineMatches, syncOfflineMatches } = await import("./offline/sync.js");
  if (!(await hasOfflineMatches())) return;
  const { uploaded } = await syncOfflineMatches({ accountUrl, uploadUrl });
  if (uploaded && page === "my_matches") location.reload();
}
uploadOfflineMatches().catch(() => { /* no IndexedDB, or offline: the next page tries again */ });
