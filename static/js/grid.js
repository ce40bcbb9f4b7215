/* The referee's keyboard grid of a round's results (templates/live/grid.html, tournaments.live.grid_views).
   Progressive enhancement only: without this file the grid is one form posting every row.

   - A row is saved as it is left (focus going out of it) when what it holds changed since it was last saved, or
     at once by Enter, which then goes to the next row's first field. The row is POSTed alone (`row` names its
     table) with fetch, no page reload; the answer, JSON, says saved (the game scores as they count), empty,
     kept (left blank, the table keeps the result it holds: a result is removed on its card), or refused (its
     words, and whether the row asks the winner-lost-more question, whose box then shows: ticking it sends the
     row again).
   - The server applies the one-table form's service: the row carries the table's revision it last saw, so a
     result entered since in another tab or by the players is not replaced but reported on the row; sending the
     same row twice changes nothing.
   - A row the site did not answer (no network) says so and is sent again when the network returns, or every 15 s
     while it waits. It is also kept on the device (localStorage, under the form's data-grid-keep: the tournament,
     the round and the account) until the site answers it: a grid opened again on this device by the same account,
     after a reload, a closed tab or a flat battery, puts the kept rows back and sends them. A kept row carries
     the revision it was typed on, so a result entered since by someone else is reported on the row, not replaced.
   - Each row's state (to enter, saving, saved, refused) is written in words in its last cell, an aria-live
     region; every word comes from the form's data-text-* attributes (the page's language). */
(function () {
  "use strict";
  var form = document.getElementById("results-grid");
  if (!form || !window.fetch || !window.FormData) {
    return;
  }
  var rows = Array.prototype.slice.call(form.querySelectorAll("tr[data-table]"));

  function words(name, values) {
    var text = form.getAttribute("data-text-" + name) || "";
    Object.keys(values || {}).forEach(function (key) { text = text.split("{" + key + "}").join(values[key]); });
    return text;
  }

  function inputs(row) {
    return Array.prototype.slice.call(row.querySelectorAll("input[name]"));
  }

  function typed(row) {
    // What the row holds, the revision and the confirmation box aside: what saving it would record.
    return inputs(row).filter(function (input) {
      return !/-(revision|confirm)$/.test(input.name);
    }).map(function (input) {
      return input.name + "=" + (input.type === "checkbox" ? input.checked : input.value.trim().toUpperCase());
    }).join("&");
  }

  function show(row, state, message) {
    row.setAttribute("data-state", state);
    row.querySelector(".row-state").textContent = message;
    inputs(row).forEach(function (input) {
      if (input.type === "hidden") { return; }
      if (state === "error") { input.setAttribute("aria-invalid", "true"); } else { input.removeAttribute("aria-invalid"); }
    });
  }

  function recount() {
    var count = document.getElementById("grid-count");
    var saved = rows.filter(function (row) { return row.gridEntered; }).length;
    if (count) { count.textContent = words("count", {entered: saved, tables: rows.length}); }
  }

  // One row sent at a time, in the order they were left: the server takes the tournament's lock for each anyway,
  // and a row is never overtaken by an older copy of itself.
  var chain = Promise.resolve();

  function save(row, force) {
    if (!force && (row.gridQueued || typed(row) === row.gridSent)) { return chain; }
    row.gridQueued = true;
    show(row, "pending", words("saving"));
    chain = chain.then(function () { return send(row); });
    return chain;
  }

  function send(row) {
    row.gridQueued = false;
    var now = typed(row);  // what the row holds now: typed on since it was left, it goes too
    var body = new FormData();
    body.append("csrfmiddlewaretoken", form.querySelector("[name=csrfmiddlewaretoken]").value);
    body.append("row", row.getAttribute("data-table"));
    var reason = form.querySelector("[name=reason]");
    if (reason) { body.append("reason", reason.value); }
    inputs(row).forEach(function (input) {
      if (input.type !== "checkbox") { body.append(input.name, input.value); } else if (input.checked) { body.append(input.name, "on"); }
    });
    var confirm = row.querySelector(".grid-confirm");
    return fetch(form.action, {method: "POST", body: body, credentials: "same-origin", keepalive: true,
                               headers: {"Accept": "application/json"}})
      .then(function (response) {
        if ((response.headers.get("Content-Type") || "").indexOf("application/json") < 0) {
          var odd = new Error("no answer");  // the site answered, but not the grid's answer (a sign-in page)
          odd.answered = true;
          throw odd;
        }
        return response.json();
      })
      .then(function (answer) {
        if (answer.revision !== undefined && answer.revision !== null) {
          row.querySelector("[name$='-revision']").value = answer.revision;
        }
        row.gridEntered = answer.entered === undefined ? answer.state === "saved" : Boolean(answer.entered);
        if (answer.state === "saved" || answer.state === "empty" || answer.state === "kept") {
          row.gridSent = now;
          show(row, answer.state === "empty" ? "empty" : "saved",
               words(answer.state, answer.state === "empty" ? {} : {scores: answer.shown}));
          if (confirm) { confirm.hidden = true; confirm.querySelector("input").checked = false; }
        } else {
          row.gridSent = null;
          show(row, "error", words("refused") + " " + (answer.errors || []).join(" "));
          if (confirm && answer.confirm) { confirm.hidden = false; }
        }
        recount();
      })
      .then(function () { row.gridUnreachable = false; forget(row); }, function (error) {
        row.gridSent = null;
        row.gridUnreachable = !error.answered;
        keep(row);
        show(row, "error", words("unreachable"));
        if (row.gridUnreachable) { resendLater(); }
      });
  }

  // The rows the site has not answered, kept on the device: {url: the grid's address, rows: {table: {fields:
  // [[name, value]...], at: ms}}} (static/js/offline.js reads it to point the day's other pages to the grid).
  // Storage refused (private browsing, full) leaves the grid as it was without it.
  var KEEP = form.getAttribute("data-grid-keep");
  var KEEP_MS = 2 * 24 * 3600 * 1000;  // a row kept longer belongs to a day that is over

  function kept() {
    try {
      var found = JSON.parse(window.localStorage.getItem(KEEP));
      return found && found.rows ? found.rows : {};
    } catch (error) { return {}; }
  }

  function store(rowsKept) {
    try {
      if (Object.keys(rowsKept).length) {
        window.localStorage.setItem(KEEP, JSON.stringify({url: form.action, rows: rowsKept}));
      } else {
        window.localStorage.removeItem(KEEP);
      }
    } catch (error) { /* nothing kept: the row still waits on the page */ }
  }

  function keep(row) {
    if (!KEEP) { return; }
    var rowsKept = kept();
    rowsKept[row.getAttribute("data-table")] = {at: Date.now(), fields: inputs(row).map(function (input) {
      return [input.name, input.type === "checkbox" ? (input.checked ? "on" : "") : input.value];
    })};
    store(rowsKept);
  }

  function forget(row) {
    if (!KEEP) { return; }
    var rowsKept = kept();
    if (rowsKept[row.getAttribute("data-table")]) {
      delete rowsKept[row.getAttribute("data-table")];
      store(rowsKept);
    }
  }

  function putBack() {
    if (!KEEP) { return; }
    var rowsKept = kept();
    Object.keys(rowsKept).forEach(function (table) {
      var entry = rowsKept[table];
      var row = form.querySelector("tr[data-table='" + table + "']");
      if (!row || !entry || !entry.fields || Date.now() - entry.at > KEEP_MS) {
        delete rowsKept[table];
        return;
      }
      entry.fields.forEach(function (field) {
        var input = row.querySelector("[name='" + field[0] + "']");
        if (!input) { return; }
        if (input.type === "checkbox") { input.checked = field[1] === "on"; } else { input.value = field[1]; }
      });
      var confirm = row.querySelector(".grid-confirm");
      if (confirm && confirm.querySelector("input").checked) { confirm.hidden = false; }
      save(row, true);
      show(row, "pending", words("restored"));
    });
    store(rowsKept);
  }

  // A row the site did not answer is sent again when the network returns (the browser's online event) and, as a
  // venue's Wi-Fi may be up with no way out, every RETRY_MS while one waits; the referee can leave the row to send
  // it at once. A row sent twice changes nothing (its revision).
  var RETRY_MS = 15000;
  var retry = null;

  function resend() {
    retry = null;
    rows.forEach(function (row) { if (row.gridUnreachable && !row.gridQueued) { save(row, true); } });
  }

  function resendLater() {
    if (retry === null) { retry = window.setTimeout(resend, RETRY_MS); }
  }

  window.addEventListener("online", function () {
    if (retry !== null) { window.clearTimeout(retry); }
    resend();
  });

  rows.forEach(function (row) {
    // A row the server refused (the grid sent without this script) still waits to be saved.
    row.gridSent = row.getAttribute("data-state") === "error" ? null : typed(row);
    row.gridEntered = row.hasAttribute("data-entered");  // the table holds a result: what the count counts
    var confirm = row.querySelector(".grid-confirm input");
    if (confirm) {
      confirm.addEventListener("change", function () { if (confirm.checked) { save(row, true); } });
    }
  });

  form.addEventListener("focusout", function (event) {
    var row = event.target.closest("tr[data-table]");
    if (!row || (event.relatedTarget && row.contains(event.relatedTarget))) { return; }
    if (event.target.closest(".grid-confirm")) { return; }
    save(row);
  });

  form.addEventListener("keydown", function (event) {
    var row = event.target.closest("tr[data-table]");
    if (event.key !== "Enter" || !row || event.target.type === "checkbox") { return; }
    event.preventDefault();
    save(row);
    var next = rows[rows.indexOf(row) + 1];
    var field = next && next.querySelector("input:not([type=hidden])");
    if (field) { field.focus(); }
  });

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    Promise.all(rows.map(function (row) { return save(row); })).then(recount);
  });
  putBack();
  form.setAttribute("data-grid-ready", "");
}());
