/* A table game's hands on the phone by the number pad (static/scoring/numpad.js): one player at a time, his name
   large, "Next player" after his numbers, the hand's row fields (who went out: the players by name; a tick: yes or
   no) after the players, then "Next hand". A field tapped in the grid becomes the current one, so a hand already
   typed is corrected the same way. The points and running totals are the page's own (`?preview`: the server scores
   the hands typed so far with the rules, stores nothing), shown in the grid, under it and on the pad as you tap;
   the sheet is checked again when it is sent. */
(function () {
  "use strict";
  var configNode = document.getElementById("entry-config");
  var root = document.getElementById("np");
  if (!configNode || !root || !window.Numpad) { return; }
  var config = JSON.parse(configNode.textContent);
  var form = document.getElementById(config.form);
  if (!config.editable || !config.pad || !form) { return; }
  var fields = config.pad.fields;
  var names = {};
  config.pad.seats.forEach(function (pair) { names[pair[0]] = pair[1]; });
  var NAME = /^h(\d+)-([a-z_]+)(?:-(\d+))?$/;
  var pattern = new RegExp(config.fields);

  // the fields in the order the pad goes through them: per hand, each player's numbers, then the hand's own fields
  var order = [];
  Array.prototype.forEach.call(form.querySelectorAll("tr.tg-row"), function (row) {
    var players = [], own = [];
    Array.prototype.forEach.call(row.querySelectorAll("input.tg-in"), function (input) {
      var parts = NAME.exec(input.name);
      if (!parts || !fields[parts[2]]) { return; }
      var place = { input: input, hand: parseInt(parts[1], 10), key: parts[2], seat: parts[3] ? parseInt(parts[3], 10) : 0 };
      (place.seat ? players : own).push(place);
      if (input.type !== "checkbox") { input.setAttribute("inputmode", "none"); }
    });
    order = order.concat(players, own);
  });
  if (!order.length) { return; }
  var at = 0;
  var pad = new window.Numpad(root, {
    next: function (byKeyboard) { go(at + 1, byKeyboard); },
    prev: function (byKeyboard) { go(at - 1, byKeyboard); }
  });

  // the game is over on the hands typed: after its last hand comes the send, not another hand
  function over(next) {
    if (!answer || !answer.over || !next) { return false; }
    var typed = answer.hands.map(function (h) { return h.hand; });
    return next.hand > Math.max.apply(null, typed);
  }

  function nextKind(place, next) {
    if (!next || over(next)) { return "done"; }
    if (next.hand !== place.hand) { return "hand"; }
    if (next.seat && next.seat !== place.seat) { return "player"; }
    return "field";
  }

  function seatsOf(hand) {
    return order.filter(function (p) { return p.hand === hand && p.seat; })
      .map(function (p) { return p.seat; })
      .filter(function (seat, index, all) { return all.indexOf(seat) === index; });
  }

  function choicesOf(place) {
    var field = fields[place.key];
    var labels = root.querySelector("#np-choices").dataset;
    if (field.kind === "bool") { return [{ label: labels.yes, value: "true" }, { label: labels.no, value: "false" }]; }
    if (field.kind !== "player") { return null; }
    var choices = seatsOf(place.hand).map(function (seat) { return { label: names[seat], value: String(seat) }; });
    if (field.optional) { choices.push({ label: labels.nobody, value: "" }); }
    return choices;
  }

  function show(index) {
    var place = order[index];
    var field = fields[place.key];
    pad.show(place.input, {
      who: place.seat ? names[place.seat] : field.name,
      what: config.pad.hand.replace("%(number)s", place.hand) + (place.seat ? " · " + field.name : ""),
      signed: field.kind === "signed_int",
      choices: choicesOf(place),
      next: nextKind(place, order[index + 1])
    });
    sayRefusal();
  }

  function go(index, byKeyboard) {
    if (index >= order.length || (index > at && over(order[index]))) {
      var send = document.getElementById("ph-send");
      if (send) { send.focus(); }
      return;
    }
    at = Math.max(0, index);
    var input = order[at].input;
    if (!byKeyboard) { input.focus({ preventScroll: true }); }
    input.scrollIntoView({ block: "nearest", inline: "nearest" });
    show(at);
  }

  form.addEventListener("focusin", function (event) {
    var index = order.findIndex(function (p) { return p.input === event.target; });
    if (index >= 0 && index !== at) { at = index; show(at); }
  });

  /* --- the page's own scoring, as you tap --- */

  var answer = null, asked = "", timer = null, typed = false, answeredQuery = "";

  // the answer is about the hands as they stand: typed on since, its refusal may be about a number now typed
  function answered() { return !!answer && answeredQuery === Numpad.query(form, pattern).toString(); }

  function rowOf(hand) { return form.querySelector("tr.tg-row[data-hand='" + hand + "']"); }

  function complete(hand) {  // every player's number of the hand is typed: a refusal now is no "still missing"
    return order.every(function (p) {
      return p.hand !== hand || !p.seat || p.input.type === "checkbox" || p.input.value.trim() !== "";
    });
  }

  /* The rules' refusal of the hand on the pad once all its numbers are in; else that of an earlier hand, named: a
     hand refused after "Next hand" was tapped (its answer comes later) must not be left behind as a pink row. */
  function sayRefusal() {
    var place = order[at];
    var refused = answered() ? answer.hands.filter(function (h) {
      return h.error && h.hand <= place.hand && (h.hand < place.hand || complete(h.hand));
    }) : [];
    var own = refused.filter(function (h) { return h.hand === place.hand; })[0];
    var earlier = refused.filter(function (h) { return h.hand < place.hand; })
      .sort(function (a, b) { return a.hand - b.hand; })[0];
    if (own) { pad.say(own.error); return; }
    pad.say(earlier ? config.pad.hand.replace("%(number)s", earlier.hand) + ": " + earlier.error : "");
  }

  function showAnswer() {
    var seats = config.pad.seats.map(function (pair) { return String(pair[0]); });
    var byHand = {};
    answer.hands.forEach(function (h) { byHand[h.hand] = h; });
    Array.prototype.forEach.call(form.querySelectorAll("tr.tg-row"), function (row) {
      var hand = byHand[row.dataset.hand];
      Array.prototype.forEach.call(row.querySelectorAll("td.tg-sum"), function (cell, index) {
        var seat = seats[index];
        var points = cell.querySelector(".tg-p"), running = cell.querySelector(".tg-s");
        if (!points) { points = document.createElement("span"); points.className = "tg-p"; cell.prepend(points); }
        points.textContent = hand && hand.points[seat] !== undefined ? hand.points[seat] : "";
        if (running) { running.textContent = hand && hand.running[seat] !== undefined ? hand.running[seat] : ""; }
        cell.classList.toggle("tg-won", !!hand && String(hand.won) === seat);
      });
      row.classList.toggle("tg-bad", !!(hand && hand.error && complete(parseInt(row.dataset.hand, 10))));
    });
    var spans = document.querySelectorAll(".ph-totals .ph-total");
    seats.forEach(function (seat, index) { if (spans[index]) { spans[index].textContent = answer.totals[seat]; } });
    pad.tell(answer.over && typed ? config.pad.over : "");  // on arrival the page's own notes say where it stands
    show(at);
    pad.sayTotals(config.pad.seats.map(function (pair) {
      return pair[1] + " " + answer.totals[String(pair[0])];
    }).join(" · "));
  }

  function ask() {
    var query = Numpad.query(form, pattern).toString();
    if (query === asked) { return; }
    asked = query;
    fetch(window.location.pathname + "?preview=1&" + query, { headers: { Accept: "application/json" } })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (data) { if (data && asked === query) { answer = data; answeredQuery = query; showAnswer(); } })
      .catch(function () {  // no connection: said on the pad; the totals follow once it is back
        asked = "";
        pad.tell(root.querySelector("#np-totals").dataset.offline);
      });
  }

  form.addEventListener("input", function () {
    typed = true;
    window.clearTimeout(timer);
    timer = window.setTimeout(ask, 400);  // a pause or a move on, not every digit: fewer asks of a busy hall laptop
  });
  window.addEventListener("online", ask);

  var first = order.findIndex(function (p) { return p.input.type !== "checkbox" && p.input.value === ""; });
  at = first < 0 ? 0 : first;
  show(at);
  ask();
}());
