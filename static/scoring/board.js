/* The round's board: the focus starts on "Confirm next", and N opens it from anywhere on the page (not while
   typing in a field). htmx reloads the board; the link keeps its id, so the focus stays on it. With nothing to
   confirm (back from confirming the last one) the focus is on "No entry awaits your confirmation." instead of
   nowhere, and when the board's reload brings an entry to confirm, the focus moves on to "Confirm next": Enter
   opens it. A focus the director put elsewhere stays where it is. */
(function () {
  "use strict";
  function next() { return document.getElementById("confirm-next"); }
  function land() {
    var active = document.activeElement;
    var target = next() || document.getElementById("confirm-none");
    if (target && (active === document.body || active === null || active.id === "confirm-none")) { target.focus(); }
  }
  land();
  document.body.addEventListener("htmx:afterSettle", land);
  document.addEventListener("keydown", function (event) {
    if (event.key !== "n" && event.key !== "N") { return; }
    if (event.ctrlKey || event.metaKey || event.altKey) { return; }
    var target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) { return; }
    var link = next();
    if (link) { event.preventDefault(); window.location.assign(link.href); }
  });
})();
