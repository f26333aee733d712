// The service worker: the site keeps working without a network. The
// server writes this release's VERSION (a digest of every built-in file)
// and FILES (the page's files) into this script when it serves it at
// /sw.js, so a new release is a new worker: it fetches the new files into
// a cache of its own and waits; the page offers to reload (pwa.js), which
// lets it take over, and the old cache goes.
//
// - The page's files come from the cache (they are this release's).
// - A page address (any: they are all the same page) asks the network and
//   falls back to the cached page, so a screen opens offline.
// - What the rules, lessons and puzzles read (GET /api/board, /api/learn/…)
//   asks the network and keeps each answer, given back when offline.
// - Everything else (games, accounts, live sockets) is the network's.

const VERSION = "__VERSION__";
const FILES = __FILES__;
const CACHE = `punct-${VERSION}`;
const READS = `punct-reads-${VERSION}`;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name !== CACHE && name !== READS) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("message", (event) => {
  if (event.data === "take-over") self.skipWaiting();
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(async () => (await caches.match("/", { cacheName: CACHE })) || Response.error()));
  } else if (url.pathname.startsWith("/static/")) {
    event.respondWith(caches.match(url.pathname, { cacheName: CACHE }).then((hit) => hit || fetch(request)));
  } else if (url.pathname === "/api/board" || url.pathname.startsWith("/api/learn/")) {
    event.respondWith(networkThenKept(request));
  }
});

/** The network's answer (kept when it is a success), else the one kept. */
async function networkThenKept(request) {
  const cache = await caches.open(READS);
  try {
    const answer = await fetch(request);
    if (answer.ok) await cache.put(request, answer.clone());
    return answer;
  } catch (e) {
    const kept = await cache.match(request);
    if (kept) return kept;
    throw e;
  }
}
