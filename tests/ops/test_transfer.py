"""One tournament as JSON: the round trip is byte-identical, imports never mix, bad files save nothing."""

import json
import re

import pytest
from django.core.management import call_command
from django.urls import reverse

from scoring.games import game_of
from scoring.models import ScoreSheet
from scoring.results.brakes import REFUSED_LIMIT, Braked, check_address, check_taken, note_refused
from tests.conftest import built_once_fixtures, new_director
from tournament.models import AuditEntry, Role, Round, Seat, Team, Tournament, TournamentRole
from tournament.transfer import (
    TransferError,
    export_tournament,
    import_tournament,
    rows_of,
    tournament_models,
)

from .conftest import all_rows, build_seated, delete_tournament, row_counts, totals_list

pytestmark = pytest.mark.django_db


def build_seated_world():
    director = new_director()
    return director, build_seated(director)


#: the director and tests/ops/conftest.py's `seated`, built once for the module's tests (each test's changes roll
#: back): most tests here export it, tamper with it or import it beside itself. The played Voms demo's tests are in
#: test_transfer_voms.py, which builds that once.
built, world, director, seated = built_once_fixtures(build_seated_world, "director", "seated")


def test_every_model_of_a_tournament_is_found():
    labels = [plan.label for plan in tournament_models()]
    assert labels[0] == "tournament.tournament"
    assert set(labels) >= {  # a game's own models join by their links
        "tournament.tournament", "tournament.tournamentrole", "tournament.auditentry", "tournament.participant",
        "tournament.team", "tournament.draw", "tournament.stage", "tournament.pool", "tournament.poolentry",
        "tournament.round", "tournament.match", "tournament.table", "tournament.seat", "scoring.scoresheet",
        "scoring.sheetrevision", "scoring.pendingsheet",
    }
    # every model comes after the models it links to
    for n, plan in enumerate(tournament_models()):
        for f in plan.inner:
            assert labels.index(f.related_model._meta.label_lower) < n or f.related_model is plan.model


def export_import_export_is_byte_identical(tournament, director):
    """(the played Voms demo's side: test_transfer_voms.py)"""
    exported = export_tournament(tournament)
    counts = row_counts(tournament)
    delete_tournament(tournament)  # as on another machine
    assert not Tournament.objects.exists()

    imported = import_tournament(exported, by=director, keep_roles=["helper"])

    assert export_tournament(imported) == exported
    assert imported.slug == json.loads(exported)["tournament"]["slug"]
    assert row_counts(imported) == counts


def test_export_import_export_is_byte_identical(seated, director):
    export_import_export_is_byte_identical(seated, director)


def test_double_entry_and_first_entries_awaiting_confirmation_travel(seated, director):
    from scoring.models import PendingSheet
    from tournament.models import Table

    seated.double_entry = True
    seated.save()
    table = Table.objects.get(round__stage__tournament=seated, round__number=1, number=2)
    helper = TournamentRole.objects.get(tournament=seated, role=Role.ASSISTANT).user
    PendingSheet.objects.create(tournament=seated, table=table, mode="totals", entries=totals_list(10, -10, 0, 0),
                                version=3, entered_by=helper)
    confirmed = ScoreSheet.objects.get(tournament=seated).revisions.first()
    confirmed.confirmed_by = director
    confirmed.save()
    exported = export_tournament(seated)
    delete_tournament(seated)

    imported = import_tournament(exported, by=director, keep_roles=["helper"])

    assert export_tournament(imported) == exported
    assert imported.double_entry
    pending = PendingSheet.objects.get(tournament=imported)
    assert (pending.entries, pending.version, pending.entered_by.username, pending.table.number) == (
        totals_list(10, -10, 0, 0), 3, "helper", 2)
    assert ScoreSheet.objects.get(tournament=imported).revisions.first().confirmed_by == director


def test_import_keeps_what_the_table_wrote(seated, director):
    imported = import_tournament(export_tournament(seated), by=director, keep_roles=["helper"], as_new=True)
    sheet = ScoreSheet.objects.get(tournament=imported)
    original = ScoreSheet.objects.get(tournament=seated)
    assert sheet.pk != original.pk
    assert (sheet.entries, sheet.derived, sheet.version, sheet.corrected, sheet.entered_by.username) == (
        original.entries, original.derived, 2, True, "helper")
    assert sheet.entered_at == original.entered_at and sheet.updated_at == original.updated_at
    assert [(r.version, r.kind, r.by.username, r.reason) for r in sheet.revisions.all()] == [
        (1, "entry", "helper", ""), (2, "correction", "director", "misread 30")]
    assert sheet.table.round.stage.tournament == imported
    substitute = Seat.objects.filter(table__round__stage__tournament=imported, substitute__isnull=False).first()
    assert substitute.participant.tournament == imported and substitute.substitute.name == "Toni Gruber"
    assert {p.name for p in Team.objects.get(tournament=imported).members.all()} == {"Søren Ærø", "Resi Mayr"}
    entry = AuditEntry.objects.get(tournament=imported, action="sheet.correction")
    assert entry.after["bonus"] == "2.5" and entry.after["day"] == "2026-03-01"
    assert TournamentRole.objects.get(tournament=imported, user__username="helper").role == Role.ASSISTANT


def sent_twice(link) -> None:
    """Two sends counted on the link's brake, as from a phone at its table."""
    link.window_start, link.window_count = link.issued_at, 2
    link.save(update_fields=["window_start", "window_count"])


def test_the_file_carries_no_link_secret_and_a_copy_gets_links_of_its_own(seated, director):
    from scoring.models import TableLink
    from scoring.results.links import current_token, find_link, issue_links

    issue_links(Round.objects.get(stage__tournament=seated, number=1), by=director)
    originals = list(TableLink.objects.filter(tournament=seated))
    tokens = [current_token(link) for link in originals]
    for link in originals:
        sent_twice(link)
        for _ in range(REFUSED_LIMIT):  # a phone braked on the original's links
            note_refused(link, "10.0.0.66")
        with pytest.raises(Braked):
            check_address("10.0.0.66", current_token(link), sending=True)
    exported = export_tournament(seated)
    rows = table_of(json.loads(exported), "scoring.tablelink")
    assert len(rows) == len(originals) == 2
    for row in rows:
        assert not {"nonce", "token_hash", "window_start", "window_count"} & set(row)
    for link, token in zip(originals, tokens, strict=True):
        for secret in (link.nonce, link.token_hash, token):
            assert secret.encode() not in exported

    delete_tournament(seated)  # as on another machine
    imported = import_tournament(exported, by=director, keep_roles=["helper"])
    copies = list(TableLink.objects.filter(tournament=imported))
    assert len(copies) == 2 and all(current_token(copy) for copy in copies)  # shown and printed again there
    assert {copy.token_hash for copy in copies}.isdisjoint(link.token_hash for link in originals)
    assert all(find_link(token) is None for token in tokens)  # the original's codes open nothing
    assert [(copy.window_start, copy.window_count) for copy in copies] == [(None, 0), (None, 0)]
    for copy in copies:  # the copy's links keep no brake count
        check_address("10.0.0.66", current_token(copy), sending=True)
        check_taken(copy)
    assert export_tournament(imported) == exported


def test_an_older_file_with_link_secrets_imports_and_they_are_ignored(seated, director):
    from scoring.models import TableLink
    from scoring.results.links import current_token, find_link, issue_links, token_of

    issue_links(Round.objects.get(stage__tournament=seated, number=1), by=director)
    originals = list(TableLink.objects.filter(tournament=seated))
    for link in originals:
        sent_twice(link)
    document = json.loads(export_tournament(seated))
    for row, link in zip(table_of(document, "scoring.tablelink"), originals, strict=True):  # as files had them
        row.update(nonce=link.nonce, token_hash=link.token_hash, window_start=link.issued_at.isoformat(),
                   window_count=2)
    tokens = [token_of(link) for link in originals]
    delete_tournament(seated)
    imported = import_tournament(json.dumps(document).encode(), by=director)
    copies = list(TableLink.objects.filter(tournament=imported))
    assert len(copies) == 2 and all(current_token(copy) for copy in copies)
    assert all(find_link(token) is None for token in tokens)
    assert {copy.nonce for copy in copies}.isdisjoint(link.nonce for link in originals)
    assert [(copy.window_start, copy.window_count) for copy in copies] == [(None, 0), (None, 0)]


def links_stay_inside(tournament) -> bool:
    """Every path from every row of the tournament leads back to it, none to another tournament."""
    for plan in tournament_models()[1:]:
        rows = rows_of(plan, tournament)
        for path in plan.paths:
            if rows.exclude(**{path: tournament}).exclude(**{f"{path}__isnull": True}).exists():
                return False
    return True


def test_importing_director_directs_unknown_users_dropped(seated, director, make_director):
    document = json.loads(export_tournament(seated))
    text = json.dumps(document).replace('"helper"', '"ghost"')
    other = make_director("other")

    imported = import_tournament(text.encode(), by=other, keep_roles=["director", "ghost"], as_new=True)

    assert imported.created_by == director  # known here by the same name
    roles = dict(TournamentRole.objects.filter(tournament=imported).values_list("user__username", "role"))
    assert roles == {"director": Role.DIRECTOR, "other": Role.DIRECTOR}  # the ghost's role is gone
    assert ScoreSheet.objects.get(tournament=imported).entered_by is None
    assert AuditEntry.objects.filter(action="tournament.import", tournament=None, user=other).count() == 1


def test_a_missing_creator_becomes_the_importing_director(seated, make_director):
    text = export_tournament(seated).decode().replace('"created_by": "director"', '"created_by": "gone"')
    other = make_director("other")
    assert import_tournament(text.encode(), by=other, as_new=True).created_by == other


def corrupt(document: dict, model: str, field: str, value) -> bytes:
    table = next(t for t in document["models"] if t["model"] == model)
    table["rows"][-1][field] = value
    return json.dumps(document).encode()


BAD_FILES = {
    "not json": (lambda doc: b'{"format": "tournament-manager/tournament", ', "not valid JSON"),
    "not utf-8": (lambda doc: "{}".encode("utf-16"), "UTF-8"),
    "other format": (lambda doc: json.dumps({**doc, "format": "something"}).encode(), "not a tournament file"),
    "newer version": (lambda doc: json.dumps({**doc, "version": 3}).encode(), "format version 3"),
    "a list": (lambda doc: b"[]", "not a tournament file"),
    "unknown model": (
        lambda doc: json.dumps({**doc, "models": doc["models"] + [{"model": "auth.user", "rows": []}]}).encode(),
        "auth.user",
    ),
    "missing row": (lambda doc: corrupt(doc, "tournament.seat", "participant", 999), "not in the file"),
    "missing sheet": (lambda doc: corrupt(doc, "scoring.sheetrevision", "sheet", 77), "not in the file"),
    "bad m2m": (lambda doc: corrupt(doc, "tournament.team", "members", [1, 500]), "not in the file"),
    "unknown field": (lambda doc: corrupt(doc, "tournament.round", "colour", "red"), "unknown fields: colour"),
    "bad date": (lambda doc: corrupt(doc, "tournament.round", "starts_at", "yesterday"), "starts_at"),
    "required missing": (lambda doc: corrupt(doc, "tournament.seat", "table", None), "a value is required"),
    "unknown game": (lambda doc: json.dumps({**doc, "tournament": {**doc["tournament"], "game": "chess"}}).encode(),
                     "chess"),
    "repeated id": (lambda doc: corrupt(doc, "tournament.participant", "id", 1), "repeated id"),
    "too long": (lambda doc: corrupt(doc, "tournament.participant", "last_name", "x" * 500), "last_name"),
}


@pytest.mark.parametrize("case", BAD_FILES)
def test_bad_files_are_refused_and_nothing_is_saved(seated, director, case):
    make, expected = BAD_FILES[case]
    data = make(json.loads(export_tournament(seated)))
    before = all_rows()
    with pytest.raises(TransferError) as refused:
        import_tournament(data, by=director)
    assert expected in refused.value.message
    assert all_rows() == before


def test_too_large_file_is_refused(seated, director, settings):
    settings.TOURNAMENT_IMPORT_MAX_BYTES = 1024 * 1024
    with pytest.raises(TransferError, match="larger than 1 MB"):
        import_tournament(b" " * (1024 * 1024 + 1), by=director)


def test_only_directors_import(seated, django_user_model):
    player = django_user_model.objects.create_user("player", password="x")
    with pytest.raises(TransferError):
        import_tournament(export_tournament(seated), by=player)
    assert Tournament.objects.count() == 1


def test_reserved_slugs_are_not_taken(seated, director):
    text = export_tournament(seated).decode().replace('"slug": "schafkopf-night"', '"slug": "import"')
    assert import_tournament(text.encode(), by=director, as_new=True).slug == "import-2"


# --- the pages and the commands ---------------------------------------------------------------------


def test_director_downloads_and_imports_through_the_pages(seated, director, client):
    client.force_login(director)
    detail = client.get(reverse("tournament:detail", args=[seated.slug])).content.decode()
    download_url = reverse("tournament:export_json", args=[seated.slug])
    assert download_url in detail
    response = client.get(download_url)
    assert response["Content-Type"].startswith("application/json")
    assert 'filename="schafkopf-night.tournament.json"' in response["Content-Disposition"]
    assert response.content == export_tournament(seated)

    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("t.json", response.content, content_type="application/json")
    response = client.post(reverse("tournament:import"), {"file": upload})
    assert response.status_code == 302 and response["Location"] == reverse("tournament:import_roles")
    assert Tournament.objects.count() == 1  # checked, not imported yet

    step2 = client.get(reverse("tournament:import_roles")).content.decode()
    assert "Schafkopf night" in step2
    assert 'value="helper"' in step2 and "helper as Assistant" in step2
    assert not re.search(r'<input[^>]*name="keep"[^>]*checked', step2)  # nothing kept unless ticked
    response = client.post(reverse("tournament:import_roles"), {"action": "new"})
    copy = Tournament.objects.get(slug="schafkopf-night-2")
    assert response.status_code == 302 and response["Location"] == copy.get_absolute_url()
    # the copy's short name differs from the file's: the director is told, with the new public address
    told = client.get(response["Location"]).content.decode()
    assert "“schafkopf-night” is taken here" in told and "/p/schafkopf-night-2/" in told
    roles = dict(TournamentRole.objects.filter(tournament=copy).values_list("user__username", "role"))
    assert roles == {"director": Role.DIRECTOR}  # the helper was not given access
    assert client.get(reverse("tournament:import_roles")).status_code == 302  # the upload is gone


def test_the_importer_chooses_the_roles_to_keep(seated, director, make_director, client):
    from django.core.files.uploadedfile import SimpleUploadedFile

    other = make_director("other")
    client.force_login(other)
    client.post(reverse("tournament:import"), {"file": SimpleUploadedFile("t.json", export_tournament(seated))})
    page = client.get(reverse("tournament:import_roles")).content.decode()
    assert "director as Director" in page and "helper as Assistant" in page
    client.post(reverse("tournament:import_roles"), {"keep": ["helper"], "action": "new"})
    copy = Tournament.objects.get(slug="schafkopf-night-2")
    roles = dict(TournamentRole.objects.filter(tournament=copy).values_list("user__username", "role"))
    assert roles == {"helper": Role.ASSISTANT, "other": Role.DIRECTOR}  # the file's director was not kept
    entry = AuditEntry.objects.get(action="tournament.import")
    assert entry.after["roles_kept"] == ["helper"]


def test_a_role_not_offered_cannot_be_kept_and_cancel_saves_nothing(seated, director, client):
    from django.core.files.uploadedfile import SimpleUploadedFile

    text = export_tournament(seated).decode().replace('"user": "helper"', '"user": "ghost"')
    client.force_login(director)
    client.post(reverse("tournament:import"), {"file": SimpleUploadedFile("t.json", text.encode())})
    page = client.get(reverse("tournament:import_roles")).content.decode()
    assert "ghost (Assistant)" in page  # shown as dropped, not offered
    response = client.post(reverse("tournament:import_roles"), {"keep": ["ghost"], "action": "new"})
    assert response.status_code == 200 and "ghost" in response.content.decode()
    assert Tournament.objects.count() == 1
    response = client.post(reverse("tournament:import_roles"), {"cancel": "1"})
    assert response.status_code == 302 and Tournament.objects.count() == 1
    assert client.get(reverse("tournament:import_roles")).status_code == 302


def test_import_page_shows_the_refusal(director, client):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(director)
    before = all_rows()
    assert client.get(reverse("tournament:import")).status_code == 200
    response = client.post(reverse("tournament:import"), {"file": SimpleUploadedFile("t.json", b"{oops")})
    assert response.status_code == 200
    assert "not valid JSON" in response.content.decode()
    assert all_rows() == before  # no tournament, nor any row of one (the module's `seated` may stand beside)


def test_import_page_refuses_large_uploads_before_reading(director, client, settings):
    from django.core.files.uploadedfile import SimpleUploadedFile

    settings.TOURNAMENT_IMPORT_MAX_BYTES = 1024 * 1024
    client.force_login(director)
    response = client.post(reverse("tournament:import"), {"file": SimpleUploadedFile("t.json", b" " * 2**21)})
    assert "larger than 1 MB" in response.content.decode()


def test_who_may_download_and_import(seated, django_user_model, make_director, client):
    url = reverse("tournament:export_json", args=[seated.slug])
    assert client.get(url).status_code == 302  # anonymous: to the login page
    assert client.get(reverse("tournament:import")).status_code == 302
    client.force_login(make_director("other"))
    assert client.get(url).status_code == 404
    assistant = django_user_model.objects.get(username="helper")
    client.force_login(assistant)
    assert client.get(url).status_code == 404
    assert client.get(reverse("tournament:import")).status_code == 403


def test_commands_round_trip(seated, director, tmp_path):
    path = tmp_path / "night.json"
    call_command("export_tournament", seated.slug, "--output", str(path))
    call_command("import_tournament", str(path), "--user", "director", "--keep-role", "helper", "--as-new")
    copy = Tournament.objects.get(slug="schafkopf-night-2")
    # the copy has an identity of its own
    assert export_tournament(copy) == path.read_bytes().replace(b'"schafkopf-night"', b'"schafkopf-night-2"', 1) \
        .replace(str(seated.uid).encode(), str(copy.uid).encode(), 1)


def test_import_command_reports_a_bad_file(director, tmp_path):
    from django.core.management import CommandError

    path = tmp_path / "bad.json"
    path.write_text('{"format": "x"}')
    with pytest.raises(CommandError, match="not a tournament file"):
        call_command("import_tournament", str(path), "--user", "director")


# --- untrusted files: results are recomputed, every value validated ----------------------------------------


def table_of(document: dict, model: str) -> list[dict]:
    return next(t for t in document["models"] if t["model"] == model)["rows"]


def client_pages_work(tournament, director):
    from django.test import Client

    client = Client()
    client.force_login(director)
    for _label, address in game_of(tournament).menu(tournament):
        assert client.get(address, follow=True).status_code == 200, address


def rewrite(document: dict, where: str, field: str, value, row: int = -1) -> bytes:
    hostile = json.loads(json.dumps(document))
    if where == "tournament":
        hostile["tournament"][field] = value
    else:
        table_of(hostile, where)[row][field] = value
    return json.dumps(hostile).encode()


@pytest.mark.parametrize("settings_value, expected", [
    ({"rounds": "2"}, "rounds"),
    ({"rounds": 500}, "Rounds"),
    ({"tariff": {"name": "x"}}, "tariff"),
    ({"prizes": [{"kind": "fixed", "value": "lots"}]}, "prizes"),
    ({"fixed_tables": {"1": 0}}, "fixed table"),
    ({"games_at_five": 33}, "multiple of 5"),
])
def test_tampered_schafkopf_settings_are_refused(seated, director, settings_value, expected):
    document = json.loads(export_tournament(seated))
    with pytest.raises(TransferError) as refused:
        import_tournament(rewrite(document, "tournament", "settings", {**document["tournament"]["settings"],
                                                                        **settings_value}), by=director)
    assert expected in refused.value.message


def test_tampered_schafkopf_totals_are_refused(seated, director):
    document = json.loads(export_tournament(seated))
    sheet = table_of(document, "scoring.scoresheet")[0]
    sheet["entries"] = totals_list(100, 0, 0, 0)
    with pytest.raises(TransferError, match="Table 1"):
        import_tournament(json.dumps(document).encode(), by=director)
    sheet["entries"] = totals_list(20, 0, -10, -10)
    sheet["derived"] = {"totals": {"1": 999}}
    imported = import_tournament(json.dumps(document).encode(), by=director, as_new=True)
    assert ScoreSheet.objects.get(tournament=imported).derived["totals"] == {"1": 20, "2": 0, "3": -10, "4": -10}


@pytest.mark.parametrize("key", ["schafkopf", "domino", "domino_patience", "rummi", "quadominos"])
def test_every_games_played_demo_passes_the_checks_and_round_trips(key, director):
    """Each game's settings check and recompute path accept what the game itself stored."""
    from scoring.games import get_game
    from tests.hostile.conftest import demo_options

    game = get_game(key)
    played = game.demo(director, **demo_options(game, results=True))
    assert ScoreSheet.objects.filter(tournament=played).exists()
    exported = export_tournament(played)
    delete_tournament(played)

    imported = import_tournament(exported, by=director)

    assert export_tournament(imported) == exported
    client_pages_work(imported, director)
