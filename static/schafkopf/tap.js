/* The table's phone: a score list chosen game by game with buttons (templates/schafkopf/_tap.html), for thumbs.

   Every tap writes the game into the grid's own fields (t, d, p, r, x, l, i of its row) and lets the grid's script
   (static/schafkopf/entry.js) score it with the tariff and check it with the rules, as if typed; the list and the
   totals shown here are read from the grid's computed cells, so they are the grid's figures. What the phone keeps
   (static/scoring/draft.js), the offline note and the send stay the grid's: the form posts the same fields, and
   without JavaScript the grid is the entry. "Type on the grid instead" shows the grid (kept for this tab). */
(function () {
  "use strict";
  var panel = document.getElementById("sk-tap");
  var form = document.getElementById("sk-list");
  var configNode = document.getElementById("entry-config");
  var grid = window.schafkopfGrid;
  if (!panel || !form || !configNode || !grid) { return; }
  var config = JSON.parse(configNode.textContent);
  if (!config.editable || !config.tap) { return; }
  var texts = config.tap;
  var size = config.size;
  var games = config.games;
  var FIELDS = ["t", "d", "p", "r", "x", "l", "i"];
  var MAX_LAUFENDE = 14;
  var listSection = document.getElementById("sk-tap-games");
  var list = document.getElementById("sk-tap-list");
  var title = document.getElementById("sk-tap-title");
  var problemNode = document.getElementById("sk-tap-problem");
  var statusNode = document.getElementById("sk-tap-status");
  var next = document.getElementById("sk-tap-next");
  var initials = document.getElementById("sk-tap-initials");
  var names = {};
  // the list on this page was sent (the page says when): the title says so until a game is changed
  var sent = !!document.getElementById("sent-note");
  panel.querySelectorAll("[data-d]").forEach(function (button) { names[button.dataset.d] = button.textContent; });

  function say(text, values) {
    return text.replace(/%\((\w+)\)s/g, function (all, key) { return values[key]; });
  }
  function field(name) { return form.elements.namedItem(name); }
  function valuesOf(game) {
    var values = {};
    FIELDS.forEach(function (key) { var input = field(key + game); values[key] = input ? input.value.trim() : ""; });
    values.t = values.t.toUpperCase();
    values.x = values.x.toUpperCase() === "D" ? "Z" : values.x.toUpperCase();
    return values;
  }
  function blank(game) {
    var values = valuesOf(game);
    return FIELDS.every(function (key) { return values[key] === ""; });
  }
  function isSolo(letter) { return !!(config.types[letter] && config.types[letter].solo); }
  function sittingOut(game) { return size === 5 ? (game - 1) % size + 1 : 0; }
  function cellsOf(game) { return document.querySelectorAll("#g" + game + " .sk-pts"); }
  // scored by the grid's script: complete, and no rule refuses it
  function scored(game) {
    var cells = cellsOf(game);
    return cells.length > 0 && cells[0].querySelector(".sk-p").textContent !== "";
  }
  function lastEntered() {
    for (var game = games; game >= 1; game--) { if (!blank(game)) { return game; } }
    return 0;
  }
  // the game to choose next: the first one not scored yet (blank, half chosen, or refused)
  function firstOpen() {
    for (var game = 1; game <= games; game++) { if (!scored(game)) { return game; } }
    return 0;
  }

  /* --- the game being chosen --- */

  var state = { game: 0, values: {}, tout: false, editing: false };

  function load(game, editing) {
    state.game = game;
    state.editing = !!editing;
    state.values = game ? valuesOf(game) : {};
    state.tout = !!state.values.i;
    initials.value = state.values.i || "";
    problemNode.textContent = game ? messageOf(game) : "";  // what the grid marks on this game (a refused send's)
  }

  function write(game, values) {
    FIELDS.forEach(function (key) {
      var input = field(key + game);
      if (input) { input.disabled = false; input.value = values[key] || ""; }
    });
  }

  var writing = false;  // the input events this script sends the grid's script

  function announce() {
    // the grid's script scores and checks, the phone keeps it (draft.js), the totals follow (phone.js)
    writing = true;
    form.dispatchEvent(new Event("input", { bubbles: true }));
    writing = false;
  }

  function changed() {
    announce();
    render();
  }

  function choose(button) {
    var values = state.values;
    if (button.dataset.t !== undefined) {
      values.t = button.dataset.t;
      if (isSolo(values.t)) { values.p = ""; } else { state.tout = false; }
    } else if (button.dataset.d !== undefined) {
      values.d = button.dataset.d;
      if (values.p === values.d) { values.p = ""; }
    } else if (button.dataset.p !== undefined) {
      values.p = button.dataset.p;
    } else if (button.dataset.r !== undefined) {
      values.r = button.dataset.r;
    } else if (button.dataset.x !== undefined) {
      values.x = button.dataset.x;
    } else if (button.dataset.l !== undefined) {
      var count = Math.min(MAX_LAUFENDE, Math.max(0, (parseInt(values.l, 10) || 0) + parseInt(button.dataset.l, 10)));
      values.l = count ? String(count) : "";
    } else if (button.dataset.tout !== undefined) {
      state.tout = !state.tout;
    } else {
      return false;
    }
    values.i = state.tout ? initials.value.trim() : "";
    problemNode.textContent = "";
    write(state.game, values);
    sent = false;
    changed();
    return true;
  }

  function missing() {
    var values = state.values;
    if (!values.t) { return texts.need_type; }
    if (!values.d) { return texts.need_declarer; }
    if (!isSolo(values.t) && !values.p) { return texts.need_partner; }
    if (!values.r) { return texts.need_result; }
    if (state.tout && !values.i) { return texts.need_initials; }
    return "";
  }

  function goOn() {
    var refusal = grid.refusal(state.game, state.tout);
    var wanting = refusal || missing();
    if (wanting) {
      problemNode.textContent = wanting;
      return;
    }
    var done = state.game;
    load(firstOpen(), false);
    render();
    statusNode.textContent = say(texts.kept, { number: done });
    title.focus();
  }

  /* --- what is shown --- */

  function press(selector, pressed, hidden) {
    panel.querySelectorAll(selector).forEach(function (button) {
      button.setAttribute("aria-pressed", pressed(button) ? "true" : "false");
      if (hidden) { button.hidden = hidden(button); }
    });
  }

  // a game's points per player and the running totals after it, as the grid's script computed them; the names are
  // said to a screen reader, and shown where no row of names stands above (the game being chosen)
  function pointsList(game, showNames, withRunning) {
    var ul = document.createElement("ul");
    ul.className = "sk-tap-pts";
    cellsOf(game).forEach(function (cell, index) {
      var li = ul.appendChild(document.createElement("li"));
      var seat = index + 1;
      if (seat === sittingOut(game)) { li.className = "sk-tap-out"; }
      li.appendChild(document.createElement("span")).className = showNames ? "sk-tap-nm" : "sr-only";
      li.lastChild.textContent = names[seat] + " ";
      var points = cell.querySelector(".sk-p").textContent;
      var shown = li.appendChild(document.createElement("span"));
      shown.className = "sk-tap-pt";
      shown.textContent = points && parseInt(points, 10) > 0 ? "+" + points : points;
      var running = cell.querySelector(".sk-s").textContent;
      if (withRunning && running !== "") {
        li.appendChild(document.createTextNode(" "));
        li.appendChild(document.createElement("b")).className = "sk-tap-rn";
        li.lastChild.textContent = running;
      }
    });
    return ul;
  }

  // the game being chosen counts in the totals once it is whole and allowed
  function ready() { return !grid.refusal(state.game, state.tout) && !missing(); }

  function describe(values) {
    var type = panel.querySelector("[data-t='" + values.t + "']");
    var parts = [];
    var who = names[values.d] || values.d;
    if (values.p && !isSolo(values.t)) { who = say(texts["with"], { declarer: who, partner: names[values.p] || values.p }); }
    parts.push((type ? type.textContent : values.t) + ": " + who);
    parts.push(values.r === "+" ? texts.won : values.r === "-" ? texts.lost : "?");
    if (values.i) { parts.push(texts.tout + " (" + values.i + ")"); }
    if (values.x === "Z") { parts.push(texts.schwarz); } else if (values.x === "S") { parts.push(texts.schneider); }
    if (values.l) { parts.push(say(texts.laufende, { count: values.l })); }
    return parts.join(", ");
  }

  // a message the grid shows under a game's row: the rules' at once, or the server's after a refused send
  function messageOf(game) {
    var after = document.getElementById("g" + game).nextElementSibling;
    return after && after.classList.contains("sk-msg") ? after.textContent.trim() : "";
  }

  function renderList() {
    list.textContent = "";
    var last = lastEntered();
    for (var game = 1; game <= last; game++) {
      if (game === state.game && !state.editing) { continue; }
      var li = list.appendChild(document.createElement("li"));
      li.className = "sk-tap-game" + (game === state.game ? " sk-tap-current" : "");
      li.id = "sk-tap-g" + game;
      var what = li.appendChild(document.createElement("p"));
      what.className = "sk-tap-what";
      what.appendChild(document.createElement("b")).textContent = game + " ";
      what.appendChild(document.createTextNode(blank(game) ? "" : describe(valuesOf(game))));
      li.appendChild(pointsList(game, false, true));
      var message = messageOf(game);
      if (message) {
        var said = li.appendChild(document.createElement("p"));
        said.className = "sk-tap-problem";
        said.textContent = message;
      }
      var actions = li.appendChild(document.createElement("p"));
      actions.className = "sk-tap-actions";
      [["edit", texts.edit, texts.edit_label], ["delete", texts["delete"], texts.delete_label]].forEach(function (it) {
        var button = actions.appendChild(document.createElement("button"));
        button.type = "button";
        button.dataset[it[0]] = game;
        button.textContent = it[1];
        button.setAttribute("aria-label", say(it[2], { number: game }));
      });
    }
    var none = !list.children.length;
    if (none) { list.appendChild(document.createElement("li")).textContent = texts.none; }
    listSection.querySelector(".sk-tap-head").hidden = none;
  }

  // the running totals after the last game the grid adds up (the game being chosen once it is ready), and their sum
  function renderTotals() {
    var last = 0;
    var upTo = state.game && !ready() ? state.game - 1 : games;
    for (var game = 1; game <= upTo; game++) {
      if (cellsOf(game)[0].querySelector(".sk-s").textContent !== "") { last = game; } else { break; }
    }
    var cells = last ? cellsOf(last) : [];
    var total = 0;
    document.querySelectorAll("#sk-tap-totals .sk-tap-rn").forEach(function (shown, index) {
      shown.textContent = cells[index] ? cells[index].querySelector(".sk-s").textContent : "";
      total += parseInt(shown.textContent, 10) || 0;
    });
    var sum = document.getElementById("sk-tap-sum");
    var words = document.getElementById("sk-sum").dataset;
    sum.textContent = last ? say(texts.after, { number: last }) + " · " +
      (total === 0 ? words.ok : words.bad + " " + total) : "";
    sum.classList.toggle("sk-off", total !== 0);
  }

  function render() {
    var game = state.game;
    var values = state.values;
    panel.classList.toggle("sk-tap-full", !game);
    if (!game) {
      title.textContent = say(sent ? texts.all_sent : texts.all_in, { games: games });
    } else {
      title.textContent = say(texts.title, { number: game, games: games });
      var dealer = (game - 1) % size + 1;
      document.getElementById("sk-tap-dealer").textContent =
        say(size === 5 ? texts.deals_out : texts.deals, { name: names[dealer] });
      var out = sittingOut(game);
      var solo = isSolo(values.t);
      press("[data-t]", function (b) { return b.dataset.t === values.t; });
      press("[data-d]", function (b) { return b.dataset.d === values.d; },
        function (b) { return Number(b.dataset.d) === out; });
      press("[data-p]", function (b) { return b.dataset.p === values.p; },
        function (b) { return Number(b.dataset.p) === out || b.dataset.p === values.d; });
      press("[data-r]", function (b) { return b.dataset.r === values.r; });
      press("[data-x]", function (b) { return b.dataset.x === (values.x || ""); });
      press("[data-tout]", function () { return state.tout; });
      document.getElementById("sk-tap-partner").hidden = !values.t || solo;
      document.getElementById("sk-tap-tout").hidden = !solo;
      document.getElementById("sk-tap-initials-box").hidden = !state.tout;
      var laufende = document.getElementById("sk-tap-l");
      if (laufende) { laufende.textContent = values.l || "0"; }
      var value = document.getElementById("sk-tap-value");
      value.textContent = "";
      if (scored(game) && ready()) { value.appendChild(pointsList(game, true, false)); }
      var refusal = grid.refusal(game, state.tout);
      if (refusal && problemNode.textContent !== refusal) { problemNode.textContent = refusal; }
      next.textContent = state.editing ? say(texts.keep, { number: game }) : texts.next;
    }
    renderList();
    renderTotals();
  }

  /* --- editing and deleting an entered game --- */

  function edit(game) {
    load(game, true);
    render();
    panel.scrollIntoView({ block: "start" });
    title.focus();
  }

  function remove(game) {
    if (!window.confirm(say(texts.delete_ask, { number: game }))) { return; }
    var last = lastEntered();
    for (var at = game; at < last; at++) { write(at, valuesOf(at + 1)); }
    write(last, {});
    sent = false;
    announce();
    load(firstOpen(), false);
    render();
    statusNode.textContent = say(texts.deleted, { number: game });
    title.focus();
  }

  panel.addEventListener("click", function (event) {
    var button = event.target.closest("button");
    if (!button) { return; }
    if (button === next) { goOn(); return; }
    choose(button);
  });
  list.addEventListener("click", function (event) {
    var button = event.target.closest("button");
    if (!button) { return; }
    if (button.dataset.edit) { edit(parseInt(button.dataset.edit, 10)); }
    if (button.dataset["delete"]) { remove(parseInt(button.dataset["delete"], 10)); }
  });
  initials.addEventListener("input", function () {
    sent = false;
    state.values.i = state.tout ? initials.value.trim() : "";
    write(state.game, state.values);
    changed();
  });
  initials.addEventListener("keydown", function (event) {
    if (event.key === "Enter") { event.preventDefault(); goOn(); }  // never sends the list from here
  });

  /* --- tapping or the grid --- */

  var VIEW_KEY = "sk-view";
  var toGrid = document.getElementById("sk-view-grid");
  var toTap = document.getElementById("sk-view-tap");
  function show(view) {
    var tapping = view !== "grid";
    form.classList.toggle("sk-tapping", tapping);
    panel.hidden = listSection.hidden = !tapping;
    toGrid.hidden = !tapping;
    toTap.hidden = tapping;
    try { window.sessionStorage.setItem(VIEW_KEY, view); } catch (error) { /* switched off: tapping again next time */ }
    if (tapping) {
      load(firstOpen(), false);
      render();
    }
  }
  toGrid.addEventListener("click", function () { show("grid"); });
  toTap.addEventListener("click", function () { show("tap"); });
  // the grid changed by another hand (the kept typing put back or dropped, draft.js): start again from the grid
  form.addEventListener("input", function (event) {
    if (!writing && !panel.contains(event.target) && form.classList.contains("sk-tapping")) {
      sent = false;
      load(firstOpen(), false);
      render();
    }
  });
  document.getElementById("sk-view").hidden = false;
  var view = "tap";
  try { view = window.sessionStorage.getItem(VIEW_KEY) || "tap"; } catch (error) { /* tapping, then */ }
  show(view);
})();
