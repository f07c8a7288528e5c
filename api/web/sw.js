// The service worker of the browser client (served at /sw.js by api/web/__init__.py, which
// fills in the shell's version and its files).
//
// It caches the app shell — the client's own files under /static/ — in a cache named after the
// shell's version, and serves them from there. It never touches the API: /v1/… and
// /openapi.json always go to the network, as does the page itself; when the network is down,
// a page request gets the offline page instead. A new version installs beside the old one,
// takes over at once and deletes the old cache; the page reloads into it (static/update.js).

const VERSION = "__SHELL_VERSION__";
const CACHE = `wt-shell-${VERSION}`;
const PREFIX = "wt-shell-";
const FILES = __SHELL_FILES__;
const OFFLINE = "/static/offline.html";

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      // Past the HTTP cache: the files of this version, not whatever an older one left there.
      await cache.addAll(FILES.map((url) => new Request(url, { cache: "reload" })));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

// The page asks which version serves it (update.js).
self.addEventListener("message", (event) => {
  if (event.data === "version" && event.ports[0]) event.ports[0].postMessage(VERSION);
});

function isApi(url) {
  return url.pathname.startsWith("/v1/") || url.pathname === "/v1" || url.pathname === "/openapi.json";
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || isApi(url)) return; // the network's, untouched
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(() => offline()));
    return;
  }
  if (!url.pathname.startsWith("/static/")) return;
  event.respondWith(
    (async () => {
      const cache = await caches.open(CACHE);
      const hit = await cache.match(request, { ignoreSearch: true });
      return hit || fetch(request);
    })(),
  );
});

async function offline() {
  const cache = await caches.open(CACHE);
  return (await cache.match(OFFLINE)) || new Response("offline", { status: 503, headers: { "Content-Type": "text/plain" } });
}
