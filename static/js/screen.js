/* The hall's big screen (templates/live/screen.html): the part below the clock shows its panels (the players by
   name, the standings) one at a time, and never scrolls: each panel is cut into pages that fit the window, shown
   in turn for CYCLE_MS each ("Page 2/3"), then the next panel's. The part is asked again every POLL_MS with the
   ETag last seen (304 until LiveTournament.version changes); a new one replaces it, the panel and page shown
   staying the same.

   Pages: the panel's groups ([data-screen-group]: the players, or one pool's standings with its heading) are laid
   out in the columns of the panel's density (--screen-cols, static/css/clock.css), as many rows to a column as the
   window's height holds, measured from a row as it is drawn. One group alone is balanced over the columns of each
   page; several (the pools) follow one another, a pool starting a new column unless it fits whole below the one
   before, its heading repeated (unread by screen readers) on the columns it continues in. Laid out again whenever
   the part's size changes (the clock's banner appears, the window is resized) and whenever the part is replaced. */
(function () {
  "use strict";
  var CYCLE_MS = 15000;
  var POLL_MS = 10000;

  function groupsOf(pages) {
    // Read once from the server's markup; the rows are then moved between pages, never copied.
    if (!pages.screenGroups) {
      pages.screenGroups = Array.prototype.map.call(pages.querySelectorAll("[data-screen-group]"), function (group) {
        return { heading: group.querySelector("h3"), rows: Array.prototype.slice.call(group.querySelectorAll("li")) };
      });
    }
    return pages.screenGroups;
  }

  function Layout(pages, cols, height) {
    this.box = pages;
    this.cols = cols;
    this.height = height;
    this.pages = [];
    this.col = null;
  }

  Layout.prototype.newColumn = function () {
    var page = this.pages[this.pages.length - 1];
    if (!page || page.childElementCount === this.cols) {
      page = document.createElement("div");
      page.className = "screen-page";
      page.setAttribute("data-screen-page", String(this.pages.length));
      this.box.appendChild(page);
      this.pages.push(page);
    }
    var el = document.createElement("div");
    el.className = "screen-col";
    page.appendChild(el);
    this.col = { el: el, left: this.height, list: null };
  };

  Layout.prototype.heading = function (heading, again) {
    var shown = heading;
    if (again) {
      shown = heading.cloneNode(true);
      shown.setAttribute("aria-hidden", "true");
      shown.classList.add("screen-again");
    }
    this.col.el.appendChild(shown);
    this.col.list = null;
  };

  Layout.prototype.row = function (row) {
    if (!this.col.list) {
      this.col.list = document.createElement("ol");
      this.col.list.className = "screen-list";
      this.col.el.appendChild(this.col.list);
    }
    this.col.list.appendChild(row);
  };

  function measure(pages, groups) {
    // One row and one heading drawn in a column of the panel: their heights at the window's font size.
    var probe = new Layout(pages, 1, 0);
    probe.newColumn();
    var heading = groups.filter(function (g) { return g.heading; })[0];
    if (heading) probe.heading(heading.heading, false);
    var row = groups[0].rows[0];
    probe.row(row);
    var rowHeight = row.getBoundingClientRect().height;
    var headHeight = heading ? probe.col.list.getBoundingClientRect().top - probe.col.el.getBoundingClientRect().top : 0;
    pages.textContent = "";
    return { row: rowHeight, head: headHeight };
  }

  function paginate(panel) {
    var pages = panel.querySelector("[data-screen-pages]");
    if (!pages) return 1;
    var groups = groupsOf(pages).filter(function (g) { return g.rows.length; });
    if (!groups.length) return 1;
    var cols = parseInt(window.getComputedStyle(pages).getPropertyValue("--screen-cols"), 10) || 1;
    var height = pages.clientHeight - 1;  // a pixel spare for the rounding of fractional heights
    var size = measure(pages, groups);
    var fit = function (room) { return Math.floor(room / size.row + 1e-6); };
    var layout = new Layout(pages, cols, height);

    var group;
    if (groups.length === 1) {
      // One list: as many rows as fit on each page, balanced over its columns, alphabetical down each column.
      group = groups[0];
      var perPage = Math.max(1, fit(height - (group.heading ? size.head : 0))) * cols;
      for (var start = 0; start < group.rows.length; start += perPage) {
        var rows = group.rows.slice(start, start + perPage);
        var each = Math.ceil(rows.length / cols);
        rows.forEach(function (row, i) {
          if (i % each === 0) {
            layout.newColumn();
            if (group.heading) layout.heading(group.heading, start > 0 || i > 0);
          }
          layout.row(row);
        });
      }
    } else {
      groups.forEach(function (group) {
        var whole = (group.heading ? size.head : 0) + group.rows.length * size.row;
        var col = layout.col;
        if (col) col.list = null;  // a group's rows never join the list of the one before
        if (!col || (col.el.childElementCount && (whole > col.left || col.left < size.head + size.row))) {
          layout.newColumn();
        }
        if (group.heading) {
          layout.heading(group.heading, false);
          layout.col.left -= size.head;
        }
        // A pool longer than the room left is cut into columns as even as they come (never one row alone).
        var length = group.rows.length;
        var perColumn = length;
        if (length > fit(layout.col.left)) {
          var most = Math.max(1, fit(height - (group.heading ? size.head : 0)));
          perColumn = Math.ceil(length / Math.ceil(length / most));
        }
        group.rows.forEach(function (row, i) {
          if (i && i % perColumn === 0) {
            layout.newColumn();
            if (group.heading) {
              layout.heading(group.heading, true);
              layout.col.left -= size.head;
            }
          }
          layout.row(row);
          layout.col.left -= size.row;
        });
      });
    }
    return layout.pages.length;
  }

  document.addEventListener("DOMContentLoaded", function () {
    var box = document.querySelector("[data-screen-poll]");
    if (!box) return;
    var url = box.getAttribute("data-screen-poll");
    var etag = box.getAttribute("data-etag") || "";
    var shown = "seats";
    var page = 0;

    var panels = function () { return Array.prototype.slice.call(box.querySelectorAll("[data-screen-panel]")); };
    var nameOf = function (panel) { return panel.getAttribute("data-screen-panel"); };

    var show = function (name, wanted) {
      var all = panels();
      if (!all.length) return;
      var panel = all.filter(function (p) { return nameOf(p) === name; })[0] || all[0];
      all.forEach(function (p) { p.hidden = p !== panel; });
      shown = nameOf(panel);
      var count = paginate(panel);  // laid out while shown: its size is the window's
      page = Math.min(wanted, count - 1);
      panel.querySelectorAll("[data-screen-page]").forEach(function (p) {
        p.hidden = p.getAttribute("data-screen-page") !== String(page);
      });
      panel.setAttribute("data-pages", String(count));
      panel.setAttribute("data-page", String(page + 1));
      var number = panel.querySelector("[data-screen-page-no]");
      var now = box.querySelector("[data-page-words]");
      if (number && now) {
        number.textContent = now.getAttribute("data-page-words").replace("{page}", page + 1).replace("{pages}", count);
        number.hidden = count < 2;
      }
    };
    var next = function () {
      var current = box.querySelector("[data-screen-panel][data-pages]:not([hidden])");
      var count = current ? parseInt(current.getAttribute("data-pages"), 10) : 1;
      if (page + 1 < count) {
        show(shown, page + 1);
        return;
      }
      var names = panels().map(nameOf);
      show(names[(names.indexOf(shown) + 1) % names.length], 0);
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
          return response.text().then(function (html) { box.innerHTML = html; show(shown, page); });
        })
        .catch(function () { /* the hall's network comes back: the next poll tries again */ })
        .then(function () { window.setTimeout(poll, POLL_MS); });
    };

    show(shown, 0);
    // The clock above changes height (its banner, a round over): the rows are laid out again for the room left.
    var seen = box.clientHeight + "x" + box.clientWidth;
    var again = function () {
      var size = box.clientHeight + "x" + box.clientWidth;
      if (size !== seen) {
        seen = size;
        show(shown, page);
      }
    };
    if (window.ResizeObserver) new ResizeObserver(again).observe(box);
    window.addEventListener("resize", again);
    window.setInterval(next, CYCLE_MS);
    window.setTimeout(poll, POLL_MS);
  });
})();
