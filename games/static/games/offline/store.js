// Offline matches kept in this browser (IndexedDB database "gin-offline", store
// "matches", one record per match keyed by its id). A record is what the server's
// upload re-plays: rules, first dealer, and per hand its seed and every action.

const DB = "gin-offline";
const STORE = "matches";

function open() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: "id" });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

let dbPromise = null;
const db = () => (dbPromise ??= open());

async function run(mode, work) {
  const database = await db();
  return new Promise((resolve, reject) => {
    const tx = database.transaction(STORE, mode);
    const result = work(tx.objectStore(STORE));
    tx.oncomplete = () => resolve(result.result);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

/** Write a match record (a structured clone: later changes need another put). */
export const putMatch = (record) => run("readwrite", (store) => store.put(record));

/** Every stored match, newest first. */
export async function allMatches() {
  const records = await run("readonly", (store) => store.getAll());
  return records.sort((a, b) => (b.created_at || "").localeCompare(a.created_at || ""));
}
