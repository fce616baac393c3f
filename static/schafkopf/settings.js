/* Settings page: choosing a tariff preset fills in its amounts; a sentence shows what a solo and a tout are worth. */
(function () {
  "use strict";
  var presets = JSON.parse(document.getElementById("tariff-presets").textContent);
  var sentence = JSON.parse(document.getElementById("tariff-sentence").textContent);
  var select = document.getElementById("id_tariff_preset");
  var preview = document.getElementById("tariff-preview");
  var names = ["ruf", "ruf_schneider", "ruf_schwarz", "solo", "solo_schneider", "solo_schwarz", "tout",
               "laufende_from", "laufende_value"];

  function field(name) { return document.getElementById("id_" + name); }
  function amount(name) { return parseInt(field(name).value, 10) || 0; }

  function showPreview() {
    var values = {
      soloist: 3 * amount("solo"), opponent: -amount("solo"),
      tout_soloist: 3 * amount("tout"), tout_opponent: -amount("tout"), ruf: amount("ruf")
    };
    preview.textContent = sentence.replace(/%\((\w+)\)s/g, function (_, key) { return values[key]; });
  }

  function fillPreset() {
    var preset = presets[select.value];
    names.forEach(function (name) { field(name).value = preset[name] === null ? "" : preset[name]; });
    field("tariff_name").value = preset.name;
    showPreview();
  }

  if (!select) { return; }
  select.addEventListener("change", fillPreset);
  names.forEach(function (name) { field(name).addEventListener("input", showPreview); });
  showPreview();
})();
