/* The round's board: the focus starts on "Confirm next", and N opens it from anywhere on the page (not while
   typing in a field). htmx reloads the board; the link keeps its id, so the focus stays on it. */
(function () {
  "use strict";
  function next() { return document.getElementById("confirm-next"); }
  var first = next();
  if (first && (document.activeElement === document.body || document.activeElement === null)) { first.focus(); }
  document.addEventListener("keydown", function (event) {
    if (event.key !== "n" && event.key !== "N") { return; }
    if (event.ctrlKey || event.metaKey || event.altKey) { return; }
    var target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) { return; }
    var link = next();
    if (link) { event.preventDefault(); window.location.assign(link.href); }
  });
})();
