/* A number pad for one thumb (templates/scoring/_numpad.html): writes into one real form field at a time, the way
   typing would (an "input" event after each key, so the page's draft keeping, totals and checks follow), and moves
   on with "Next" / back with "◀". A game's script decides which field is current and what it is (`Numpad.show`);
   the field keeps inputmode="none", so the phone's own keyboard does not cover the page (a real keyboard still
   types into it). Without JavaScript the pad stays hidden and the fields are typed as before. */
(function () {
  "use strict";

  var MOST_DIGITS = 7;  // as the server reads a sheet's numbers (scoring/games/tablegames/forms.py)

  function Numpad(root, moves) {
    this.root = root;
    this.moves = moves;  // {next: fn(byKeyboard), prev: fn(byKeyboard)}
    this.field = null;
    this.who = root.querySelector("#np-who");
    this.what = root.querySelector("#np-what");
    this.value = root.querySelector("#np-value");
    this.error = root.querySelector("#np-error");
    this.note = root.querySelector("#np-note");
    this.choices = root.querySelector("#np-choices");
    this.keys = root.querySelector("#np-keys");
    this.minus = root.querySelector("[data-key=minus]");
    this.zero = root.querySelector(".np-zero");
    this.next = root.querySelector(".np-next");
    this.totals = root.querySelector("#np-totals");
    var pad = this;
    // a tap on a key leaves the focus in the field (and the caret where it was): only a click does something
    root.addEventListener("mousedown", function (event) {
      if (event.target.closest("button")) { event.preventDefault(); }
    });
    root.addEventListener("click", function (event) {
      var button = event.target.closest("button");
      pad.byKeyboard = event.detail === 0;
      if (button && root.contains(button)) { pad.press(button); }
    });
    root.hidden = false;
  }

  Numpad.prototype.changed = function () {
    this.field.dispatchEvent(new Event("input", { bubbles: true }));
    this.field.dispatchEvent(new Event("change", { bubbles: true }));
    this.showValue();
  };

  Numpad.prototype.showValue = function () {
    var field = this.field;
    if (!field) { this.value.textContent = ""; return; }
    if (field.type === "checkbox") {
      this.value.textContent = field.checked ? this.choices.dataset.yes : this.choices.dataset.no;
    } else if (this.spec && this.spec.choices) {
      var chosen = this.spec.choices.filter(function (choice) { return choice.value === field.value; })[0];
      this.value.textContent = chosen ? chosen.label : field.value;
    } else {
      this.value.textContent = field.value.replace("-", "−");
    }
    Array.prototype.forEach.call(this.choices.querySelectorAll("button"), function (button) {
      var on = field.type === "checkbox" ? String(field.checked) === button.dataset.value
        : field.value === button.dataset.value;
      button.setAttribute("aria-pressed", on ? "true" : "false");
    });
  };

  Numpad.prototype.press = function (button) {
    var key = button.dataset.key;
    var field = this.field;
    // from the keyboard (a click without a pointer) the focus stays on the key: the pad says where it moved
    var keyboard = this.byKeyboard;
    if (key === "next") { this.moves.next(keyboard); return; }
    if (key === "prev") { this.moves.prev(keyboard); return; }
    if (button.dataset.value !== undefined && field) {
      if (field.type === "checkbox") { field.checked = button.dataset.value === "true"; } else { field.value = button.dataset.value; }
      this.changed();
      return;
    }
    if (!field || field.type === "checkbox") { return; }
    var text = field.value;
    if (key === "back") {
      text = text.slice(0, -1);
    } else if (key === "clear") {
      text = "";
    } else if (key === "minus") {
      text = text.charAt(0) === "-" || text.charAt(0) === "−" ? text.slice(1) : "-" + text;
    } else if (/^\d$/.test(key)) {
      if (text.replace(/\D/g, "").length >= MOST_DIGITS) { return; }
      text = /^-?0$/.test(text) ? text.slice(0, -1) + key : text + key;  // "0" then "7" is 7, not 07
    }
    field.value = text;
    this.changed();
  };

  /* Makes `field` the current one. `spec`: {who, what, signed, choices: [{label, value}] (a seat picked by name,
     a tick), next: "field" | "player" | "hand" | "done"}. */
  Numpad.prototype.show = function (field, spec) {
    var pad = this;
    this.field = field;
    this.spec = spec;
    this.who.textContent = spec.who || "";
    this.who.classList.toggle("np-long", this.who.textContent.length > 16);
    this.what.textContent = spec.what || "";
    this.choices.replaceChildren();
    (spec.choices || []).forEach(function (choice) {
      var button = document.createElement("button");
      button.type = "button";
      button.textContent = choice.label;
      button.dataset.value = choice.value;
      pad.choices.appendChild(button);
    });
    var picking = !!(spec.choices && spec.choices.length);
    this.keys.hidden = picking;
    this.zero.hidden = picking;
    this.choices.hidden = !picking;
    this.minus.disabled = !spec.signed;
    this.next.textContent = this.next.dataset[spec.next || "field"];
    this.showValue();
  };

  Numpad.prototype.say = function (message) {
    this.error.textContent = message || "";
    this.error.hidden = !message;
  };

  Numpad.prototype.tell = function (message) {
    this.note.textContent = message || "";
    this.note.hidden = !message;
  };

  Numpad.prototype.sayTotals = function (text) {
    if (this.totals.textContent !== text) { this.totals.textContent = text; }
  };

  /* The page's fields of `form` whose names match `pattern`, as a query string (the form's token left out): what a
     preview of the page's own computation is asked with. */
  Numpad.query = function (form, pattern) {
    var query = new URLSearchParams();
    new FormData(form).forEach(function (value, name) {
      if (pattern.test(name) && value !== "") { query.append(name, value); }
    });
    return query;
  };

  window.Numpad = Numpad;
}());
