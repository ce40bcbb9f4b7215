/* The round clock of the live pages (templates/live/_clock.html), progressive enhancement: without it the clock
   shows the time left when the page was rendered.
   - The server renders the time left at render (data-left, seconds) and each announcement's mark (data-at: due
     once the time left is at most it). Between two answers of the server the clock counts down by the time
     elapsed since the last one; it never reads the time of day of the phone, whose clock may be wrong.
   - The face is asked again (/tournaments/<id>/live/clock/) every POLL_MS, and at once when the page is shown again
     (a phone woken up, a tab brought back): the server's answer replaces the count, so sleep or a reload loses
     nothing. A pause, a restart or an extension by the referee arrives with the next answer.
   - The latest announcement due is written in the banner (role=status, aria-live polite), once as it falls due. */
(function () {
  "use strict";
  if (window.adlgClock) return;  // the include may appear on a page more than once
  window.adlgClock = true;
  var POLL_MS = 20000;

  function text(seconds) {
    seconds = Math.max(0, Math.floor(seconds));
    var h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
    var ss = (s < 10 ? "0" : "") + s;
    return h ? h + ":" + (m < 10 ? "0" : "") + m + ":" + ss : m + ":" + ss;
  }

  function Clock(box) {
    this.box = box;
    this.url = box.getAttribute("data-clock-url");
    this.read();
  }

  Clock.prototype.read = function () {
    this.face = this.box.querySelector("[data-clock]");
    this.receivedAt = Date.now();
    this.left = this.face ? parseInt(this.face.getAttribute("data-left"), 10) : 0;
    this.state = this.face ? this.face.getAttribute("data-state") : "";
    var banner = this.face && this.face.querySelector("[data-clock-banner]");
    this.shown = banner ? banner.textContent.trim() : "";
  };

  Clock.prototype.leftNow = function () {
    if (this.state !== "running" && this.state !== "over") return this.left;
    return this.left - (Date.now() - this.receivedAt) / 1000;
  };

  Clock.prototype.draw = function () {
    var face = this.face;
    if (!face) return;
    var left = this.leftNow();
    var time = face.querySelector("[data-clock-time]");
    if (time) time.textContent = text(left);
    face.classList.toggle("clock-over", this.state !== "ready" && left <= 0);
    var deployAt = parseInt(face.getAttribute("data-deploy-at"), 10);
    var deploying = face.querySelector("[data-clock-deploying]");
    var deployed = face.querySelector("[data-clock-deployed]");
    if (deploying && deployed && !isNaN(deployAt)) {
      deploying.hidden = left <= deployAt;
      deployed.hidden = left > deployAt;
      var deployTime = face.querySelector("[data-clock-deploy-time]");
      if (deployTime) deployTime.textContent = text(left - deployAt);
    }
    var latest = "";
    face.querySelectorAll("[data-clock-announcements] > [data-at]").forEach(function (item) {
      if (left <= parseInt(item.getAttribute("data-at"), 10)) latest = item.textContent.trim();
    });
    var banner = face.querySelector("[data-clock-banner]");
    if (banner && latest !== this.shown) {  // written once as it falls due: a screen reader hears it once
      banner.textContent = latest;
      this.shown = latest;
    }
  };

  Clock.prototype.refresh = function () {
    var self = this;
    if (!self.url) return;
    var asked = self.asked = (self.asked || 0) + 1;
    fetch(self.url, { credentials: "same-origin", cache: "no-store" })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        // An answer overtaken by a later question (a poll, then the page shown again) is older news: dropped.
        if (html === null || asked !== self.asked) return;
        self.box.innerHTML = html;
        self.read();
        self.draw();
      })
      .catch(function () { /* the hall's network comes back: the count goes on until the next answer */ });
  };

  document.addEventListener("DOMContentLoaded", function () {
    var clocks = Array.prototype.map.call(document.querySelectorAll("[data-clock-box]"),
      function (box) { return new Clock(box); });
    if (!clocks.length) return;
    var each = function (what) { clocks.forEach(function (c) { c[what](); }); };
    each("draw");
    window.setInterval(function () { each("draw"); }, 1000);
    window.setInterval(function () { if (!document.hidden) each("refresh"); }, POLL_MS);
    document.addEventListener("visibilitychange", function () { if (!document.hidden) each("refresh"); });
    window.addEventListener("pageshow", function (event) { if (event.persisted) each("refresh"); });
  });
})();
