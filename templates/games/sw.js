// The service worker of Gin Rummy Online (games/offline_views.py renders it).
// One cache per version: the offline table, the lessons and every file they load, installed
// together, served only from this version's cache. Pages with account data are never
// cached: navigations other than the offline table go to the network, and only when
// the network fails does the offline table stand in.
const VERSION = "{{ version }}";
const CACHE = `gin-offline-${VERSION}`;
const OFFLINE_URL = {{ offline_url|safe }};
const PRECACHE = {{ precache|safe }};
// Other pages served from the cache like the offline table (the lessons): the same
// for every visitor, never holding account data.
const PAGES = new Set([OFFLINE_URL, ...{{ pages|safe }}]);
const NEVER = new Set({{ never|safe }});
const PRECACHED = new Set(PRECACHE);

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // All or nothing: addAll fails, and this version is not installed, if one file fails.
    await cache.addAll(PRECACHE.map((url) => new Request(url, { cache: "reload", credentials: "same-origin" })));
    // The first version takes over at once; later ones wait for the player (the page
    // offers "Reload"), so that an open page never mixes files of two versions.
    if (!self.registration.active) await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("gin-offline-") && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("message", (event) => {
  if (event.data === "skip-waiting") self.skipWaiting();
  else if (event.data?.type === "refresh-page" && PAGES.has(event.data.url)) {
    event.waitUntil(refreshPage(event.data.url, event.ports[0]));
  }
});

// A kept page in another language than its reader's (games/static/games/page_language.js
// asks): fetched again, kept only if every static file it names is one of this
// version's, so that a page of a newer site never joins this version's files.
const STATIC_URL = {{ static_url|safe }};
async function refreshPage(url, port) {
  let result = "kept";
  try {
    const response = await fetch(new Request(url, { cache: "reload", credentials: "same-origin" }));
    const text = await response.clone().text();
    const files = [...text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1])
      .filter((file) => file.startsWith(STATIC_URL));
    if (response.ok && files.length && files.every((file) => PRECACHED.has(file))) {
      await (await caches.open(CACHE)).put(url, response);
      result = "refreshed";
    }
  } catch { /* no network: the kept copy stays */ }
  port?.postMessage(result);
}

async function fromCache(request, key) {
  const cache = await caches.open(CACHE);
  return (await cache.match(key ?? request)) ?? fetch(request);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || NEVER.has(url.pathname)) return;
  if (request.mode === "navigate") {
    if (PAGES.has(url.pathname)) {
      event.respondWith(fromCache(request, url.pathname));
    } else {
      event.respondWith(fetch(request).catch(async () => {
        const page = await (await caches.open(CACHE)).match(OFFLINE_URL);
        return page ?? Response.error();
      }));
    }
    return;
  }
  if (PRECACHED.has(url.pathname)) event.respondWith(fromCache(request, url.pathname));
});
