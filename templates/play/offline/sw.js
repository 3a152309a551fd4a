{% autoescape off %}// The service worker (club/play/views/offline.py): table pages and their static files, offline.
"use strict";
const ASSETS = {{ assets }};
const CACHE = "solo-shell-" + {{ version }};
// Pages worth keeping for offline use: a table's sheet and entry form, by login or table link.
const TABLE_PAGE = /^\/(c\/[^/]+\/tables\/\d+|t\/[^/]+)\/$/;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(ASSETS)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(
        names.filter((n) => n.startsWith("solo-shell-") && n !== CACHE).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()));
});

function fromNetworkThenCache(request) {
  // The page as the server has it now; the copy kept from the last visit when offline.
  return fetch(request).then((response) => {
    if (response.ok) {
      const copy = response.clone();
      caches.open(CACHE).then((cache) => cache.put(request.url, copy));
    }
    return response;
  }).catch(() => caches.match(request.url).then((kept) => kept || Response.error()));
}

function fromCacheThenRefresh(request) {
  // Static files: at once from the cache, refreshed behind the scenes for next time.
  return caches.open(CACHE).then((cache) => cache.match(request).then((kept) => {
    const fresh = fetch(request).then((response) => {
      if (response.ok) cache.put(request, response.clone());
      return response;
    });
    if (kept) {
      fresh.catch(() => null);
      return kept;
    }
    return fresh;
  }));
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;  // saves go straight to the server (or the page's queue)
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && TABLE_PAGE.test(url.pathname)) {
    event.respondWith(fromNetworkThenCache(request));
  } else if (ASSETS.includes(url.pathname)) {
    event.respondWith(fromCacheThenRefresh(request));
  }
});
{% endautoescape %}
