// Results as you type: fetch /api/search and render the same grouping as the server page.
// Without JavaScript the search box is a plain GET form, so this only adds speed.
(function () {
  "use strict";
  var form = document.querySelector("form[data-live]");
  var out = document.getElementById("results");
  if (!form || !out || !window.fetch) return;
  var input = form.querySelector("input[name=q]");
  var timer = null, seq = 0;

  function esc(s) {
    return String(s == null ? "" : s).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }
  // A card's text with its dividing lines ("-----") drawn as a rule, as the server's card_text filter does.
  function cardText(s) {
    return esc(s).split("\n").map(function (line) {
      return /^\s*-{3,}\s*$/.test(line) ? '<hr class="divider">' : line;
    }).join("\n").replace(/\n?(<hr class="divider">)\n?/g, "$1");
  }
  // Snippets arrive with <mark> around matches and everything else escaped by the server.
  function snippet(s) {
    return esc(s).replace(/&lt;mark&gt;/g, "<mark>").replace(/&lt;\/mark&gt;/g, "</mark>")
      .replace(/&amp;(amp|lt|gt|quot|#39|#x27);/g, "&$1;");
  }
  // A card's cost as the server's cost macro (templates/_macros.html) shows it: $4, $2 potion, 8 debt.
  function cost(f) {
    if (f.cost_coins == null && !f.cost_debt && !f.cost_potion) return "";
    var html = '<span class="cost" title="cost">';
    if (f.cost_coins || !(f.cost_debt || f.cost_potion)) html += '<span class="coin">$' + esc(f.cost_coins || 0) + "</span>";
    if (f.cost_potion) html += '<span class="potion">potion</span>';
    if (f.cost_debt) html += '<span class="debt">' + esc(f.cost_debt) + " debt</span>";
    return " " + html + "</span>";
  }
  function render(res) {
    var html = [];
    if (res.cards && res.cards.length) {
      html.push('<p class="small recognised">Recognised: ' + res.cards.map(function (c) {
        return '<a href="/cards/' + esc(c.slug) + '">' + esc(c.name) + "</a>" +
          (c.how !== "exact" ? ' <span class="how">(' + esc(c.how) + " match for “" + esc(c.matched) + "”)</span>" : "");
      }).join(", ") + "</p>");
    }
    if (!res.results || !res.results.length) {
      html.push('<p class="empty">No results' + (res.reason ? ": " + esc(res.reason) : "") + ".</p>");
    }
    function more(list) {  // other paragraphs of the same section, folded into one result by the search
      if (!list || !list.length) return "";
      var quoted = list.filter(function (m) { return m.snippet; }).map(function (m) {
        return '<p class="snippet sibling"><a href="' + esc(m.url) + '">¶</a> ' + snippet(m.snippet) + "</p>";
      }).join("");
      var links = list.filter(function (m) { return !m.snippet; });
      return quoted + (links.length ? '<p class="small more">Also: ' + links.map(function (m) {
        return '<a href="' + esc(m.url) + '">' + esc(m.title) + "</a>";
      }).join(" · ") + "</p>" : "");
    }
    (res.groups || []).forEach(function (g) {
      html.push('<section class="group"><h2><a href="' + esc(g.url) + '">' + esc(g.title) + "</a></h2>");
      var factsShown = false;  // a card's facts once per group, like the server-rendered page
      res.results.forEach(function (item) {
        if (g.ranks.indexOf(item.rank) < 0) return;
        if (item.facts && !factsShown) {
          factsShown = true;
          var f = item.facts;
          html.push('<div class="cardhit"><p><strong><a href="/cards/' + esc(item.card) + '">' + esc(f.name) +
            "</a></strong>" + cost(f) + " · " + esc((f.types || []).join(" – ")) + " · " + esc(f.set) +
            (f.german_name ? ' · <span lang="de">' + esc(f.german_name) + "</span>" : "") + "</p>" +
            (f.text ? '<p class="cardtext">' + cardText(f.text) + "</p>" : "") + "</div>");
        }
        if (item.facts && item.kind === "card" && item.key === item.card) return;  // the card box is this card
        // as _results.html renders it, so that Back to a page first shown here lands on the same place
        var title = item.title !== g.title ? " " + esc(item.title) : "";   // the group heading already says it
        var quoted = function (t) { t = String(t || "").trim(); return /^[“"‘'].*[”"’']$/.test(t) ? t : "“" + t + "”"; };
        var old = item.superseded;
        html.push('<div class="hit"><a class="hittitle" href="' + esc(item.url) + '"><span class="kind">' +
          esc(String(item.kind).replace(/_/g, " ")) + "</span>" + title + "</a>" +
          (item.previous_version ? '<p class="small oldversion">' + esc(item.previous_version) + "</p>" : "") +
          (item.answers ? '<p class="small answers">Answers ' + esc(quoted(item.answers)) + "</p>" : "") +
          (old ? '<p class="superseded"><strong>Out of date.</strong> ' + esc(old.note) + (old.by && old.by.length ? " Complete Rules: " +
            old.by.map(function (b) { return '<a href="' + esc(b.url) + '">' + esc(b.title) + "</a>"; }).join(" · ") : "") + "</p>" : "") + (item.settles ? '<p class="snippet settles">' + esc(item.settles) + "</p>"
          : '<p class="snippet">' + snippet(item.snippet) + "</p>") + more(item.more) + "</div>");
      });
      html.push("</section>");
    });
    out.innerHTML = html.join("");
  }
  // The server's "played out" box (scenarios with the recognised cards, "Try it in the sandbox"),
  // placed where the server-rendered page has it: after the recognised names.
  function played(q, mine) {
    fetch("/search/dispute?q=" + encodeURIComponent(q))
      .then(function (r) { return r.ok ? r.text() : ""; })
      .then(function (html) {
        if (mine !== seq || !html.trim()) return;
        var after = out.querySelector(".recognised");
        var box = document.createElement("div");
        box.innerHTML = html;
        var node = box.firstElementChild;
        if (after) after.insertAdjacentElement("afterend", node); else out.insertBefore(node, out.firstChild);
      })
      .catch(function () { /* the results stand without it */ });
  }
  function run() {
    var q = input.value.trim();
    var mine = ++seq;
    if (!q) {                                  // a cleared box clears the results and the address
      out.innerHTML = "";
      history.replaceState(null, "", "/search");
      return;
    }
    fetch("/api/search?limit=20&q=" + encodeURIComponent(q), { headers: { Accept: "application/json" } })
      .then(function (r) { return r.json(); })
      .then(function (res) {
        if (mine !== seq) return;               // a newer keystroke won
        if (res.status && res.code) { out.innerHTML = '<p class="error">' + esc(res.message) + "</p>"; return; }
        render(res);
        history.replaceState(null, "", "/search?q=" + encodeURIComponent(q));
        if (res.cards && res.cards.length) played(q, mine);
      })
      .catch(function () { document.dispatchEvent(new Event("rulings:unreachable")); /* the previous results stay */ });
  }
  input.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(run, 150);
  });
})();

// Card typeahead (issue #13): names completing what is typed, from /api/cards/autocomplete; a name
// jumps to its card. Enter on an exact card name (English, German or an abbreviation meaning one card)
// opens the card; anything else submits the search as before. Without JavaScript nothing changes.
(function () {
  "use strict";
  if (!window.fetch) return;
  var forms = document.querySelectorAll("form[role=search]");
  Array.prototype.forEach.call(forms, function (form, n) {
    var input = form.querySelector("input[name=q]");
    if (!input) return;
    var list = document.createElement("ul");
    list.className = "typeahead";
    list.id = "typeahead-" + n;
    // The ARIA combobox pattern: the box is a combobox, the names are options of a named listbox (plain
    // text, no link inside an option: a link in an option is an interactive control inside another).
    list.setAttribute("role", "listbox");
    list.setAttribute("aria-label", "Card names");
    list.hidden = true;
    input.setAttribute("role", "combobox");
    input.setAttribute("aria-expanded", "false");
    input.setAttribute("aria-controls", list.id);
    input.setAttribute("aria-autocomplete", "list");
    form.appendChild(list);
    var timer = null, seq = 0, active = -1, items = [];
    var MAX_NAME_TEXT = 100;    // the autocomplete's bound on q (longer is a 400, and no card name is that long)

    // Closing also drops any suggestion still on its way (seq), so a late answer cannot reopen the list.
    function close() {
      clearTimeout(timer); seq++; list.hidden = true; active = -1;
      input.setAttribute("aria-expanded", "false");
      input.removeAttribute("aria-activedescendant");
    }
    function show(data) {
      items = data;
      list.innerHTML = "";
      data.forEach(function (d, i) {
        var li = document.createElement("li");
        li.setAttribute("role", "option");
        li.setAttribute("aria-selected", "false");
        li.setAttribute("data-url", d.url);
        li.textContent = d.name + (d.how === "german" || d.how === "abbreviation" ? " (" + d.matched + ")" : "");
        li.id = list.id + "-" + i;
        li.addEventListener("click", function () { close(); location.href = d.url; });
        list.appendChild(li);
      });
      list.hidden = !data.length;
      input.setAttribute("aria-expanded", data.length ? "true" : "false");
      active = -1;
    }
    function mark(i) {
      var lis = list.querySelectorAll("li");
      if (!lis.length) return;
      active = (i + lis.length) % lis.length;
      Array.prototype.forEach.call(lis, function (li, j) { li.setAttribute("aria-selected", j === active); });
      input.setAttribute("aria-activedescendant", lis[active].id);
    }
    input.addEventListener("input", function () {
      clearTimeout(timer);
      var q = input.value.trim(), mine = ++seq;
      if (!q || q.length > MAX_NAME_TEXT) { close(); return; }   // a long question: the results are the answer
      timer = setTimeout(function () {
        fetch("/api/cards/autocomplete?limit=6&q=" + encodeURIComponent(q), { headers: { Accept: "application/json" } })
          .then(function (r) {
            if (r.headers.get("X-Offline")) document.dispatchEvent(new Event("rulings:unreachable"));
            return r.ok ? r.json() : { data: [] };
          })
          .then(function (res) { if (mine === seq) show(res.data || []); })
          .catch(close);
      }, 80);
    });
    input.addEventListener("keydown", function (e) {
      if (list.hidden) return;
      if (e.key === "ArrowDown") { e.preventDefault(); mark(active + 1); }
      else if (e.key === "ArrowUp") { e.preventDefault(); mark(active - 1); }
      else if (e.key === "Escape") { close(); }
      else if (e.key === "Enter" && active >= 0 && items[active]) { e.preventDefault(); close(); location.href = items[active].url; }
    });
    // On a phone the list sits between the box and the results: once the player has submitted or picked
    // a name it must not cover the answer, neither while the next page loads nor when Back restores this one.
    list.addEventListener("click", close);
    window.addEventListener("pagehide", close);
    window.addEventListener("pageshow", close);
    input.addEventListener("blur", function () { setTimeout(close, 200); });
    form.addEventListener("submit", function (e) {
      close();
      var q = input.value.trim();
      if (!q || form.dataset.checked === q) return;
      e.preventDefault();
      if (q.length > MAX_NAME_TEXT || q.split(/\s+/).length > 4) { form.dataset.checked = q; form.submit(); return; }
      // the autocomplete answers 200 with "exact": null for text that names no card (no 404 in the console)
      fetch("/api/cards/autocomplete?limit=1&q=" + encodeURIComponent(q), { headers: { Accept: "application/json" } })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (res) {
          var card = res && res.exact;
          if (card && card.url) { location.href = card.url; return; }
          form.dataset.checked = q;
          form.submit();
        })
        .catch(function () { form.dataset.checked = q; form.submit(); });
    });
  });
})();

// Sandbox: "Share link" copies the URL when the clipboard is available.
(function () {
  var share = document.getElementById("share");
  if (!share || !navigator.clipboard) return;
  share.addEventListener("click", function (ev) {
    ev.preventDefault();
    navigator.clipboard.writeText(share.href).then(function () { share.textContent = "Link copied"; });
  });
})();

// A link to something inside a folded section (/cards/x#faq-c2) unfolds it, so the target is on screen.
(function () {
  function unfold() {
    var id = decodeURIComponent(location.hash.slice(1));
    var el = id && document.getElementById(id);
    if (!el) return;
    for (var d = el.closest("details"); d; d = d.parentElement && d.parentElement.closest("details")) d.open = true;
    el.scrollIntoView();
  }
  window.addEventListener("hashchange", unfold);
  if (location.hash) unfold();
})();

// Sandbox card fields hold lists ("Throne Room, Copper*4"): suggest names for the word being typed.
(function () {
  var list = document.getElementById("card-names");
  if (!list) return;
  var names = Array.prototype.map.call(list.options, function (o) { return o.value; });
  Array.prototype.forEach.call(document.querySelectorAll("input[data-cards]"), function (input) {
    input.addEventListener("input", function () {
      var v = input.value, cut = v.lastIndexOf(",");
      var head = cut < 0 ? "" : v.slice(0, cut + 1) + " ";
      var word = v.slice(cut + 1).trim().toLowerCase();
      var starts = [], inside = [];
      names.forEach(function (n) {
        var i = n.toLowerCase().indexOf(word);
        if (word && i === 0) starts.push(n); else if (word && i > 0) inside.push(n);
      });
      list.textContent = "";
      starts.concat(inside).slice(0, 12).forEach(function (n) {
        var o = document.createElement("option");
        o.value = head + n;
        list.appendChild(o);
      });
    });
  });
})();

// Lists: a set picker applies at once; a filter box hides what does not match as you type.
(function () {
  Array.prototype.forEach.call(document.querySelectorAll("select[data-autosubmit]"), function (sel) {
    sel.addEventListener("change", function () { sel.form.submit(); });
  });
  var box = document.querySelector("input[data-filter]");
  if (!box) return;
  var root = document.querySelector(box.getAttribute("data-filter"));
  var count = document.getElementById("scenario-count");
  function apply() {
    var words = box.value.toLowerCase().split(/\s+/).filter(Boolean), shown = 0;
    Array.prototype.forEach.call(root.querySelectorAll("li[data-text]"), function (li) {
      var text = li.getAttribute("data-text");
      var ok = words.every(function (w) { return text.indexOf(w) >= 0; });
      li.hidden = !ok;
      if (ok) shown++;
    });
    Array.prototype.forEach.call(root.querySelectorAll(".cardgroup"), function (g) {
      g.hidden = !g.querySelector("li[data-text]:not([hidden])");
    });
    Array.prototype.forEach.call(root.querySelectorAll("details.setgroup"), function (d) {
      d.hidden = !d.querySelector("li[data-text]:not([hidden])");
      if (words.length) d.open = true;
    });
    if (count) count.textContent = shown + " scenarios" + (words.length ? " with “" + box.value.trim() + "”" : "") + ".";
  }
  box.addEventListener("input", apply);
})();

// No signal (app/web/offline.py): the service worker that keeps pages, "Keep all rules offline", and
// a plain notice of what still works, shown while the phone is offline or when the server cannot be reached.
(function () {
  "use strict";
  var notice = document.getElementById("offline-notice");
  function show(off) { if (notice) notice.hidden = !off; }
  if (navigator.onLine === false) show(true);   // (a page the service worker answered from the phone shows it already)
  window.addEventListener("offline", function () { show(true); });
  window.addEventListener("online", function () { show(false); });
  document.addEventListener("rulings:unreachable", function () { show(true); });
  if (!("serviceWorker" in navigator) || !window.caches) return;
  navigator.serviceWorker.register("/sw.js").catch(function () { /* the site works without it */ });

  var box = document.getElementById("keep-offline");
  var button = document.getElementById("keep-all");
  var status = document.getElementById("keep-status");
  if (!box || !button || !status) return;
  box.hidden = false;
  function mb(bytes) { return (bytes / 1048576).toFixed(1) + " MB"; }
  function said(note) {
    status.textContent = "Kept on this phone: " + note.pages + " pages (" + mb(note.bytes) + ")" +
      (note.failed ? ", " + note.failed + " could not be fetched; tap again to retry" : "") +
      ", " + new Date(note.at).toLocaleString() + ".";
    status.setAttribute("data-kept", note.failed ? "partly" : "all");
  }
  caches.match("/offline/kept").then(function (r) { return r && r.json(); }).then(function (note) {
    if (note) said(note);
  }).catch(function () {});
  navigator.serviceWorker.addEventListener("message", function (e) {
    var m = e.data || {};
    if (m.kind === "keep-progress") status.textContent = "Keeping… " + m.done + " of " + m.total + " (" + mb(m.bytes) + ")";
    else if (m.kind === "keep-done") { said(m.note); button.disabled = false; }
    else if (m.kind === "keep-failed") { status.textContent = "Could not keep the rules (no signal?). Tap again to retry."; button.disabled = false; }
  });
  button.addEventListener("click", function () {
    button.disabled = true;
    status.removeAttribute("data-kept");
    status.textContent = "Keeping…";
    navigator.serviceWorker.ready.then(function (reg) { reg.active.postMessage({ kind: "keep-all" }); });
  });
})();
