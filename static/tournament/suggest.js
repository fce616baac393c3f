// The desk's suggestions from the player register: typing a first or last name asks the server for matching
// register entries (/manage/register/suggest/?q=...) and lists them under the field. ArrowDown/ArrowUp choose,
// Enter takes the chosen entry (its names and club fill the form, the hidden "person" field links it), Escape
// closes the list. Without JavaScript, or without a choice, the desk links the player by name and club.
(function () {
  "use strict";
  const form = document.querySelector("form[data-suggest-url]");
  if (!form) return;
  const url = form.dataset.suggestUrl;
  const inputs = Array.from(form.querySelectorAll("input[data-suggest]"));
  const field = (name) => form.querySelector(`[name="${name}"]`);
  const person = field("person");
  let list = null, items = [], active = -1, owner = null, timer = null, asked = 0;

  function close() {
    if (list) list.remove();
    list = null; items = []; active = -1;
    inputs.forEach((input) => { input.setAttribute("aria-expanded", "false"); input.removeAttribute("aria-activedescendant"); });
  }

  function choose(index) {
    if (!list) return;
    active = index;
    Array.from(list.children).forEach((li, i) => li.setAttribute("aria-selected", i === active ? "true" : "false"));
    if (owner && active >= 0) owner.setAttribute("aria-activedescendant", `suggest-${active}`);
  }

  function take(entry) {
    field("first_name").value = entry.first_name;
    field("last_name").value = entry.last_name;
    if (field("club")) field("club").value = entry.club;
    if (person) person.value = entry.id;
    close();
    const next = field("club") || field("last_name");
    next.focus();
  }

  function show(input, people) {
    close();
    if (!people.length) return;
    owner = input; items = people;
    list = document.createElement("ul");
    list.className = "suggestions";
    list.id = "suggest-list";
    list.setAttribute("role", "listbox");
    list.setAttribute("aria-label", form.dataset.suggestLabel || "");
    people.forEach((entry, i) => {
      const li = document.createElement("li");
      li.id = `suggest-${i}`;
      li.setAttribute("role", "option");
      li.textContent = entry.label;
      li.addEventListener("mousedown", (event) => { event.preventDefault(); take(entry); });
      list.appendChild(li);
    });
    input.insertAdjacentElement("afterend", list);
    input.setAttribute("aria-controls", "suggest-list");
    input.setAttribute("aria-expanded", "true");
  }

  function ask(input) {
    const text = inputs.map((i) => i.value.trim()).filter(Boolean).join(" ");
    if (text.length < 2) { close(); return; }
    const mine = ++asked;
    fetch(`${url}?q=${encodeURIComponent(text)}`, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then((response) => (response.ok ? response.json() : { people: [] }))
      .then((data) => { if (mine === asked && document.activeElement === input) show(input, data.people); })
      .catch(() => close());
  }

  inputs.forEach((input) => {
    input.setAttribute("role", "combobox");
    input.setAttribute("aria-autocomplete", "list");
    input.setAttribute("aria-expanded", "false");
    input.addEventListener("input", () => {
      if (person) person.value = "";  // a changed name is no longer the picked entry
      clearTimeout(timer);
      timer = setTimeout(() => ask(input), 150);
    });
    input.addEventListener("keydown", (event) => {
      if (!list || owner !== input) return;
      if (event.key === "ArrowDown") { event.preventDefault(); choose(Math.min(active + 1, items.length - 1)); }
      else if (event.key === "ArrowUp") { event.preventDefault(); choose(Math.max(active - 1, 0)); }
      else if (event.key === "Enter" && active >= 0) { event.preventDefault(); take(items[active]); }
      else if (event.key === "Escape") { event.preventDefault(); close(); }
    });
    input.addEventListener("blur", () => setTimeout(() => { if (owner === input) close(); }, 100));
  });
})();
