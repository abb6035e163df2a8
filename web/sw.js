// sw.js — the course works offline after the first visit.
//
// The site assembler (scripts/assemble_site.mjs) writes BUILD below: `version`, a hash of every file of the
// site, and `files`, every file relative to this script. A deploy that changes any file changes these bytes, so
// the browser installs the new worker, which caches the whole new site under its own name before it takes
// over; the old cache is deleted when the new worker activates. It waits for that until the learner accepts
// the update (web/lesson/offline.js shows "Reload to use it"), so one page never mixes two versions' files.
//
// Everything is relative to the worker's own scope, the folder it is served from, so the site works under
// any base path (a GitHub Pages project site is served under /<repository>/). Cache names include the scope:
// two copies of the course on one origin keep separate caches. Requests are answered from the cache first,
// then from the network; "week1/" is looked up as "week1/index.html", and "week1" (no slash) is redirected to "week1/".
const BUILD = { version: "source", files: [] };

const scope = () => self.registration.scope;
const cacheName = () => `dsml ${scope()} ${BUILD.version}`;
const ours = (name) => name.startsWith(`dsml ${scope()} `);

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(cacheName()).then((cache) =>
    // cache: "reload" — fetched from the server, not from the browser's HTTP cache (which may hold the old deploy).
    cache.addAll(BUILD.files.map((file) => new Request(new URL(file, scope()), { cache: "reload" })))));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    await Promise.all(names.filter((name) => ours(name) && name !== cacheName()).map((name) => caches.delete(name)));
    await self.clients.claim();
  })());
});

// A page asks the waiting new version to take over (the learner pressed "Reload to use it").
self.addEventListener("message", (event) => {
  if (event.data?.type === "skip-waiting") self.skipWaiting();
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || !request.url.startsWith(scope())) return;
  event.respondWith(cacheFirst(request));
});

async function cacheFirst(request) {
  const url = new URL(request.url);
  const search = url.search;
  url.search = "";
  url.hash = "";
  if (url.pathname.endsWith("/")) url.pathname += "index.html";
  const cached = await caches.match(url.href, { cacheName: cacheName() });
  if (cached) return cached;
  // A folder's URL without its slash (…/lessons/week6): redirected to the slash form, as the server (GitHub Pages)
  // does online, so the page's relative imports resolve; offline the server cannot say so, the cache can.
  if (!url.pathname.endsWith("/") && !/\.[a-z0-9]+$/i.test(url.pathname)) {
    const index = new URL(`${url.pathname}/index.html`, url);
    if (await caches.match(index.href, { cacheName: cacheName() })) {
      return Response.redirect(`${url.origin}${url.pathname}/${search}`, 301);
    }
  }
  return fetch(request);
}
