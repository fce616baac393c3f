/* A table's phone page keeps what is typed in this phone (localStorage) until it is sent: a reload or a dropped
   connection loses nothing. Filed under the place and the link's short hint, never the token. The page says
   which form and which inputs (entry-config: form, fields); runs before the game's own script, so restored
   values are treated like typed ones. */
(function () {
  "use strict";
  var configNode = document.getElementById("entry-config");
  if (!configNode) { return; }
  var config = JSON.parse(configNode.textContent);
  var form = document.getElementById(config.form || "sk-list");
  if (!form) { return; }
  var key = config.storage;
  var store;
  try { store = window.localStorage; } catch (error) { return; }
  if (!store || !key) { return; }
  var fieldName = new RegExp(config.fields || "^[tdprxli]\\d+$");

  function read() {
    try { return JSON.parse(store.getItem(key) || "null"); } catch (error) { return null; }
  }

  function inputs() {
    return Array.prototype.filter.call(form.elements, function (input) { return fieldName.test(input.name); });
  }

  function valueOf(input) {
    if (input.type === "checkbox" || input.type === "radio") { return input.checked ? input.value : ""; }
    return input.value;
  }

  function keep(sending) {
    var values = {};
    inputs().forEach(function (input) {
      var value = valueOf(input);
      if (value !== "") { values[input.type === "radio" ? input.name + "=" + input.value : input.name] = value; }
    });
    store.setItem(key, JSON.stringify({ values: values, sending: sending }));
  }

  function restore(values) {
    inputs().forEach(function (input) {
      var has = Object.prototype.hasOwnProperty;
      if (input.type === "radio") {
        input.checked = has.call(values, input.name + "=" + input.value);
      } else if (input.type === "checkbox") {
        input.checked = has.call(values, input.name);
      } else {
        input.value = has.call(values, input.name) ? values[input.name] : "";
      }
      if (input.classList.contains("sk-partner")) { input.disabled = false; }
    });
  }

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

  var saved = read();
  if (!config.editable) { store.removeItem(key); return; }
  if (saved && saved.sending && form.dataset.sent === "1") {
    store.removeItem(key);  // it arrived: the page shows what was sent
  } else if (saved && saved.values) {
    restore(saved.values);
  }
  form.addEventListener("input", function () { keep(false); });
  form.addEventListener("change", function () { keep(false); });
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
    var button = form.querySelector("button[type=submit]");
    // a second tap while the first is on its way sends nothing more (the server ignores a repeat anyway)
    if (button) { window.setTimeout(function () { button.disabled = true; }, 0); }
  });
})();
