/* A Voms slip on the phone by steppers: − and + beside each team's lus, from 0 to the most lus the tournament
   accepts, and "9" (what the winner has in most games) at once, writing into the same boxes as typing (an "input" event per tap: the draft keeping and the send are
   unchanged). The match points the rules give the lus (2, 2.5 or 1.5 for the winner) and the rules' refusal are
   shown as you tap: the page's own answer (`?preview`, nothing stored); the send checks everything again. */
(function () {
  "use strict";
  var configNode = document.getElementById("entry-config");
  if (!configNode || !window.Numpad) { return; }
  var config = JSON.parse(configNode.textContent);
  var form = document.getElementById(config.form);
  if (!config.editable || !form) { return; }
  var most = config.max_lus;
  var pattern = new RegExp(config.fields);

  function lusOf(input) { return /^\d+$/.test(input.value.trim()) ? parseInt(input.value, 10) : null; }

  function bounds(input) {  // − stops at 0, + at the most lus the rules accept
    var value = lusOf(input);
    form.querySelectorAll(".vs-step[data-step][data-for='" + input.id + "']").forEach(function (button) {
      var step = parseInt(button.dataset.step, 10);
      button.disabled = value !== null && (step < 0 ? value <= 0 : value >= most);
    });
  }

  form.querySelectorAll(".vs-step").forEach(function (button) {
    var input = document.getElementById(button.dataset.for);
    button.hidden = false;
    // a tap on a stepper does not take the focus from where it is: the phone's keyboard stays closed
    button.addEventListener("mousedown", function (event) { event.preventDefault(); });
    button.addEventListener("click", function () {
      var value = lusOf(input);
      var step = parseInt(button.dataset.step, 10);
      var next = button.dataset.set ? parseInt(button.dataset.set, 10)
        : value === null ? (step > 0 ? 1 : 0) : Math.min(most, Math.max(0, value + step));
      input.value = String(next);
      input.dispatchEvent(new Event("input", { bubbles: true }));
      input.dispatchEvent(new Event("change", { bubbles: true }));
    });
    bounds(input);
  });

  var asked = "", timer = null;

  function show(answer) {
    var byGame = {};
    answer.games.forEach(function (game) { byGame[game.game] = game; });
    form.querySelectorAll(".vs-points").forEach(function (line) {
      var game = byGame[line.dataset.game];
      var refusal = document.getElementById(line.id.replace("vs-points", "vs-refusal"));
      var scored = game && !game.error;
      var text = scored ? line.dataset.label + " — " + line.dataset.a + ": " + game.points_a + " · " + line.dataset.b
        + ": " + game.points_b : "";
      if (line.textContent !== text) { line.textContent = text; }
      line.hidden = !scored;
      // a refusal once both lus are there: while one box is still empty it would only say so
      var boxes = form.querySelectorAll("#ph-g" + line.dataset.game + " input.ph-lus");
      var both = Array.prototype.every.call(boxes, function (box) { return box.value.trim() !== ""; });
      var message = game && game.error && both ? game.error : "";
      if (refusal.textContent !== message) { refusal.textContent = message; }
      refusal.hidden = !message;
    });
  }

  function ask() {
    var query = window.Numpad.query(form, pattern).toString();
    if (query === asked) { return; }
    asked = query;
    fetch(window.location.pathname + "?preview=1&" + query, { headers: { Accept: "application/json" } })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (answer) { if (answer && asked === query) { show(answer); } })
      .catch(function () { asked = ""; });  // no connection: shown again once it is back
  }

  function changed(event) {
    if (event.target.classList && event.target.classList.contains("ph-lus")) { bounds(event.target); }
    window.clearTimeout(timer);
    timer = window.setTimeout(ask, 400);  // a pause or a move on, not every digit: fewer asks of a busy hall laptop
  }
  form.addEventListener("input", changed);
  form.addEventListener("change", changed);
  window.addEventListener("online", ask);
  ask();
}());
