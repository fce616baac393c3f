"""Tournament files of the played Voms demo: its export, two imports side by side, and tampered files refused
whole. The demo (8 teams, 2 pools, a knockout) is built once for the module: every test here works on it and
its director (each test's changes roll back; see "The suite's duration" in docs/development.md)."""

import json

import pytest
from django.utils.html import escape

from scoring.models import ScoreSheet
from tests.conftest import built_once_fixtures, new_director
from tournament.models import Team, Tournament
from tournament.transfer import FORMAT, VERSION, TransferError, export_tournament, import_tournament

from .conftest import all_rows, row_counts
from .test_transfer import (
    client_pages_work,
    export_import_export_is_byte_identical,
    links_stay_inside,
    rewrite,
    table_of,
)

pytestmark = pytest.mark.django_db


def build_voms_demo():
    from scoring.games.voms.demo import demo

    director = new_director()
    return director, demo(director, seed=1, results=True, teams=8, pools=2)


#: the director and a played Voms tournament (teams, pools, slips, a knockout with series, audit entries), built
#: once for this module's tests (each test's changes roll back): most tests here export or tamper with it.
built, world, director, voms_demo = built_once_fixtures(build_voms_demo, "director", "voms_demo")


def test_export_is_documented_json_with_local_ids(voms_demo):
    document = json.loads(export_tournament(voms_demo))
    assert (document["format"], document["version"]) == (FORMAT, VERSION)
    assert document["tournament"]["slug"] == "voms-demo"
    assert document["tournament"]["created_by"] == "director"
    tables = {table["model"]: table["rows"] for table in document["models"]}
    for rows in tables.values():
        assert [row["id"] for row in rows] == list(range(1, len(rows) + 1))
    assert len(tables["tournament.team"]) == 8
    assert all(len(team["members"]) == 2 for team in tables["tournament.team"])
    assert tables["scoring.scoresheet"] and tables["scoring.sheetrevision"]
    actions = {entry["action"] for entry in tables["tournament.auditentry"]}
    assert {"tournament.create", "draw.pools", "sheet.entry", "knockout.create"} <= actions
    assert {entry["user"] for entry in tables["tournament.auditentry"]} == {"director"}


def test_importing_twice_makes_two_separate_tournaments(voms_demo, director):
    exported = export_tournament(voms_demo)
    first = import_tournament(exported, by=director, as_new=True)  # asked for: copies of their own
    second = import_tournament(exported, by=director, as_new=True)

    assert [t.slug for t in (voms_demo, first, second)] == ["voms-demo", "voms-demo-2", "voms-demo-3"]
    assert row_counts(first) == row_counts(second) == row_counts(voms_demo)
    for tournament in (voms_demo, first, second):
        assert links_stay_inside(tournament)
    # the same content, only the address and the identity differ; the original is untouched
    assert export_tournament(voms_demo) == exported
    assert len({voms_demo.uid, first.uid, second.uid}) == 3
    for copy in (first, second):
        renamed = export_tournament(copy).decode().replace(f'"slug": "{copy.slug}"', '"slug": "voms-demo"', 1)
        assert renamed.replace(str(copy.uid), str(voms_demo.uid), 1).encode() == exported


def test_tampered_derived_values_are_recomputed_from_the_entries(voms_demo, director):
    document = json.loads(export_tournament(voms_demo))
    sheets = table_of(document, "scoring.scoresheet")
    honest = json.loads(json.dumps([row["derived"] for row in sheets]))
    sheets[0]["derived"]["games"][0]["points_a"] = "109.5"  # what the table never wrote
    sheets[1]["derived"] = {"games": "lots"}  # an odd shape that made pages fail
    sheets[2]["derived"] = []

    imported = import_tournament(json.dumps(document).encode(), by=director, as_new=True)

    stored = [s.derived for s in ScoreSheet.objects.filter(tournament=imported).order_by("pk")]
    assert stored == honest
    client_pages_work(imported, director)


TAMPERED = {
    "entries the rules refuse": ("scoring.scoresheet", "entries", [{"lus_a": 9, "lus_b": 9}], "not valid"),
    "entries of the wrong shape": ("scoring.scoresheet", "entries", {"lus_a": 9}, "not valid"),
    "a score of 9 for both": ("scoring.scoresheet", "entries", [{"lus_a": 9, "lus_b": 9, "winner": "c"}],
                               "not valid"),
    "unknown status": ("tournament", "status", "paused", "status"),
    "unknown role": ("tournament.tournamentrole", "role", "owner", "role"),
    "unknown participant status": ("tournament.participant", "status", "banned", "status"),
    "unknown stage kind": ("tournament.stage", "kind", "league", "kind"),
    "unknown language": ("tournament", "language", "xx", "language"),
    "settings not a dict": ("tournament", "settings", [1, 2], "game settings"),
    "settings of the wrong type": ("tournament", "settings", {"target": "nine"}, "game settings"),
    "settings out of range": ("tournament", "settings", {"target": 10_000}, "game settings"),
    "unknown setting": ("tournament", "settings", {"colour": "red"}, "colour"),
    "bad start time": ("tournament", "settings", {"start_time": "25:99"}, "game settings"),
    "negative points": ("tournament", "settings", {"win_points": "-2"}, "game settings"),
    "beamer out of range": ("tournament", "beamer_seconds", 1, "beamer_seconds"),
    "a reason of megabytes": ("tournament.participant", "status_reason", "x" * 2_400_000, "longer than 500"),
    "object where text belongs": ("tournament.team", "name", {"a": 1}, "wrong type"),
    "text where a number belongs": ("tournament.team", "number", "7", "wrong type"),
    "text where yes or no belongs": ("tournament.team", "seeded", "no", "wrong type"),
}


@pytest.mark.parametrize("case", TAMPERED)
def test_tampered_voms_files_are_refused_whole(voms_demo, director, case):
    where, field, value, expected = TAMPERED[case]
    document = json.loads(export_tournament(voms_demo))
    if where == "tournament.tournamentrole":
        table_of(document, where).append({"id": 99, "tournament": 1, "user": "director", "role": value})
    data = rewrite(document, where, field, value) if where != "tournament.tournamentrole" else json.dumps(
        document).encode()
    before = all_rows()
    with pytest.raises(TransferError) as refused:
        import_tournament(data, by=director)
    assert expected in refused.value.message
    assert all_rows() == before


@pytest.mark.parametrize("text, shown", [
    ("1" * 5000, "1111"), ("Infinity", "Infinity"), ("-Infinity", "-Infinity"), ("NaN", "NaN"), ("1e999", "1e999"),
    (str(2**70), str(2**70)[:10]),
])
def test_numbers_json_cannot_hold_are_refused(voms_demo, director, text, shown):
    exported = export_tournament(voms_demo).decode()
    data = exported.replace('"beamer_seconds": 15', f'"beamer_seconds": {text}', 1)
    assert data != exported
    with pytest.raises(TransferError) as refused:
        import_tournament(data.encode(), by=director)
    assert "number this app cannot store" in refused.value.message and shown in refused.value.message
    assert not Tournament.objects.exclude(pk=voms_demo.pk).exists()


def test_huge_numbers_in_game_data_are_refused(voms_demo, director):
    document = json.loads(export_tournament(voms_demo))
    data = rewrite(document, "tournament.draw", "seed", 10**17 * 9)
    import_tournament(data, by=director, as_new=True)  # large, but a 64-bit number: stored
    with pytest.raises(TransferError):
        import_tournament(rewrite(document, "tournament.round", "number", 10**15), by=director)


# --- moved here from test_transfer.py, whose module builds its seated tournament once ---------------------------


def test_export_import_export_is_byte_identical(voms_demo, director):
    export_import_export_is_byte_identical(voms_demo, director)


def test_keys_inside_json_travel_as_local_ids(voms_demo, director, client):
    """A knockout names its qualifiers by team inside JSON: the file carries local ids, an import this
    database's keys, so the imported bracket is built from the imported teams (not the original's)."""
    from scoring.games.voms.queries import bracket_of
    from tournament.models import Stage

    document = json.loads(export_tournament(voms_demo))
    stages = next(t["rows"] for t in document["models"] if t["model"] == "tournament.stage")
    teams = next(t["rows"] for t in document["models"] if t["model"] == "tournament.team")
    knockout = next(row for row in stages if "qualifiers" in (row["settings"] or {}))
    assert {q[2] for q in knockout["settings"]["qualifiers"]} <= {row["id"] for row in teams}

    imported = import_tournament(export_tournament(voms_demo), by=director, as_new=True)  # beside the original

    stage = Stage.objects.get(tournament=imported, kind=Stage.Kind.KNOCKOUT)
    original = Stage.objects.get(tournament=voms_demo, kind=Stage.Kind.KNOCKOUT)
    imported_teams = set(Team.objects.filter(tournament=imported).values_list("pk", flat=True))
    assert {q[2] for q in stage.settings["qualifiers"]} <= imported_teams
    names = {t.pk: t.name for t in Team.objects.all()}
    assert [names[q[2]] for q in stage.settings["qualifiers"]] == [
        names[q[2]] for q in original.settings["qualifiers"]]
    assert bracket_of(stage)
    client.force_login(director)
    page = client.get(f"/manage/{imported.slug}/voms/knockout/")
    assert page.status_code == 200
    shown = page.content.decode()
    assert all(escape(names[q[2]]) in shown for q in stage.settings["qualifiers"])


@pytest.mark.parametrize("qualifiers", [[[0, 1, 999]], [[0, 1, "x"]], "A1"])
def test_a_knockout_naming_a_team_not_in_the_file_is_refused(voms_demo, director, qualifiers):
    document = json.loads(export_tournament(voms_demo))
    stages = next(t["rows"] for t in document["models"] if t["model"] == "tournament.stage")
    knockout = next(row for row in stages if "qualifiers" in (row["settings"] or {}))
    knockout["settings"]["qualifiers"] = qualifiers
    before = Tournament.objects.count()
    with pytest.raises(TransferError, match="tournament.stage row"):
        import_tournament(json.dumps(document).encode(), by=director)
    assert Tournament.objects.count() == before
