/* The tournament day without network: a form the hall's network failed waits on the phone and is sent
   once when the network returns. Progressive enhancement only: without this file every form posts as usual.

   - Any <form data-offline-queue="<tournament id>"> takes part; the attribute names the queue (one per tournament,
     in localStorage). Its action key (the field named by data-offline-key, "action_key" by default: the key of
     tournaments.live.page_tools.one_effect) keys its entry, so a double tap queues once and a correction typed
     offline replaces the entry waiting for the same form.
   - Submitting: with navigator.onLine false, or when the site does not answer a quick probe (a venue's Wi-Fi is
     often up with no way out, and navigator.onLine stays true), the form's fields are queued and the form says
     it waits. Otherwise the form posts as it always did: a normal navigation, the server's page in answer.
   - Sending: on page load, on the `online` event and every RETRY_MS while something waits, each entry is POSTed
     with fetch (same fields, same action key, the page's CSRF token). A 2xx/3xx answer removes it (the server
     applies a key once: an entry that reached the server before its answer was lost is answered "already done");
     a 4xx answer is a refusal: removed, and its message shown on the form's card (the card is replaced by the
     answer's card of the same id) or in the banner; a network error or a 5xx keeps it for the next try; a
     redirect to the sign-in page keeps it and asks to sign in again. An entry is sent, and counted, only by pages
     of the account that queued it (data-offline-user), never under someone else's session on a shared phone.
   - The banner (templates/live/_offline.html, which also holds every word shown here) counts the waiting entries,
     points to a keyboard grid whose rows wait on the device (static/js/grid.js sends those itself),
     and, offline, says which moment the page shows: "Offline — showing the page of 14:32". On the public live page
     it says when the page was last updated; static/js/live.js tells it about each poll ("live:answer",
     "live:lost" events on document). */
(function () {
  "use strict";
  var RETRY_MS = 5000;
  var PROBE_MS = 5000;
  var PREFIX = "offline-queue:";
  var banner = null;
  var seen = null;          // the moment the page shows (the server's time)
  var unreachable = false;  // the last try to reach the site failed
  var sending = null;       // the promise of the sending under way
  var refusals = [];        // refusals of entries whose form is not on this page

  function words(name, values) {
    var text = banner ? banner.getAttribute("data-text-" + name) || "" : "";
    Object.keys(values || {}).forEach(function (key) { text = text.split("{" + key + "}").join(values[key]); });
    return text;
  }

  function clock(date) {
    return date.toLocaleTimeString(document.documentElement.lang || undefined,
                                   { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  }

  // --- the queues: localStorage["offline-queue:<name>"] = {"<action key>": entry}

  function read(name) {
    try {
      return JSON.parse(window.localStorage.getItem(PREFIX + name) || "{}") || {};
    } catch (e) {
      return {};
    }
  }

  function write(name, entries) {
    if (Object.keys(entries).length) {
      window.localStorage.setItem(PREFIX + name, JSON.stringify(entries));
    } else {
      window.localStorage.removeItem(PREFIX + name);
    }
  }

  function storageWorks() {
    try {
      window.localStorage.setItem(PREFIX + "probe", "1");
      window.localStorage.removeItem(PREFIX + "probe");
      return true;
    } catch (e) {
      return false;  // a private window that refuses storage: forms post as usual
    }
  }

  function queueNames() {
    var names = [];
    var add = function (name) { if (name && names.indexOf(name) === -1) names.push(name); };
    if (banner) add(banner.getAttribute("data-offline-queue"));
    document.querySelectorAll("form[data-offline-queue]").forEach(function (form) { add(queueOf(form)); });
    return names;
  }

  function mine(entries) {
    // Only the entries of whoever is signed in now: on a phone passed to someone else they wait for their author
    // (each is sent with the session of the page, and the audit names who sent it).
    var user = banner.getAttribute("data-offline-user") || "";
    return Object.keys(entries).filter(function (key) { return (entries[key].user || "") === user; });
  }

  function queueOf(form) {
    return form.getAttribute("data-offline-queue") || window.location.pathname;
  }

  function waiting() {
    return queueNames().reduce(function (count, name) { return count + mine(read(name)).length; }, 0);
  }

  // --- forms

  function formFor(url) {
    return Array.prototype.find.call(document.querySelectorAll("form[data-offline-queue]"),
      function (form) { return form.action === url; }) || null;
  }

  function statusOf(form) {
    // Before the form, or before the <details> it folds in, so that a folded form's status is seen.
    var details = form.parentElement && form.parentElement.closest("details");
    var card = cardOf(form);
    var home = details && (!card || card.contains(details)) ? details : form;
    var status = home.previousElementSibling;
    if (!status || !status.classList.contains("offline-status")) {
      status = document.createElement("p");
      status.className = "offline-status";
      status.setAttribute("role", "status");
      home.parentNode.insertBefore(status, home);
    }
    return status;
  }

  function cardOf(form) {
    // The form's card: its closest ancestor with an id, unless that holds the banner too (<main>).
    var card = form.parentElement && form.parentElement.closest("[id]");
    return card && !card.contains(banner) ? card : null;
  }

  function say(form, state, message) {
    var status = statusOf(form);
    status.setAttribute("data-state", state);
    status.textContent = words("form-" + state);
    if (message) {
      var detail = document.createElement("span");
      detail.className = "offline-detail";
      detail.textContent = " " + message;
      status.appendChild(detail);
    }
    var card = cardOf(form);
    if (card) card.classList.toggle("offline-waiting", state === "waiting" || state === "signin");
  }

  function fieldsOf(form, submitter) {
    var fields = [];
    new FormData(form).forEach(function (value, name) {
      if (typeof value === "string") fields.push([name, value]);
    });
    if (submitter && submitter.name) fields.push([submitter.name, submitter.value]);
    return fields;
  }

  function labelOf(form) {
    var card = cardOf(form);
    var heading = card && card.querySelector("h1, h2, h3, h4");
    return (heading ? heading.textContent : document.title).replace(/\s+/g, " ").trim();
  }

  function keyOf(form) {
    var field = form.elements.namedItem(form.getAttribute("data-offline-key") || "action_key");
    return field && field.value ? field.value : form.action;
  }

  function isWaiting(form) {
    return mine(read(queueOf(form))).indexOf(keyOf(form)) !== -1;
  }

  function enqueue(form, submitter) {
    var fields = fieldsOf(form, submitter);
    var key = keyOf(form);
    var name = queueOf(form);
    var entries = read(name);
    entries[key] = { url: form.action, fields: fields, label: labelOf(form), page: window.location.href,
                     user: banner.getAttribute("data-offline-user") || "",
                     queued: (entries[key] || {}).queued || Date.now() };
    try {
      write(name, entries);
    } catch (e) {
      return false;  // the storage is full: better the browser's own error page than an entry lost unseen
    }
    say(form, "waiting");
    render();
    return true;
  }

  function post(form, submitter) {
    // The form's own submission, as without this script (the submit listener lets it through).
    form.setAttribute("data-offline-pass", "");
    if (form.requestSubmit) form.requestSubmit(submitter && submitter.form === form ? submitter : undefined);
    else form.submit();
  }

  // --- sending

  function probe() {
    var url = banner && banner.getAttribute("data-offline-probe");
    if (!url) return Promise.resolve(navigator.onLine);
    var controller = window.AbortController ? new AbortController() : null;
    var timer = controller && window.setTimeout(function () { controller.abort(); }, PROBE_MS);
    return fetch(url, { method: "HEAD", cache: "no-store", credentials: "same-origin",
                        signal: controller ? controller.signal : undefined })
      .then(function () { return true; }, function () { return false; })
      .then(function (answered) {
        window.clearTimeout(timer);
        unreachable = !answered;
        render();
        return answered;
      });
  }

  function csrfFor(entry) {
    // The page's own token is the freshest (a sign-in since the entry was queued rotates it).
    var form = formFor(entry.url);
    var input = (form || document).querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : null;
  }

  function send(name, key, entry) {
    var body = new URLSearchParams();
    var token = csrfFor(entry);
    entry.fields.forEach(function (field) {
      body.append(field[0], field[0] === "csrfmiddlewaretoken" && token ? token : field[1]);
    });
    return fetch(entry.url, { method: "POST", body: body, credentials: "same-origin", cache: "no-store" })
      .then(function (response) {
        unreachable = false;
        var login = banner && banner.getAttribute("data-offline-login");
        if (response.redirected && login && new URL(response.url).pathname === login) {
          showOn(entry, "signin");
          return true;
        }
        if (response.status >= 500) {
          showOn(entry, "server");
          return true;
        }
        var entries = read(name);
        delete entries[key];
        write(name, entries);
        return response.text().then(function (html) {
          answered(entry, response, new DOMParser().parseFromString(html, "text/html"));
          return true;
        }, function () {
          showOn(entry, response.status >= 400 ? "refused" : "sent");  // the answer's page was cut short
          return true;
        });
      }, function () {
        unreachable = true;
        return false;  // the network again: the entries wait for the next try
      });
  }

  function showOn(entry, state) {
    var form = formFor(entry.url);
    if (form) say(form, state);
  }

  function answered(entry, response, answer) {
    var refused = response.status >= 400;
    var form = formFor(entry.url);
    var card = form && cardOf(form);
    var fresh = card && answer.getElementById(card.id);
    var message = refused ? refusalText(fresh, answer, response.status) : "";
    if (fresh) {
      card.replaceWith(document.importNode(fresh, true));
      form = formFor(entry.url);
    }
    document.querySelectorAll("[data-offline-refresh][id]").forEach(function (element) {
      var update = answer.getElementById(element.id);
      if (update) element.replaceWith(document.importNode(update, true));
    });
    if (form) {
      // A replaced card already shows the refusal in the server's words: its status only says when it came.
      say(form, refused ? (fresh ? "refused-card" : "refused") : "sent", refused && !fresh ? message : "");
    } else if (refused) {
      refusals.push({ label: entry.label, page: entry.page, message: message });
    }
  }

  function refusalText(card, answer, status) {
    var alerts = (card || answer).querySelectorAll("[role=alert], .form-errors");
    var text = Array.prototype.map.call(alerts, function (e) { return e.textContent; }).join(" ");
    if (!text.trim()) {
      var title = answer.querySelector("h1");
      text = (title ? title.textContent + " " : "") + "(" + status + ")";
    }
    return text.replace(/\s+/g, " ").trim();
  }

  function flush() {
    if (sending) return sending;
    var jobs = [];
    queueNames().forEach(function (name) {
      var entries = read(name);
      mine(entries).sort(function (a, b) { return entries[a].queued - entries[b].queued; })
        .forEach(function (key) { jobs.push([name, key, entries[key]]); });
    });
    sending = jobs.reduce(function (chain, job) {
      return chain.then(function (goOn) { return goOn ? send(job[0], job[1], job[2]) : false; });
    }, Promise.resolve(true));
    var done = function () { sending = null; render(); };
    sending = sending.then(done, done);
    return sending;
  }

  function check() {
    // With entries waiting, sending them is the test of the network; without, a probe clears "offline".
    return waiting() ? flush() : unreachable || !navigator.onLine ? probe() : Promise.resolve();
  }

  // --- the keyboard grid's rows kept on the device (static/js/grid.js): only their grid sends them (it reports a
  // refusal on the row), so the day's other pages say where they wait.

  var GRID_PREFIX = "results-grid:";

  function gridsWaiting() {
    var prefix = GRID_PREFIX + banner.getAttribute("data-offline-queue") + ":";
    var user = banner.getAttribute("data-offline-user") || "";
    var grids = [];
    for (var i = 0; i < window.localStorage.length; i++) {
      var key = window.localStorage.key(i);
      if (!key || key.indexOf(prefix) !== 0 || key.slice(key.lastIndexOf(":") + 1) !== user) continue;
      var kept = null;
      try { kept = JSON.parse(window.localStorage.getItem(key)); } catch (e) { continue; }
      var count = kept && kept.rows ? Object.keys(kept.rows).length : 0;
      if (!count || !kept.url || new URL(kept.url, window.location.href).pathname === window.location.pathname) continue;
      grids.push({ url: kept.url, count: count, round: key.slice(prefix.length).split(":")[0] });
    }
    return grids.sort(function (a, b) { return a.round - b.round; });
  }

  // --- the banner

  function render() {
    if (!banner) return;
    var offline = unreachable || !navigator.onLine;
    var count = waiting();
    var state = banner.querySelector("[data-offline-state]");
    var updated = banner.querySelector("[data-offline-clock]");
    if (updated && seen) updated.textContent = words("updated", { time: clock(seen) });
    if (updated) updated.hidden = offline;
    var lines = [];
    if (offline) lines.push(words("offline", { time: clock(seen || new Date()) }));
    if (count) lines.push(words("waiting", { count: count }));
    var grids = gridsWaiting();
    banner.classList.toggle("offline-alert", lines.length + refusals.length + grids.length > 0);
    banner.hidden = !updated && !lines.length && !refusals.length && !grids.length;
    // A live region announces what is written into it again: write only what changed.
    var shown = JSON.stringify([lines, refusals, grids]);
    if (state.getAttribute("data-shown") === shown) return;
    state.setAttribute("data-shown", shown);
    state.textContent = "";
    lines.forEach(function (text) {
      var line = document.createElement("span");
      line.className = "offline-line";
      line.textContent = text;
      state.appendChild(line);
    });
    refusals.forEach(function (refusal) {
      var line = document.createElement("span");
      line.className = "offline-line offline-refused";
      line.textContent = words("refused", { label: refusal.label }) + " " + refusal.message + " ";
      var link = document.createElement("a");
      link.href = refusal.page;
      link.textContent = words("open");
      line.appendChild(link);
      state.appendChild(line);
    });
    grids.forEach(function (grid) {
      var line = document.createElement("span");
      line.className = "offline-line";
      line.setAttribute("data-offline-grid", grid.round);
      line.textContent = words("grid", { round: grid.round, count: grid.count }) + " ";
      var link = document.createElement("a");
      link.href = grid.url;
      link.textContent = words("grid-open");
      line.appendChild(link);
      state.appendChild(line);
    });
  }

  function markWaiting() {
    queueNames().forEach(function (name) {
      var entries = read(name);
      mine(entries).forEach(function (key) {
        var form = formFor(entries[key].url);
        if (form) say(form, "waiting");
      });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    banner = document.querySelector("[data-offline-banner]");
    if (!banner || !storageWorks()) return;
    var stamp = Number(banner.getAttribute("data-updated"));
    seen = stamp ? new Date(stamp * 1000) : new Date();

    document.addEventListener("submit", function (event) {
      var form = event.target;
      if (!form.matches("form[data-offline-queue]")) return;
      if (form.hasAttribute("data-offline-pass")) {  // sent by post(): the form goes as it always did
        form.removeAttribute("data-offline-pass");
        return;
      }
      event.preventDefault();
      var submitter = event.submitter;
      if (!navigator.onLine) {
        if (!enqueue(form, submitter)) post(form, submitter);
        return;
      }
      if (isWaiting(form)) {
        // Sent again (a correction) while its first entry waits: same action key, so the entry takes the new
        // fields and goes now; posted beside it, the second would be answered "already done".
        if (enqueue(form, submitter)) check();
        else post(form, submitter);
        return;
      }
      if (form.hasAttribute("data-offline-probing")) return;  // a second tap while the probe runs
      form.setAttribute("data-offline-probing", "");
      probe().then(function (reachable) {
        form.removeAttribute("data-offline-probing");
        if (!reachable) {
          if (!enqueue(form, submitter)) post(form, submitter);
          return;
        }
        // What waits goes first: an older entry must not overwrite what is posted now.
        flush().then(function () {
          if (form.isConnected) post(form, submitter);  // else its card was replaced by a sent entry's answer
        });
      });
    });

    document.addEventListener("live:answer", function (event) {
      var date = event.detail && event.detail.date ? new Date(event.detail.date) : new Date();
      seen = isNaN(date.getTime()) ? new Date() : date;
      unreachable = false;
      render();
    });
    document.addEventListener("live:lost", function () { unreachable = true; render(); });
    window.addEventListener("offline", render);
    window.addEventListener("online", function () { check(); render(); });
    window.addEventListener("storage", function (event) {  // another tab queued or sent
      if (event.key && (event.key.indexOf(PREFIX) === 0 || event.key.indexOf(GRID_PREFIX) === 0)) render();
    });
    window.setInterval(function () { if (waiting() || unreachable) check(); }, RETRY_MS);

    markWaiting();
    render();
    if (navigator.onLine && waiting()) flush();
  });
})();
