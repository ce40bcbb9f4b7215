/* The public live page (templates/live/page.html), progressive enhancement only: without it the page works and
   its Reload link shows the news.
   - Every POLL_MS while the tournament runs, the fragment /tournaments/<id>/live/now/ is asked again with the ETag
     last seen: the server answers 304 until LiveTournament.version changes, then the new fragment replaces the old.
     Polling pauses while the page is hidden and stops once the fragment says the tournament is published. What
     the server shows of a version before the current one (the page's data-behind, a poll's Live-Behind header: the
     new one is being built, or is built again in a few seconds) is asked again after SOON_MS, not POLL_MS.
   - Each answer (200 or 304) is told to the page's banner (static/js/offline.js) as a "live:answer" event with the
     server's Date, a failed poll as "live:lost": the banner says when the page was last updated, or that it is
     offline and which moment it shows. When the network returns (the `online` event) the page asks at once.
     Refused for too many requests from this connection (429: a whole hall shares one address), it waits the
     Retry-After the server gave plus a random part of a poll, so that the phones refused together do not all come
     back in the same second, and says so under the tables until a poll succeeds again.
   - Typing in "Find your table" shows only the current round's tables with that name, accents and case aside
     ("benoit" finds Benoît): the tables' data-names are folded by the server (rules.names.name_key), the query
     here the same way. */
(function () {
  "use strict";
  var POLL_MS = 10000;
  var SOON_MS = 3000;
  // The letters that Unicode's decomposition leaves as they are (rules.names._SPECIAL).
  var SPECIAL = { "ø": "o", "æ": "ae", "œ": "oe", "ß": "ss", "ð": "d", "þ": "th", "đ": "d", "ħ": "h", "ı": "i",
                  "ĸ": "k", "ŀ": "l", "ł": "l", "ŋ": "n", "ŧ": "t", "\u2019": "'", "\u02bc": "'" };

  function fold(text) {
    return text.toLowerCase().normalize("NFKD").replace(/[\u0300-\u036f]/g, "")
      .replace(/[øæœßðþđħıĸŀłŋŧ\u2019\u02bc]/g, function (c) { return SPECIAL[c]; });
  }

  function filter(box, query) {
    var words = fold(query).split(/\s+/).filter(Boolean);
    box.querySelectorAll(".live-now > .live-pool > .pairs > .pair").forEach(function (pair) {
      var names = pair.getAttribute("data-names") || "";
      var match = words.every(function (w) { return names.indexOf(w) !== -1; });
      pair.hidden = words.length > 0 && !match;
      pair.classList.toggle("found-pair", words.length > 0 && match);
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var box = document.querySelector("[data-live-poll]");
    if (!box) return;
    var input = document.querySelector("[data-live-find]");
    var url = box.getAttribute("data-live-poll");
    var etag = box.getAttribute("data-etag") || "";
    var running = function () {
      var now = box.querySelector(".live-now");
      return now && now.getAttribute("data-running") === "true";
    };
    var busy = document.querySelector("[data-live-busy]");
    var refilter = function () { if (input) filter(box, input.value); };
    if (input) input.addEventListener("input", refilter);

    var timer = null;
    var tell = function (name, detail) {
      document.dispatchEvent(new CustomEvent(name, { detail: detail }));
    };
    var poll = function () {
      timer = null;
      if (!running()) return;
      if (document.hidden) { timer = window.setTimeout(poll, POLL_MS); return; }
      var wait = POLL_MS;
      // A hall's Wi-Fi with no way out can hold a request for minutes: a poll gives up after POLL_MS.
      var controller = window.AbortController ? new AbortController() : null;
      var limit = controller && window.setTimeout(function () { controller.abort(); }, POLL_MS);
      fetch(url, { headers: { "If-None-Match": etag }, credentials: "same-origin", cache: "no-cache",
                   signal: controller ? controller.signal : undefined })
        .then(function (response) {
          window.clearTimeout(limit);
          if (busy) busy.hidden = response.status !== 429;
          if (response.status === 429) {
            var seconds = parseInt(response.headers.get("Retry-After"), 10);
            wait = Math.max(POLL_MS, (seconds > 0 ? seconds * 1000 : POLL_MS)) + Math.random() * POLL_MS;
            return;
          }
          if (response.status !== 200 && response.status !== 304) return;
          tell("live:answer", { date: response.headers.get("Date") });
          if (response.headers.get("Live-Behind")) wait = SOON_MS + Math.random() * SOON_MS;
          if (response.status === 200) {
            etag = response.headers.get("ETag") || etag;
            return response.text().then(function (html) {
              var open = Array.prototype.map.call(box.querySelectorAll("details[open] > summary"),
                function (s) { return s.textContent; });
              box.innerHTML = html;
              box.querySelectorAll("details > summary").forEach(function (s) {
                if (open.indexOf(s.textContent) !== -1) s.parentNode.open = true;
              });
              refilter();
            });
          }
        })
        .catch(function () {
          window.clearTimeout(limit);
          tell("live:lost");  // the hall's network comes back: the next poll tries again
        })
        .then(function () { if (timer === null) timer = window.setTimeout(poll, wait); });
    };
    window.addEventListener("online", function () {
      if (timer === null) return;  // a poll is under way
      window.clearTimeout(timer);
      poll();
    });
    refilter();
    timer = window.setTimeout(poll, box.getAttribute("data-behind") === "true" ? SOON_MS : POLL_MS);
  });
})();
