/* Table-game score sheets without the mouse: Enter moves to the next field of the grid, and on the
   last field (the new hand's last player, or the last player of a patience list) saves the sheet.
   Space ticks a checkbox; Tab and Shift+Tab work as everywhere. Without JavaScript Enter saves at once. */
(function () {
  "use strict";
  var form = document.getElementById("tg-sheet");
  if (!form) { return; }
  var grid = form.querySelector(".tg-grid");
  var save = document.getElementById("tg-add");

  function fields() {
    return Array.prototype.filter.call(grid.querySelectorAll("input"), function (el) { return !el.disabled; });
  }

  // The new hand (or the first result) has autofocus; make sure it has the focus after a save, too.
  var start = document.querySelector("[autofocus]");
  if (start && document.activeElement === document.body) { start.focus(); }
  // A refused hand comes back with what was typed: typing again replaces it.
  if (start && start === document.activeElement && start.select && start.type !== "checkbox") { start.select(); }

  grid.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" || event.target.tagName !== "INPUT" || event.isComposing) { return; }
    event.preventDefault();
    var all = fields();
    var next = all[all.indexOf(event.target) + 1];
    if (next) {
      next.focus();
      if (next.select && next.type !== "checkbox") { next.select(); }
    } else if (save) {
      form.requestSubmit(save);
    } else {
      form.requestSubmit();
    }
  });
}());
