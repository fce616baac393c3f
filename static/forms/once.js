/* A form that appends (it carries a form_key, see tournament/services/replay.py) is sent once: a
   second click while the first is on its way does nothing, and its buttons say so. The server
   recognises a form sent twice anyway; this only spares the second request. */
(function () {
  "use strict";
  var WAIT_MS = 10000;  // an answer lost on the network must not lock the form for good

  function buttons(form) {
    return Array.prototype.filter.call(form.elements, function (el) { return el.type === "submit"; });
  }

  function release(form) {
    delete form.dataset.sending;
    buttons(form).forEach(function (button) { button.disabled = false; button.removeAttribute("aria-busy"); });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (event.defaultPrevented || !form.querySelector("input[name='form_key']")) { return; }
    if (form.dataset.sending) { event.preventDefault(); return; }
    form.dataset.sending = "1";
    // disabled only after the browser has read the form: a disabled button's name and value are not sent
    window.setTimeout(function () {
      buttons(form).forEach(function (button) { button.disabled = true; button.setAttribute("aria-busy", "true"); });
    }, 0);
    window.setTimeout(function () { release(form); }, WAIT_MS);
  });

  // back to the page from the browser's cache: its forms can be used again (the server still checks)
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) { Array.prototype.forEach.call(document.forms, release); }
  });
}());
