/* The waiting page of the hall switch (templates/tournament/hall_restart.html): asks the server every second
   whether it is back with the new choice, then opens the hall page. While the server restarts, the questions
   fail (nobody answers) or the old server still answers with the old choice: both mean "ask again". */
(function () {
  "use strict";
  var INTERVAL_MS = 1000, SLOW_AFTER = 30;

  document.addEventListener("DOMContentLoaded", function () {
    var box = document.getElementById("hall-restart");
    if (!box) { return; }
    var wanted = box.dataset.wanted === "true", asked = 0;

    function again() {
      asked += 1;
      if (asked === SLOW_AFTER) { document.getElementById("hall-restart-slow").hidden = false; }
      window.setTimeout(ask, INTERVAL_MS);
    }

    function ask() {
      fetch(box.dataset.state, { cache: "no-store", credentials: "same-origin" })
        .then(function (response) { return response.ok ? response.json() : null; })
        .then(function (state) {
          if (state && state.hall === wanted) { window.location.assign(box.dataset.next); } else { again(); }
        })
        .catch(again);
    }

    window.setTimeout(ask, INTERVAL_MS);
  });
})();
