// The check-in desk by keyboard: typing filters the list (a number finds that entrant first),
// Enter marks the chosen row as arrived, Shift+Enter as paid, the arrow keys choose another row.
// Without JavaScript the search box and the buttons of each row do the same.
(function () {
  "use strict";
  const find = document.getElementById("desk-find");
  const list = document.getElementById("desk-list");
  if (!find || !list) return;
  const rows = Array.from(list.querySelectorAll("tbody tr[data-number]"));
  // the withdrawn, listed below the table: filtered alike, never marked by a key
  const withdrawnBox = document.getElementById("desk-withdrawn");
  const withdrawn = withdrawnBox ? Array.from(withdrawnBox.querySelectorAll("li[data-number]")) : [];
  let selected = null;

  function normal(text) {
    return text.toLowerCase().split(/\s+/).filter(Boolean).join(" ");
  }

  function visible() {
    return rows.filter((row) => !row.hidden);
  }

  function select(row) {
    if (selected) selected.classList.remove("selected");
    selected = row || null;
    if (selected) {
      selected.classList.add("selected");
      selected.scrollIntoView({ block: "nearest" });
    }
  }

  function filter() {
    const text = normal(find.value);
    let exact = null;
    rows.forEach((row) => {
      const number = row.dataset.number;
      row.hidden = text !== "" && number !== text && !normal(row.dataset.text).includes(text);
      if (number === text) exact = row;
    });
    withdrawn.forEach((item) => {
      item.hidden = text !== "" && item.dataset.number !== text && !normal(item.dataset.text).includes(text);
    });
    if (withdrawnBox) withdrawnBox.hidden = withdrawn.every((item) => item.hidden);
    // an empty box chooses nobody: Enter must never mark the first row by accident
    select(text === "" ? null : exact || visible()[0]);
  }

  function submit(key) {
    if (!selected) return;
    const form = selected.querySelector(`form[data-key="${key}"]`);
    if (!form) return;
    // Enter on someone already arrived keeps them arrived: the row's form would take it back
    if (key === "arrived" && form.querySelector('input[name="action"]').value !== "arrived") return;
    form.submit();
  }

  find.addEventListener("input", filter);
  find.addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      event.preventDefault();
      submit(event.shiftKey ? "paid" : "arrived");
    } else if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const shown = visible();
      const at = shown.indexOf(selected);
      select(shown[Math.max(0, Math.min(shown.length - 1, at + (event.key === "ArrowDown" ? 1 : -1)))]);
    } else if (event.key === "Escape") {
      find.value = "";
      filter();
    }
  });
  if (find.value) filter();
})();
