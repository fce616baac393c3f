/* A table's phone page: the running totals under the grid, and a send without a connection stopped with a note.
   What is typed is kept in the phone until it is sent by static/scoring/draft.js (filed under the place and the
   link's short hint, never the token), which runs before this script and the game's own. */
(function () {
  "use strict";
  var configNode = document.getElementById("entry-config");
  if (!configNode) { return; }
  var config = JSON.parse(configNode.textContent);
  var form = document.getElementById(config.form || "sk-list");
  if (!form) { return; }
  function showTotals() {
    // Schafkopf: entry.js writes the running totals into the grid's foot; the summary under the grid repeats them
    var cells = document.querySelectorAll("tfoot .sk-total");
    document.querySelectorAll(".ph-total").forEach(function (span) {
      var cell = cells[parseInt(span.dataset.seat, 10) - 1];
      span.textContent = cell ? cell.textContent : "";
    });
  }
  if (config.liveTotals) {
    form.addEventListener("input", function () { window.setTimeout(showTotals, 0); });
    window.addEventListener("load", showTotals);
  }

  if (!config.editable) { return; }
  // Without a connection the browser would replace the page by its error page: say so here instead, keep
  // everything, and let the table send again once the phone is back online.
  var offline = document.getElementById("ph-offline");
  window.addEventListener("online", function () { if (offline) { offline.hidden = true; } });
  form.addEventListener("submit", function (event) {
    if (navigator.onLine === false) {
      event.preventDefault();  // what is typed stays kept (static/scoring/draft.js)
      if (offline) { offline.hidden = false; offline.focus(); }
      return;
    }
    var button = form.querySelector("button[type=submit]");
    // a second tap while the first is on its way sends nothing more (the server ignores a repeat anyway)
    if (button) { window.setTimeout(function () { button.disabled = true; }, 0); }
  });
})();
