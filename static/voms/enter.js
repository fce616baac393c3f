// Shows which teams play at the typed table, so a wrong table number is noticed before saving:
// "A: … — B: …  Pool A · already entered 11:7 · Correct" (a link for a director).
(function () {
  const lookup = JSON.parse(document.getElementById("slip-lookup").textContent);
  const round = document.getElementById("id_round");
  const table = document.getElementById("id_table");
  const out = document.getElementById("slip-teams");
  function show() {
    out.replaceChildren();
    if (!table.value) { out.className = "slip-teams"; return; }
    const game = (lookup[round.value] || {})[table.value];
    if (!game) { out.textContent = "–"; out.className = "slip-teams unknown"; return; }
    out.append("A: " + game.a + "  —  B: " + game.b);
    const facts = document.createElement("span");
    facts.className = "facts";
    const parts = [game.pool, game.status].filter(Boolean);
    facts.append(parts.join(" · "));
    if (game.correct) {
      const link = document.createElement("a");
      link.href = game.correct;
      link.textContent = game.correct_label;
      facts.append(" · ", link);
    }
    out.append(facts);
    out.className = "slip-teams" + (game.done ? " done" : "");
  }
  round.addEventListener("input", show);
  table.addEventListener("input", show);
  show();
})();
