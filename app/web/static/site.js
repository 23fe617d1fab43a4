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
  // Snippets arrive with <mark> around matches and everything else escaped by the server.
  function snippet(s) {
    return esc(s).replace(/&lt;mark&gt;/g, "<mark>").replace(/&lt;\/mark&gt;/g, "</mark>")
      .replace(/&amp;(amp|lt|gt|quot|#39|#x27);/g, "&$1;");
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
      return '<p class="small more">Also: ' + list.map(function (m) {
        return '<a href="' + esc(m.url) + '">' + esc(m.title) + "</a>";
      }).join(" · ") + "</p>";
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
            "</a></strong> · " + esc((f.types || []).join(" – ")) + " · " + esc(f.set) +
            (f.german_name ? ' · <span lang="de">' + esc(f.german_name) + "</span>" : "") + "</p>" +
            (f.text ? '<p class="cardtext">' + esc(f.text) + "</p>" : "") + "</div>");
        }
        if (item.facts && item.kind === "card" && item.key === item.card) return;  // the card box is this card
        html.push('<div class="hit"><a class="hittitle" href="' + esc(item.url) + '"><span class="kind">' +
          esc(String(item.kind).replace(/_/g, " ")) + "</span> " + esc(item.title) + "</a>" + (item.settles ? '<p class="snippet settles">' + esc(item.settles) + "</p>"
          : '<p class="snippet">' + snippet(item.snippet) + "</p>") + more(item.more) + "</div>");
      });
      html.push("</section>");
    });
    out.innerHTML = html.join("");
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
      })
      .catch(function () { /* keep the previous results; the form still works */ });
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
    list.setAttribute("role", "listbox");
    list.hidden = true;
    input.setAttribute("aria-controls", list.id);
    input.setAttribute("aria-autocomplete", "list");
    form.appendChild(list);
    var timer = null, seq = 0, active = -1, items = [];

    function close() { list.hidden = true; active = -1; }
    function show(data) {
      items = data;
      list.innerHTML = "";
      data.forEach(function (d, i) {
        var li = document.createElement("li");
        li.setAttribute("role", "option");
        var a = document.createElement("a");
        a.href = d.url;
        a.textContent = d.name + (d.how === "german" || d.how === "abbreviation" ? " (" + d.matched + ")" : "");
        li.appendChild(a);
        li.id = list.id + "-" + i;
        list.appendChild(li);
      });
      list.hidden = !data.length;
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
      if (!q) { close(); return; }
      timer = setTimeout(function () {
        fetch("/api/cards/autocomplete?limit=6&q=" + encodeURIComponent(q), { headers: { Accept: "application/json" } })
          .then(function (r) { return r.ok ? r.json() : { data: [] }; })
          .then(function (res) { if (mine === seq) show(res.data || []); })
          .catch(close);
      }, 80);
    });
    input.addEventListener("keydown", function (e) {
      if (list.hidden) return;
      if (e.key === "ArrowDown") { e.preventDefault(); mark(active + 1); }
      else if (e.key === "ArrowUp") { e.preventDefault(); mark(active - 1); }
      else if (e.key === "Escape") { close(); }
      else if (e.key === "Enter" && active >= 0 && items[active]) { e.preventDefault(); location.href = items[active].url; }
    });
    input.addEventListener("blur", function () { setTimeout(close, 200); });
    form.addEventListener("submit", function (e) {
      var q = input.value.trim();
      if (!q || form.dataset.checked === q) return;
      e.preventDefault();
      fetch("/api/cards/named?exact=" + encodeURIComponent(q), { headers: { Accept: "application/json" } })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (card) {
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
