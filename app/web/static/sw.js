// The site with no signal (app/web/offline.py says what is kept and why).
// Pages: the network first, so a player sees the current build; every page that arrives is kept, and
// with no network the kept copy answers (or /offline, which says what still works). The card-name
// typeahead (/api/cards/autocomplete) is answered from the kept name list when the server is out of reach.
// A search results page once seen is kept like any page; a new search, the sandbox and every POST need the server.
"use strict";

var PAGES = "pages-v1";          // pages and static files, kept by URL
var NAMES = "/offline/names.json";
var KEPT = "/offline/kept";      // a note of the last "Keep all rules offline": {pages, bytes, at}
var SHELL = ["/", "/offline", NAMES, "/manifest.webmanifest", "/static/site.css", "/static/site.js",
             "/static/favicon.svg", "/static/icon-192.png"];
var SERVER_ONLY = /^\/(api\/(?!cards\/autocomplete)|try(\/|$)|search\/dispute|offline\/pages\.json)/;

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(PAGES).then(function (cache) { return cache.addAll(SHELL); })
    .then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (k) { return k !== PAGES; }).map(function (k) { return caches.delete(k); }));
  }).then(function () { return self.clients.claim(); }));
});

function keep(request, response) {
  if (response && response.ok && response.type === "basic") {
    var copy = response.clone();
    caches.open(PAGES).then(function (cache) { return cache.put(request, copy); });
  }
  return response;
}

function kept(request) {
  return caches.match(request, { ignoreVary: true, ignoreSearch: false });
}

// A page answered from the phone rather than the server shows the notice of what still works (the page's
// own script cannot tell: a browser may still say it is online when only the server is out of reach).
var NOTICE = 'class="offline-notice" role="status" hidden>';

function marked(r) {
  if (!r || (r.headers.get("Content-Type") || "").indexOf("text/html") !== 0) return r;
  return r.text().then(function (html) {
    var headers = new Headers(r.headers);
    headers.delete("Content-Encoding");
    headers.delete("Content-Length");
    return new Response(html.replace(NOTICE, NOTICE.replace(" hidden>", ">")), { status: r.status, headers: headers });
  });
}

function offlinePage() {
  return kept("/offline").then(marked).then(function (r) {
    return r || new Response("No signal, and this page was not kept offline.", {
      status: 503, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  });
}

// ---- card names with no network: the same forms the server matches, without its typo correction
function norm(s) {
  return String(s || "").normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
    .replace(/['\u2019\u2018`]/g, "").replace(/[^a-z0-9]+/g, " ").trim();
}

function hit(f, how) {
  return { slug: f[1].slice("/cards/".length), name: f[4], how: how || f[2], matched: f[3], url: f[1],
           api_url: "/api" + f[1] };
}

function autocomplete(url) {
  var q = norm(url.searchParams.get("q"));
  var limit = Math.max(1, Math.min(20, parseInt(url.searchParams.get("limit"), 10) || 10));
  return kept(NAMES).then(function (r) { return r ? r.json() : []; }).then(function (forms) {
    var exact = null, starts = [], inside = [];
    forms.forEach(function (f) {
      var key = f[0];
      if (!q) return;
      if (key === q || (f[2] === "abbreviation" && key === q.replace(/ /g, ""))) {
        if (!exact) exact = hit(f, f[2] === "exact" ? "exact" : f[2]);
      }
      if (key.indexOf(q) === 0) starts.push(f);
      else if ((" " + key).indexOf(" " + q) >= 0) inside.push(f);
    });
    var byLength = function (a, b) { return a[3].length - b[3].length || (a[3] < b[3] ? -1 : 1); };
    var seen = {}, data = [];
    starts.sort(byLength).concat(inside.sort(byLength)).forEach(function (f) {
      if (!seen[f[1]] && data.length < limit) { seen[f[1]] = true; data.push(hit(f)); }
    });
    return new Response(JSON.stringify({ query: url.searchParams.get("q"), data: data, exact: exact }), {
      headers: { "Content-Type": "application/json", "X-Offline": "1" } });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname === "/api/cards/autocomplete") {
    event.respondWith(fetch(request).catch(function () { return autocomplete(url); }));
    return;
  }
  if (SERVER_ONLY.test(url.pathname)) {
    if (request.mode === "navigate") event.respondWith(fetch(request).catch(offlinePage));
    return;
  }
  // a page asks the server each time (a 304 when unchanged), so "no signal" is noticed even while the
  // browser's own cache still holds the page; the kept copy answers then
  var asked = request.mode === "navigate"
    ? fetch(request.url, { cache: "no-cache", redirect: "manual", credentials: "same-origin" }) : fetch(request);
  event.respondWith(asked.then(function (response) { return keep(request, response); })
    .catch(function () {
      return kept(request).then(function (r) {
        if (r) return request.mode === "navigate" ? marked(r) : r;
        return request.mode === "navigate" ? offlinePage() : Response.error();
      });
    }));
});

// "Keep all rules offline" (site.js asks): fetch every listed page into the cache, a few at a time,
// reporting progress to the pages that are open; the bytes counted are those kept on the phone.
var keeping = null;

function tell(message) {
  return self.clients.matchAll({ includeUncontrolled: true }).then(function (list) {
    list.forEach(function (c) { c.postMessage(message); });
  });
}

function keepAll() {
  return fetch("/offline/pages.json", { cache: "no-store" }).then(function (r) { return r.json(); })
    .then(function (list) {
      var urls = list.static.concat([list.names], list.pages);
      var done = 0, bytes = 0, failed = 0, next = 0;
      return caches.open(PAGES).then(function (cache) {
        function worker() {
          if (next >= urls.length) return Promise.resolve();
          var u = urls[next++];
          return fetch(u, { cache: "no-cache" }).then(function (r) {
            if (!r.ok) { failed++; return; }
            return r.clone().arrayBuffer().then(function (buf) {
              bytes += buf.byteLength;
              return cache.put(u, r);
            });
          }).catch(function () { failed++; }).then(function () {
            done++;
            if (done % 50 === 0 || done === urls.length) tell({ kind: "keep-progress", done: done, total: urls.length, bytes: bytes });
            return worker();
          });
        }
        return Promise.all([worker(), worker(), worker(), worker()]).then(function () {
          var note = { pages: done - failed, failed: failed, total: urls.length, bytes: bytes, at: new Date().toISOString() };
          return cache.put(KEPT, new Response(JSON.stringify(note), { headers: { "Content-Type": "application/json" } }))
            .then(function () { return note; });
        });
      });
    });
}

self.addEventListener("message", function (event) {
  if (!event.data || event.data.kind !== "keep-all") return;
  if (!keeping) {
    keeping = keepAll().then(function (note) { keeping = null; return tell({ kind: "keep-done", note: note }); },
                             function (err) { keeping = null; return tell({ kind: "keep-failed", message: String(err) }); });
  }
  event.waitUntil(keeping);
});
