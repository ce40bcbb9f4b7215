/* Accessibility fixes of Django's admin, in the reader's language.
   - Autocomplete boxes (select2) name themselves after their current value, so an empty one has no name for a
     screen reader: each is also named after its field's label (as select2 builds them, inline rows included).
   - The yes/no/unknown icons of the lists say "True", "False", "None" in English whatever the language: they
     say what the page's <meta name="adlg-booleans"> gives. */
(function () {
  var nameBoxes = function (root) {
    root.querySelectorAll("select.admin-autocomplete").forEach(function (select) {
      var label = document.querySelector('label[for="' + select.id + '"]');
      var wrapper = select.parentElement;
      if (!label || !wrapper) return;
      if (!label.id) label.id = select.id + "-label";
      wrapper.querySelectorAll(".select2-selection[aria-labelledby], .select2-selection__rendered").forEach(
        function (box) {
          var named = (box.getAttribute("aria-labelledby") || box.id || "").split(" ").filter(Boolean);
          if (named.indexOf(label.id) < 0) box.setAttribute("aria-labelledby", [label.id].concat(named).join(" "));
        });
    });
  };
  var booleans = function () {
    var words = document.querySelector('meta[name="adlg-booleans"]');
    if (!words) return;
    document.querySelectorAll('img[src*="/admin/img/icon-"]').forEach(function (icon) {
      var alt = icon.getAttribute("alt");
      if (alt === "True") icon.setAttribute("alt", words.dataset.yes);
      else if (alt === "False") icon.setAttribute("alt", words.dataset.no);
      else if (alt === "None") icon.setAttribute("alt", words.dataset.unknown);
    });
  };
  document.addEventListener("DOMContentLoaded", function () {
    booleans();
    nameBoxes(document);
    new MutationObserver(function () { nameBoxes(document); }).observe(document.body, {childList: true, subtree: true});
  });
})();
