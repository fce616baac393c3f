// Shows which teams play at the typed table, so a wrong table number is noticed before saving.
(function () {
  const lookup = JSON.parse(document.getElementById("slip-lookup").textContent);
  const round = document.getElementById("id_round");
  const table = document.getElementById("id_table");
  const out = document.getElementById("slip-teams");
  const done = out.dataset.done || "";
  function show() {
    const game = (lookup[round.value] || {})[table.value];
    if (!table.value) { out.textContent = ""; return; }
    if (!game) { out.textContent = "–"; out.className = "slip-teams unknown"; return; }
    out.textContent = "A: " + game.a + "  —  B: " + game.b + (game.pool ? "  (" + game.pool + ")" : "") + (game.done ? "  ✓" : "");
    out.className = "slip-teams" + (game.done ? " done" : "");
  }
  round.addEventListener("input", show);
  table.addEventListener("input", show);
  show();
})();
