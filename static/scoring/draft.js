/* What is typed into a score form is kept in this browser (localStorage) until it is saved or sent: a reload, a
   page left by mistake or a crashed browser loses nothing. Used by a table's phone page (scoring/phone.py) and the
   referee table's entry pages (scoring/drafts.py). The page's entry-config says where it is kept (storage: a key
   naming the place, never a link's token), which form and which inputs (form, fields), whether the page is a
   refused save shown again (posted) and, on the referee table's pages, which saved state the form shows (base).
   Runs before the game's own script, so restored values are treated like typed ones.

   Once saved, the kept typing goes: the page shows it sent (the phone's data-sent), or shows a newer saved state
   than the one typed on. Typing put back says so (#draft-kept) and can be dropped there. Typing never saved, when
   the list has been saved since by someone else, is not put over the saved values: the page says so (#draft-note)
   and lets the person put it back or drop it. */
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
  var base = config.base === undefined || config.base === null ? null : String(config.base);

  function read() {
    try { return JSON.parse(store.getItem(key) || "null"); } catch (error) { return null; }
  }

  function drop() {
    try { store.removeItem(key); } catch (error) { /* switched off: nothing kept anyway */ }
  }

  function inputs() {
    return Array.prototype.filter.call(form.elements, function (input) { return fieldName.test(input.name); });
  }

  function valueOf(input) {
    if (input.type === "checkbox" || input.type === "radio") { return input.checked ? input.value : ""; }
    return input.value;
  }

  var quiet = false;  // the form changed by this script, not typed

  function valuesShown() {
    var values = {};
    inputs().forEach(function (input) {
      var value = valueOf(input);
      // a radio chosen is kept even when its value is empty (a Voms slip's "from the lus"): put back, the group
      // would otherwise come back with nothing chosen
      if (input.type === "radio") {
        if (input.checked) { values[input.name + "=" + input.value] = value; }
      } else if (value !== "") { values[input.name] = value; }
    });
    return values;
  }

  function keep(sending) {
    var values = valuesShown();
    try {
      store.setItem(key, JSON.stringify({ values: values, sending: sending, base: base }));
    } catch (error) { /* storage full or switched off: the form works as before */ }
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

  // typing on another saved state than the one shown: offered, never put over the saved values unasked
  function offer(values) {
    var note = document.getElementById("draft-note");
    if (!note) { return; }
    var undecided = true;
    function decided() {
      undecided = false;
      note.hidden = true;
      var first = inputs().filter(function (input) { return !input.disabled; })[0];
      if (first) { first.focus(); }
    }
    note.hidden = false;
    note.querySelector("[data-draft=restore]").addEventListener("click", function () {
      restore(values);
      keep(false);
      decided();
      form.dispatchEvent(new Event("input", { bubbles: true }));  // the game's script adds up again
    });
    note.querySelector("[data-draft=drop]").addEventListener("click", function () { drop(); decided(); });
    // typing in the form works on the saved version: the old typing is replaced from then on
    form.addEventListener("input", function () { if (undecided) { undecided = false; note.hidden = true; } });
    return true;
  }

  // typing put back on the saved state it was typed on: the page says the form is not what is saved, and the
  // typing can be dropped (the form shows the saved values again)
  function tell(shown) {
    var note = document.getElementById("draft-kept");
    if (!note) { return; }
    note.hidden = false;
    note.querySelector("[data-draft=discard]").addEventListener("click", function () {
      drop();
      note.hidden = true;
      restore(shown);
      quiet = true;
      form.dispatchEvent(new Event("input", { bubbles: true }));  // the game's script adds up again
      quiet = false;
      var first = inputs().filter(function (input) { return !input.disabled; })[0];
      if (first) { first.focus(); }
    });
  }

  var saved = read();
  if (!config.editable || !inputs().length) { drop(); return; }  // nothing to type here any more
  var moved = base !== null && saved !== null && saved.base !== base;  // saved since this was typed
  if (saved && saved.sending && (form.dataset.sent === "1" || moved)) {
    drop();  // it arrived: the page shows what was saved
    saved = null;
  }
  if (config.posted) {
    keep(false);  // a refused save shown again: the form holds what was just sent
  } else if (saved && saved.values && moved) {
    if (!offer(saved.values)) { drop(); }
  } else if (saved && saved.values) {
    var shown = valuesShown();
    restore(saved.values);
    if (JSON.stringify(valuesShown()) !== JSON.stringify(shown)) { tell(shown); }
  }
  form.addEventListener("input", function () { if (!quiet) { keep(false); } });
  form.addEventListener("change", function () { if (!quiet) { keep(false); } });
  // after the form's own listeners (the phone's offline check may stop the sending)
  document.addEventListener("submit", function (event) {
    if (event.target === form && !event.defaultPrevented) { keep(true); }
  });
})();
