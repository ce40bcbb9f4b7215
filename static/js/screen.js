/* The hall's big screen (templates/live/screen.html): the part below the clock shows its panels (the players by
   name, the standings) one at a time, each for CYCLE_MS; it is asked again every POLL_MS with the ETag last seen
   (304 until LiveTournament.version changes), and a new one replaces it, the panel shown staying the same. */
(function () {
  "use strict";
  var CYCLE_MS = 15000;
  var POLL_MS = 10000;

  document.addEventListener("DOMContentLoaded", function () {
    var box = document.querySelector("[data-screen-poll]");
    if (!box) return;
    var url = box.getAttribute("data-screen-poll");
    var etag = box.getAttribute("data-etag") || "";
    var shown = "seats";

    var show = function (name) {
      var panels = box.querySelectorAll("[data-screen-panel]");
      var names = Array.prototype.map.call(panels, function (p) { return p.getAttribute("data-screen-panel"); });
      shown = names.indexOf(name) === -1 ? names[0] : name;
      panels.forEach(function (p) { p.hidden = p.getAttribute("data-screen-panel") !== shown; });
    };
    var next = function () {
      var names = Array.prototype.map.call(box.querySelectorAll("[data-screen-panel]"),
        function (p) { return p.getAttribute("data-screen-panel"); });
      show(names[(names.indexOf(shown) + 1) % names.length]);
    };
    var running = function () {
      var now = box.querySelector(".screen-now");
      return now && now.getAttribute("data-running") === "true";
    };
    var poll = function () {
      if (!running()) return;
      fetch(url, { headers: { "If-None-Match": etag }, credentials: "same-origin", cache: "no-cache" })
        .then(function (response) {
          if (response.status !== 200) return;
          etag = response.headers.get("ETag") || etag;
          return response.text().then(function (html) { box.innerHTML = html; show(shown); });
        })
        .catch(function () { /* the hall's network comes back: the next poll tries again */ })
        .then(function () { window.setTimeout(poll, POLL_MS); });
    };
    show(shown);
    window.setInterval(next, CYCLE_MS);
    window.setTimeout(poll, POLL_MS);
  });
})();
