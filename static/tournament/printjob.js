// A print job's page (templates/tournament/printjob.html): asks for the job's state every second and shows it;
// once the file is ready, its link appears and takes the focus, so that Enter opens it.
(function () {
  "use strict";
  var box = document.getElementById("printjob");
  if (!box) { return; }
  var progress = document.getElementById("printjob-progress");
  var text = document.getElementById("printjob-text");
  var ready = document.getElementById("printjob-ready");
  var here = document.getElementById("printjob-here");
  var again = document.getElementById("printjob-again");

  function show(state) {
    progress.max = Math.max(state.total, 1);
    progress.value = state.done;
    progress.textContent = state.done + " / " + state.total;
    if (text.textContent !== state.text) { text.textContent = state.text; }
    here.hidden = !state.waiting;
    if (state.state === "done") {
      ready.hidden = false;
      again.hidden = true;
      document.getElementById("printjob-open").focus();
      return false;
    }
    if (state.state === "failed") { again.hidden = true; return false; }
    return true;
  }

  function poll() {
    fetch(box.dataset.stateUrl, {headers: {"Accept": "application/json"}, credentials: "same-origin"})
      .then(function (answer) { return answer.ok ? answer.json() : null; })
      .then(function (state) {
        if (state === null || show(state)) { window.setTimeout(poll, 1000); }
      })
      .catch(function () { window.setTimeout(poll, 3000); });
  }

  if (box.dataset.state !== "done" && box.dataset.state !== "failed") { window.setTimeout(poll, 500); }
})();
