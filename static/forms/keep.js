/* Changing the screen language reloads the page: what was typed in its forms (a tournament's name, a player
   at the desk, a score list half entered) comes back on the same page in the new language, instead of being
   lost. Kept in this tab's sessionStorage only, for the next page shown; passwords and files are never kept. */
(function () {
  "use strict";
  var KEY = "typed-before-language-switch";
  var SKIPPED = ["hidden", "password", "file", "submit", "button", "reset", "image"];

  function switcher(form) {
    return form.classList.contains("lang");  // the language switch at the top (templates/base.html)
  }

  function fields() {
    var found = [];
    Array.prototype.forEach.call(document.forms, function (form, index) {
      if (switcher(form)) { return; }
      Array.prototype.forEach.call(form.elements, function (el) {
        if (!el.name || SKIPPED.indexOf(el.type) >= 0 || el.disabled) { return; }
        found.push({ form: index, el: el });
      });
    });
    return found;
  }

  document.addEventListener("submit", function (event) {
    if (!switcher(event.target)) { return; }
    var typed = fields().map(function (field) {
      var el = field.el, checkable = el.type === "checkbox" || el.type === "radio";
      return { form: field.form, name: el.name, value: el.value, checked: checkable ? el.checked : null };
    });
    try {
      window.sessionStorage.setItem(KEY, JSON.stringify({ path: location.pathname + location.search, typed: typed }));
    } catch (error) { /* storage full or switched off: the page reloads as before */ }
  });

  document.addEventListener("DOMContentLoaded", function () {
    var saved;
    try {
      saved = JSON.parse(window.sessionStorage.getItem(KEY) || "null");
      window.sessionStorage.removeItem(KEY);
    } catch (error) { return; }
    if (!saved || saved.path !== location.pathname + location.search) { return; }
    var used = {};
    fields().forEach(function (field) {
      var el = field.el;
      // the same field on the same form, in order (a grid has many fields of one name)
      var key = field.form + "/" + el.name + (el.type === "radio" || el.type === "checkbox" ? "/" + el.value : "");
      var index = used[key] || 0;
      used[key] = index + 1;
      var matches = saved.typed.filter(function (item) {
        return item.form === field.form && item.name === el.name && (item.checked === null || item.value === el.value);
      });
      var item = matches[index];
      if (!item) { return; }
      if (item.checked !== null) {
        if (el.checked !== item.checked) { el.checked = item.checked; el.dispatchEvent(new Event("change", { bubbles: true })); }
      } else if (el.value !== item.value) {
        el.value = item.value;
        el.dispatchEvent(new Event("input", { bubbles: true }));
        el.dispatchEvent(new Event("change", { bubbles: true }));
      }
    });
  });
}());
