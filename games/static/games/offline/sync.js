// Uploading finished offline matches (store.js) to the signed-in account: used by the
// offline table and, on every other page, by site.js, so a match played on a train
// reaches "My matches" whichever page the player opens first once back online.
// Protocol: docs/offline.md ("Sync").

import { gettext } from "../i18n.js";
import { allMatches, putMatch } from "./store.js";

function csrfToken() {
  return document.cookie.split("; ").find((c) => c.startsWith("csrftoken="))?.slice("csrftoken=".length) ?? "";
}

/** Who is signed in ({signed_in, name, username}), or null without a network. */
export async function fetchAccount(accountUrl) {
  try {
    const response = await fetch(accountUrl, { credentials: "same-origin", cache: "no-store" });
    return response.ok ? await response.json() : null;
  } catch {
    return null;
  }
}

const pending = (record, account) => record.status === "finished"
  && !["uploaded", "refused"].includes(record.sync?.state)
  && (!record.owner || record.owner === account.username);  // not another account's match

let running = null;

/** Upload every finished match of this account not yet accepted; ``onRecord(record)``
 * after each answer. Resolves to {account, uploaded} (how many the server took). */
export function syncOfflineMatches({ accountUrl, uploadUrl, onRecord = () => {} }) {
  running ??= (async () => {
    const account = await fetchAccount(accountUrl);
    let uploaded = 0;
    if (!account?.signed_in) return { account, uploaded };
    for (const record of await allMatches()) {
      if (!pending(record, account)) continue;
      const { sync: _, owner: __, ...body } = record;
      let response;
      try {
        response = await fetch(uploadUrl, {
          method: "POST",
          credentials: "same-origin",
          headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
          body: JSON.stringify(body),
        });
      } catch {
        break;  // offline again: the next page load or "online" event tries again
      }
      const reply = await response.json().catch(() => ({}));
      if (response.ok) {
        record.sync = { state: "uploaded", match_id: reply.match_id, url: reply.sheet_url };
        uploaded++;
      } else if (response.status === 400) {
        record.sync = { state: "refused", message: reply.error?.message || gettext("refused by the server") };
      } else continue;  // signed out meanwhile, or a server error: try again later
      await putMatch(record);
      onRecord(record);
    }
    return { account, uploaded };
  })().finally(() => { running = null; });
  return running;
}

/** Whether this browser holds offline matches at all (without creating the database). */
export async function hasOfflineMatches() {
  if (!globalThis.indexedDB?.databases) return false;
  return (await indexedDB.databases()).some((db) => db.name === "gin-offline");
}
