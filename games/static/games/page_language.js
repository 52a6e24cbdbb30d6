// A page the service worker keeps for offline use (the offline table, the lessons:
// templates/games/sw.js) is the same for every visitor, cached in the language of the
// moment it was fetched. The page's script asks the network who reads it (a JSON that
// is never cached, with the language the server would answer in); when that language
// is another, this asks the worker to fetch this page again, in the reader's language,
// and shows it. The worker keeps the new copy only if it belongs to its own version (a
// page of a newer site waits for the worker's update, as every file does).

/** Bring the cached page to `language` ("es", "pt-br"...) once per visit: nothing if
 * the page is already in it or was not served by the worker. */
export async function keepPageInLanguage(language) {
  if (!language || language === document.documentElement.lang) return;
  const worker = navigator.serviceWorker?.controller;
  if (!worker) return;  // the server's own page, already in the right language
  const asked = `gin-page-language:${location.pathname}:${language}`;
  try {
    if (sessionStorage.getItem(asked)) return;  // asked already: never a reload loop
    sessionStorage.setItem(asked, "1");
  } catch { return; }
  const channel = new MessageChannel();
  const answer = new Promise((resolve) => {
    channel.port1.onmessage = (event) => resolve(event.data);
    setTimeout(() => resolve(null), 15_000);  // a worker that does not answer: keep the page
  });
  worker.postMessage({ type: "refresh-page", url: location.pathname }, [channel.port2]);
  if ((await answer) === "refreshed") location.reload();
}
