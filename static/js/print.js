// The printouts' Print button (templates/live/print/base.html): hidden without JavaScript, where the browser's
// own print command does the same.
document.addEventListener("DOMContentLoaded", () => {
  for (const button of document.querySelectorAll("[data-print]")) {
    button.hidden = false;
    button.addEventListener("click", () => window.print());
  }
});
