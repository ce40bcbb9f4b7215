/* Progressive enhancement only: every page works without this file.
   - <html class="js">: the stylesheet may fold the phone menu, since a button can open it again.
   - The Menu button opens and closes the header's menu on a phone (Escape closes it and gives the focus back).
   - A folded <details class="fold"> (the rating list's filters) opens on a wide screen, for browsers whose CSS
     cannot show it open there (::details-content).
   - A table too wide for its box scrolls inside it: the box then takes the keyboard's focus (arrow keys scroll
     it) and is named after the table's heading, as a region.
   - A button [data-copy="<input id>"] copies that field's text (a player's private link) and says so.
   - The rules page's calculator offers the results of the system chosen, as the system select changes. */
document.documentElement.classList.add("js");

document.addEventListener("DOMContentLoaded", function () {
  var toggle = document.querySelector(".menu-toggle");
  var menu = document.getElementById("site-menu");
  if (toggle && menu) {
    var setOpen = function (open) {
      toggle.setAttribute("aria-expanded", open ? "true" : "false");
      menu.classList.toggle("open", open);
    };
    toggle.addEventListener("click", function () {
      setOpen(toggle.getAttribute("aria-expanded") !== "true");
    });
    document.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && toggle.getAttribute("aria-expanded") === "true") {
        setOpen(false);
        toggle.focus();
      }
    });
  }
  if (window.matchMedia && window.matchMedia("(min-width: 761px)").matches) {
    document.querySelectorAll("details.fold").forEach(function (fold) { fold.open = true; });
  }
  var scrollable = function () {
    document.querySelectorAll(".table-wrap").forEach(function (box) {
      if (box.scrollWidth > box.clientWidth + 1) {
        if (!box.hasAttribute("tabindex")) {
          box.setAttribute("tabindex", "0");
          box.setAttribute("role", "region");
          var heading = box.previousElementSibling;
          while (heading && !/^H[1-6]$/.test(heading.tagName)) heading = heading.previousElementSibling;
          var caption = box.querySelector("caption");
          var name = caption ? caption.textContent : heading ? heading.textContent : document.title;
          box.setAttribute("aria-label", name.trim());
        }
      } else if (box.getAttribute("role") === "region") {
        box.removeAttribute("tabindex");
        box.removeAttribute("role");
        box.removeAttribute("aria-label");
      }
    });
  };
  scrollable();
  window.addEventListener("resize", scrollable);
  document.querySelectorAll("[data-copy]").forEach(function (button) {
    button.addEventListener("click", function () {
      var field = document.getElementById(button.getAttribute("data-copy"));
      if (!field) return;
      field.select();
      var said = function () { button.textContent = button.getAttribute("data-copied"); };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(field.value).then(said, function () {});
      } else if (document.execCommand && document.execCommand("copy")) {
        said();
      }
    });
  });
  // The calculator offers the results of the chosen system only (data-results: system -> [[code, label]]).
  var result = document.getElementById("id_result");
  var system = document.getElementById("id_system");
  if (result && system && result.dataset.results) {
    var bySystem = JSON.parse(result.dataset.results);
    system.addEventListener("change", function () {
      var choices = bySystem[system.value] || [];
      var kept = result.value;
      result.innerHTML = "";
      choices.forEach(function (choice) {
        var option = document.createElement("option");
        option.value = choice[0];
        option.textContent = choice[1];
        option.selected = choice[0] === kept;
        result.appendChild(option);
      });
    });
  }
});
