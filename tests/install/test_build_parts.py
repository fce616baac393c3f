"""The parts of the distribution that need no build: the catalogues the wheel's build hook compiles (hatch_build.py),
its dependencies read from requirements.txt, and how tools/check_wheels.py follows a target system's markers."""

import gettext
import importlib.util
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

from hatch_build import compiled_catalogues, pinned_requirements, runtime_requirements, split_extras

ROOT = Path(__file__).resolve().parents[2]


def check_wheels():
    spec = importlib.util.spec_from_file_location("check_wheels", ROOT / "tools" / "check_wheels.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def catalogue(mo_file: Path) -> dict:
    with mo_file.open("rb") as file:
        return gettext.GNUTranslations(file)._catalog


def compiled_alike(po_file: Path, ours_mo: Path, tmp_path: Path) -> dict:
    """The catalogue polib compiled (`ours_mo`) after checking it has what msgfmt compiles from `po_file`."""
    by_msgfmt = tmp_path / "msgfmt.mo"
    assert shutil.which("msgfmt"), "GNU gettext's msgfmt (Debian: gettext) is needed to compare with"
    subprocess.run(["msgfmt", "--check-format", "-o", str(by_msgfmt), str(po_file)], check=True)
    ours, theirs = catalogue(ours_mo), catalogue(by_msgfmt)
    # the header (msgid "") holds the same fields in another order, and the template's date, which msgfmt drops
    header = set(ours.pop("").splitlines()) ^ set(theirs.pop("").splitlines())
    assert {line.split(":")[0] for line in header} <= {"POT-Creation-Date"}
    assert ours == theirs
    return ours


@pytest.mark.parametrize("language", ["de", "da"])
def test_catalogues_compile_as_msgfmt_compiles_them(tmp_path, language):
    """polib (the wheel's build, no gettext tools needed) gives the same translations as GNU msgfmt (a clone's
    `manage.py compilemessages`): plurals, contexts and python-format strings alike."""
    placed = compiled_catalogues(ROOT / "locale", tmp_path / "polib")
    assert set(placed.values()) == {"tournament_manager/locale/da/LC_MESSAGES/django.mo",
                                    "tournament_manager/locale/de/LC_MESSAGES/django.mo"}
    po_file = ROOT / "locale" / language / "LC_MESSAGES" / "django.po"
    ours = compiled_alike(po_file, tmp_path / "polib" / language / "LC_MESSAGES" / "django.mo", tmp_path)
    assert len(ours) > 1000


def test_fuzzy_and_obsolete_entries_stay_out_as_with_msgfmt(tmp_path):
    po_file = tmp_path / "locale" / "xx" / "LC_MESSAGES" / "django.po"
    po_file.parent.mkdir(parents=True)
    po_file.write_text("""msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"

msgid "Table"
msgstr "Tisch"

#, fuzzy
msgid "Seat"
msgstr "Sitz"

msgctxt "card game"
msgid "Trick"
msgstr "Stich"

msgid "%(count)s game"
msgid_plural "%(count)s games"
msgstr[0] "%(count)s Spiel"
msgstr[1] "%(count)s Spiele"

#~ msgid "Gone"
#~ msgstr "Weg"
""", encoding="utf-8")
    compiled_catalogues(tmp_path / "locale", tmp_path / "polib")
    ours = compiled_alike(po_file, tmp_path / "polib" / "xx" / "LC_MESSAGES" / "django.mo", tmp_path)
    assert ours["Table"] == "Tisch" and ours["card game\x04Trick"] == "Stich"
    assert ours[("%(count)s game", 1)] == "%(count)s Spiele"
    assert "Seat" not in ours and "Gone" not in ours


def test_no_catalogues_fails_the_build(tmp_path):
    (tmp_path / "locale").mkdir()
    with pytest.raises(FileNotFoundError):
        compiled_catalogues(tmp_path / "locale", tmp_path / "out")


def test_the_wheel_depends_on_the_pins_of_requirements_txt():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    extras = config["tool"]["hatch"]["metadata"]["hooks"]["custom"]["extras"]
    base, optional = runtime_requirements(ROOT, extras)
    pins = pinned_requirements(ROOT / "requirements.txt")
    assert sorted(base + optional["server"]) == sorted(pins)
    assert all("==" in line for line in pins)
    assert {line.split("==")[0].split("[")[0] for line in optional["server"]} == {"gunicorn", "psycopg", "redis"}
    assert any(line.startswith("pikepdf==") for line in base) and any(line.startswith("Django==") for line in base)


def test_requirement_lines_lose_comments_and_options(tmp_path):
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("# pins\n-r other.txt\n\nDjango==5.2.19  # the framework\npsycopg[binary]==3.3.9\n")
    assert pinned_requirements(requirements) == ["Django==5.2.19", "psycopg[binary]==3.3.9"]


def test_an_extra_naming_no_pin_fails_the_build():
    with pytest.raises(ValueError, match="redis"):
        split_extras(["Django==5.2.19", "gunicorn==27.0.1"], {"server": ["gunicorn", "redis"]})


def fake_report(*packages):
    return {"install": [{"metadata": {"name": name, "version": "1.0", "requires_dist": requires},
                         "download_info": {"url": f"https://files.example/{name}-1.0-py3-none-any.whl"}}
                        for name, requires in packages]}


def test_wheel_check_follows_the_target_systems_markers():
    """pip resolves with the markers of the machine it runs on: a dependency only Windows needs is missing from
    a resolution made on Linux, and the check asks for it on Windows (and only there)."""
    tool = check_wheels()
    report = fake_report(("app", ["colorama; sys_platform == 'win32'", "lib[fast]>=1"]),
                         ("lib", ["speedups; extra == 'fast'", "docs; extra == 'docs'"]), ("speedups", []))
    windows, linux = (next(s for s in tool.SYSTEMS if s.name.startswith(prefix)) for prefix in ("Windows", "Linux"))
    reached, missing = tool.unresolved(report, ["app==1.0"], tool.marker_environment(windows, "3.12"))
    assert missing == ["colorama"]
    assert set(reached) == {"app", "lib", "speedups"}
    reached, missing = tool.unresolved(report, ["app==1.0"], tool.marker_environment(linux, "3.12"))
    assert missing == [] and set(reached) == {"app", "lib", "speedups"}
    # a pin for one system only is asked for there only
    pins = ["app==1.0", "pywin32==311; sys_platform == 'win32'"]
    assert tool.unresolved(report, pins, tool.marker_environment(linux, "3.12"))[1] == []
    _reached, missing = tool.unresolved(report, pins, tool.marker_environment(windows, "3.12"))
    assert sorted(missing) == ["colorama", "pywin32==311"]


def test_wheel_check_takes_older_manylinux_wheels():
    tags = check_wheels().manylinux("aarch64")
    assert tags[0] == "manylinux_2_28_aarch64" and "manylinux_2_17_aarch64" in tags
    assert "manylinux2014_aarch64" in tags and "manylinux_2_16_aarch64" not in tags
