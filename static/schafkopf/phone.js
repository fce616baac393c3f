/* The table's page keeps what is typed in this phone (localStorage) until the list is sent: a reload or a
   dropped connection loses nothing. Filed under the table and the link's short hint, never the token.
   Runs before entry.js, so the restored values are scored like typed ones. */
(function () {
  "use strict";
  var form = document.getElementById("sk-list");
  var configNode = document.getElementById("entry-config");
  if (!form || !configNode) { return; }
  var config = JSON.parse(configNode.textContent);
  var key = config.storage;
  var store;
  try { store = window.localStorage; } catch (error) { return; }
  if (!store || !key) { return; }
  // the grid's fields, and the totals-only form's (where the director allows it)
  var gridName = /^(?:[tdprxli]|total|solo_played|solo_won|tout_played|tout_won)\d+$/;

  function read() {
    try { return JSON.parse(store.getItem(key) || "null"); } catch (error) { return null; }
  }

  function inputs() {
    return Array.prototype.filter.call(form.elements, function (input) { return gridName.test(input.name); });
  }

  function keep(sending) {
    var values = {};
    inputs().forEach(function (input) { if (input.value !== "") { values[input.name] = input.value; } });
    store.setItem(key, JSON.stringify({ values: values, sending: sending }));
  }

  function showTotals() {
    // entry.js writes the running totals into the grid's foot; the summary under the grid repeats them
    var cells = document.querySelectorAll("tfoot .sk-total");
    document.querySelectorAll(".ph-total").forEach(function (span) {
      var cell = cells[parseInt(span.dataset.seat, 10) - 1];
      span.textContent = cell ? cell.textContent : "";
    });
  }
  form.addEventListener("input", function () { window.setTimeout(showTotals, 0); });
  window.addEventListener("load", showTotals);

  var saved = read();
  if (!config.editable) { store.removeItem(key); return; }
  if (saved && saved.sending && form.dataset.sent === "1") {
    store.removeItem(key);  // it arrived: the page shows what was sent
  } else if (saved && saved.values) {
    inputs().forEach(function (input) {
      input.value = Object.prototype.hasOwnProperty.call(saved.values, input.name) ? saved.values[input.name] : "";
      if (input.classList.contains("sk-partner")) { input.disabled = false; }
    });
  }
  form.addEventListener("input", function () { keep(false); });
  // Without a connection the browser would replace the page by its error page: say so here instead, keep
  // everything, and let the table send again once the phone is back online.
  var offline = document.getElementById("ph-offline");
  window.addEventListener("online", function () { if (offline) { offline.hidden = true; } });
  form.addEventListener("submit", function (event) {
    if (navigator.onLine === false) {
      event.preventDefault();
      keep(false);
      if (offline) { offline.hidden = false; offline.focus(); }
      return;
    }
    keep(true);
    var button = document.getElementById("sk-save");
    // a second tap while the first is on its way sends nothing more (the server ignores a repeat anyway)
    if (button) { window.setTimeout(function () { button.disabled = true; }, 0); }
  });
})();
