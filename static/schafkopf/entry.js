/* Score list entry without the mouse: Enter moves on (a complete row: to the next game), points and running
   totals are computed live from the tariff. The server recomputes everything with the rules when saving. */
(function () {
  "use strict";
  var form = document.getElementById("sk-list");
  var configNode = document.getElementById("entry-config");
  if (!form || !configNode) { return; }
  var config = JSON.parse(configNode.textContent);
  var tariff = config.tariff;
  var size = config.size;
  var sum = document.getElementById("sk-sum");
  var save = document.getElementById("sk-save");
  var reason = document.getElementById("id_reason");

  function field(name) { return form.elements.namedItem(name); }
  function value(name) { var input = field(name); return input ? input.value.trim() : ""; }
  function seat(text) { var n = parseInt(text, 10); return /^\d$/.test(text) && n >= 1 && n <= size ? n : 0; }

  /* --- game by game --- */

  function readRow(game) {
    var type = config.types[value("t" + game).toUpperCase()];
    var extra = value("x" + game).toUpperCase();
    var initials = value("i" + game);
    return {
      type: type, declarer: seat(value("d" + game)), partner: seat(value("p" + game)),
      won: value("r" + game) === "+" ? true : value("r" + game) === "-" ? false : null,
      schneider: extra === "S" || extra === "Z" || extra === "D", schwarz: extra === "Z" || extra === "D",
      extraOk: ["", "S", "Z", "D"].indexOf(extra) >= 0, tout: initials !== "",
      laufende: parseInt(value("l" + game), 10) || 0
    };
  }

  function sittingOut(game) { return size === 5 ? (game - 1) % size + 1 : 0; }

  function complete(row, game) {
    var out = sittingOut(game);
    if (!row.type || !row.declarer || row.declarer === out || row.won === null || !row.extraOk) { return false; }
    if (row.type.solo) { return !(row.tout && game === 1); }
    return !row.tout && row.partner && row.partner !== row.declarer && row.partner !== out;
  }

  /* The rules' refusal a typed row already shows (null: none, or not typed far enough to tell): said under the row
     at once, in the server's words (config.messages), not only when the list is saved. */
  var messages = config.messages || {};

  function problem(row, game) {
    var out = sittingOut(game);
    if (!row.type || !row.declarer) { return null; }
    if (row.declarer === out) { return { key: "sits_out", seat: row.declarer }; }
    if (row.type.solo) { return row.tout && game === 1 ? { key: "tout_in_first_game" } : null; }
    if (row.partner && row.partner === row.declarer) { return { key: "partner_is_declarer" }; }
    if (row.partner && row.partner === out) { return { key: "sits_out", seat: row.partner }; }
    return null;
  }

  function typedThrough(row) {
    return !!(row.type && row.declarer && (row.type.solo || row.partner) && row.won !== null);
  }

  function messageOf(found, game) {
    return messages[found.key].replace("%(seat)s", found.seat).replace("%(game_number)s", game);
  }

  function showProblem(tr, game, found) {
    var next = tr.nextElementSibling;
    var live = next && next.classList.contains("sk-live") ? next : null;
    var fromServer = next && next.classList.contains("sk-msg") && !live;
    if (!found || !messages[found.key] || fromServer) {
      if (live) { live.parentNode.removeChild(live); }
      return;
    }
    var text = messageOf(found, game);
    if (!live) {
      live = document.createElement("tr");
      live.className = "sk-msg sk-live";
      var cell = document.createElement("td");
      cell.colSpan = tr.cells.length;
      cell.setAttribute("role", "alert");
      cell.appendChild(document.createElement("div")).className = "sk-msg-text";
      live.appendChild(cell);
      tr.parentNode.insertBefore(live, tr.nextSibling);
    }
    var shown = live.querySelector(".sk-msg-text");
    if (shown.textContent !== text) { shown.textContent = text; }
  }

  function amount(row) {
    var solo = row.type.solo;
    var base = row.tout ? tariff.tout
      : row.schwarz ? (solo ? tariff.solo_schwarz : tariff.ruf_schwarz)
      : row.schneider ? (solo ? tariff.solo_schneider : tariff.ruf_schneider)
      : (solo ? tariff.solo : tariff.ruf);
    if (tariff.laufende_from !== null && row.laufende >= tariff.laufende_from) {
      base += row.laufende * tariff.laufende_value;
    }
    return base;
  }

  function points(row, game) {
    var each = amount(row) * (row.won ? 1 : -1);
    var out = sittingOut(game);
    var result = [];
    for (var s = 1; s <= size; s++) { result[s] = s === out ? 0 : -each; }
    if (row.type.solo) { result[row.declarer] = 3 * each; } else { result[row.declarer] = result[row.partner] = each; }
    return result;
  }

  function blank(game) {
    return ["t", "d", "p", "r", "x", "l", "i"].every(function (name) { return value(name + game) === ""; });
  }

  function recompute() {
    var running = [];
    var broken = false;
    for (var s = 1; s <= size; s++) { running[s] = 0; }
    for (var game = 1; game <= config.games; game++) {
      var tr = document.getElementById("g" + game);
      var row = readRow(game);
      var ok = complete(row, game);
      var cells = tr.querySelectorAll(".sk-pts");
      var pts = ok ? points(row, game) : null;
      broken = broken || (!ok && !blank(game));
      tr.classList.toggle("sk-incomplete", !ok && !blank(game));
      showProblem(tr, game, ok ? null : problem(row, game));
      for (s = 1; s <= size; s++) {
        if (pts && !broken) { running[s] += pts[s]; }
        cells[s - 1].querySelector(".sk-p").textContent = pts ? pts[s] : "";
        cells[s - 1].querySelector(".sk-s").textContent = pts && !broken ? running[s] : "";
      }
      var partner = field("p" + game);
      if (partner && config.editable) {
        partner.disabled = !!(row.type && row.type.solo);
        if (partner.disabled) { partner.value = ""; }
      }
    }
    // A total that skips a game it cannot score would mislead: show none until every game adds up.
    var totals = document.querySelectorAll(".sk-total");
    var total = 0;
    for (s = 1; s <= size; s++) { totals[s - 1].textContent = broken ? "" : running[s]; total += running[s]; }
    showSum(broken ? null : total);
  }

  function showSum(total) {
    if (!sum) { return; }
    sum.textContent = total === null ? "" : total === 0 ? sum.dataset.ok : sum.dataset.bad + " " + total;
    sum.classList.toggle("sk-off", total !== null && total !== 0);
  }

  /* --- totals only --- */

  function recomputeTotals() {
    var total = 0;
    var missing = false;
    form.querySelectorAll(".sk-total-in").forEach(function (input) {
      missing = missing || input.value.trim() === "";
      total += parseInt(input.value.replace("\u2212", "-"), 10) || 0;
    });
    showSum(missing ? null : total);
  }

  /* --- the keyboard --- */

  function inputsOf(tr) {
    return Array.prototype.filter.call(tr.querySelectorAll("input"), function (input) { return !input.disabled; });
  }

  function finish() {
    (reason || save || form).focus();
  }

  function nextRowFrom(tr) {
    var next = tr.nextElementSibling;
    while (next && !next.classList.contains("sk-row") && next.tagName === "TR" && !next.querySelector("input")) {
      next = next.nextElementSibling;
    }
    return next && next.querySelector("input:not([disabled])") ? next : null;
  }

  function onEnter(input) {
    var tr = input.closest("tr");
    var game = parseInt(tr.dataset.game, 10);
    var inputs = inputsOf(tr);
    if (game && blank(game)) { finish(); return; }
    // A row typed to its end moves on to the next game, also when the rules refuse it (the message under it says
    // why, and saving points at it again): the next game's keys never land in its optional fields.
    if (game && (complete(readRow(game), game) || (typedThrough(readRow(game)) && problem(readRow(game), game)))) {
      var next = nextRowFrom(tr);
      if (next) { next.querySelector("input").focus(); } else { finish(); }
      return;
    }
    var position = inputs.indexOf(input);
    var empty = inputs.slice(position + 1).concat(inputs.slice(0, position)).filter(function (other) {
      return other.value.trim() === "" && !other.classList.contains("sk-i") && other.name[0] !== "x" &&
        other.name[0] !== "l";
    });
    if (empty.length) { empty[0].focus(); return; }
    if (inputs[position + 1]) { inputs[position + 1].focus(); return; }
    var following = nextRowFrom(tr);
    if (following) { following.querySelector("input").focus(); } else { finish(); }
  }

  function moveVertically(input, step) {
    var name = input.name.replace(/\d+$/, "");
    var game = parseInt(input.name.slice(name.length), 10) + step;
    var target = field(name + game);
    if (target && !target.disabled) { target.focus(); target.select(); }
  }

  form.addEventListener("keydown", function (event) {
    var input = event.target;
    if (input.tagName !== "INPUT" || input.type === "hidden" || input.closest(".sk-tap")) { return; }
    if (event.key === "Enter") {
      event.preventDefault();
      if (input === reason) { if (save) { save.focus(); } return; }
      onEnter(input);
    } else if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      if (input === reason) { return; }
      event.preventDefault();
      moveVertically(input, event.key === "ArrowDown" ? 1 : -1);
    }
  });

  form.addEventListener("input", function (event) {
    var input = event.target;
    if (input.classList.contains("sk-in") && !input.classList.contains("sk-i") && input.maxLength === 1) {
      input.value = input.value.toUpperCase();
    }
    if (config.games && document.getElementById("g1")) { recompute(); } else { recomputeTotals(); }
  });

  form.addEventListener("focusin", function (event) {
    if (event.target.tagName === "INPUT") { event.target.select(); }
  });

  // After a refused save: the field the server names (the first in error, or the first empty row of a list
  // refused as incomplete), else the first marked field.
  var named = config.focus ? field(config.focus) : null;
  var firstWrong = (named && !named.disabled ? named : null) || form.querySelector("[aria-invalid=true]") ||
    form.querySelector(".sk-bad input:not([disabled])");
  if (firstWrong) { firstWrong.focus(); firstWrong.select(); }
  if (document.getElementById("g1")) {
    recompute();
    // The phone's tap entry (static/schafkopf/tap.js) writes the grid's fields and asks the same rules about the
    // game being chosen, whose tout it knows before the supervision's initials are in: the message, or "".
    window.schafkopfGrid = {
      refusal: function (game, tout) {
        var row = readRow(game);
        row.tout = row.tout || !!tout;
        var found = problem(row, game);
        return found && messages[found.key] ? messageOf(found, game) : "";
      }
    };
  } else {
    recomputeTotals();
  }
})();
