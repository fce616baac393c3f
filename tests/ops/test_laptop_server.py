"""The laptop-to-server round trip (issue 26): a tournament's file uploaded again updates the server's copy.

The "server" is this database after the laptop's tournament and season are removed (the suite has one database
alias; what the laptop still knows is its files). The laptop's evening is a played Schafkopf demo in a season; its
first file is the evening before its last round (that round's score sheets taken out of the file), its second
file the whole evening. Runs on SQLite and, in CI's second run, on PostgreSQL.
"""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from scoring.games import get_game
from scoring.games.schafkopf.standings import standings
from scoring.models import ScoreSheet, TableLink
from tests.hostile.conftest import demo_options
from tests.ops.conftest import delete_tournament
from tournament.models import AuditEntry, Season, Tournament, TournamentSnapshot
from tournament.services.seasons import add_evening, create_season
from tournament.snapshots import snapshot_file
from tournament.transfer import TransferError, export_tournament, import_tournament
from tournament.transfer_update import update_tournament


def rows(tournament):
    return [(r.rank, r.participant.number, r.participant.name, r.values, r.by_lot) for r in standings(tournament).rows]


def before_last_round(data: bytes, last_round: int) -> bytes:
    """The same evening's file as the laptop wrote it before the last round's lists were entered."""
    document = json.loads(data)
    tables = {t["model"]: t["rows"] for t in document["models"]}
    rounds = {row["id"]: row["number"] for row in tables["tournament.round"]}
    late_tables = {row["id"] for row in tables["tournament.table"] if rounds[row["round"]] == last_round}
    late_sheets = {row["id"] for row in tables["scoring.scoresheet"] if row["table"] in late_tables}
    for table in document["models"]:
        if table["model"] == "scoring.scoresheet":
            table["rows"] = [row for row in table["rows"] if row["id"] not in late_sheets]
        if table["model"] in ("scoring.sheetrevision", "scoring.pendingsheet"):
            table["rows"] = [row for row in table["rows"] if row.get("sheet") not in late_sheets]
        if table["model"] == "scoring.tableproblem":
            table["rows"] = [row for row in table["rows"] if row.get("table") not in late_tables]
    return json.dumps(document).encode()


@pytest.fixture
def evening(director):
    """The laptop's files of a played evening in a season, and its standings; then the laptop's copy is gone."""
    game = get_game("schafkopf")
    played = game.demo(director, **demo_options(game, results=True))
    season = create_season(by=director, name="Winter league", game="schafkopf", place_points=["10", "8", "6"])
    played = add_evening(season, played, by=director)
    last_round = played.stages.get().rounds.order_by("-number").first().number
    whole = export_tournament(played)
    laptop = {"first": before_last_round(whole, last_round), "second": whole, "standings": rows(played),
              "uid": played.uid, "season_uid": season.uid,
              "sheets": ScoreSheet.objects.filter(tournament=played).count()}
    delete_tournament(played)  # the server never had them
    season.delete()
    return laptop


def test_a_second_upload_updates_the_servers_copy(evening, director, client):
    client.force_login(director)
    first = import_tournament(evening["first"], by=director)
    assert first.uid == evening["uid"]
    assert first.season.uid == evening["season_uid"]  # the season came with it, made here
    links_before = dict(TableLink.objects.filter(tournament=first).values_list("table__id", "token_hash"))

    client.post(reverse("tournament:import"), {"file": SimpleUploadedFile("t.json", evening["second"])})
    step2 = client.get(reverse("tournament:import_roles")).content.decode()
    assert f"Update “{first.name}” with this file" in step2
    assert 'value="update"' in step2 and "checked" in step2.split('value="update"')[1].split(">")[0]
    response = client.post(reverse("tournament:import_roles"), {"action": "update"})

    server = Tournament.objects.get()  # no copy: the same tournament
    assert response["Location"] == server.get_absolute_url()
    assert (server.pk, server.slug, server.uid) == (first.pk, first.slug, evening["uid"])
    assert server.season.uid == evening["season_uid"] and Season.objects.count() == 1
    assert rows(server) == evening["standings"]  # row for row the laptop's
    assert ScoreSheet.objects.filter(tournament=server).count() == evening["sheets"]
    # the state it replaced is kept, and the update is logged with what it replaced
    snapshot = TournamentSnapshot.objects.get(tournament_id=server.pk)
    assert json.loads(snapshot_file(snapshot))["tournament"]["uid"] == str(server.uid)
    entry = AuditEntry.objects.get(action="tournament.update_from_file")
    assert entry.before["sheets"] < entry.after["sheets"] == evening["sheets"]
    assert entry.before["snapshot"] == snapshot.pk
    # the table links the file holds unchanged keep their tokens (the codes printed here)
    links_after = set(TableLink.objects.filter(tournament=server).values_list("token_hash", flat=True))
    assert set(links_before.values()) <= links_after


def test_an_older_file_needs_confirmation_and_a_bad_one_changes_nothing(evening, director):
    server = import_tournament(evening["second"], by=director)
    with pytest.raises(TransferError, match="older"):
        update_tournament(server, evening["first"], by=director)
    assert ScoreSheet.objects.filter(tournament=server).count() == evening["sheets"]
    broken = evening["second"].replace(b'"tournament.round"', b'"tournament.rounds"', 1)
    with pytest.raises(TransferError):
        update_tournament(server, broken, by=director)
    assert ScoreSheet.objects.filter(tournament=server).count() == evening["sheets"]
    assert not TournamentSnapshot.objects.exists()  # nothing changed, nothing kept

    update_tournament(server, evening["first"], by=director, older_ok=True)
    assert ScoreSheet.objects.filter(tournament=server).count() < evening["sheets"]
    assert Tournament.objects.count() == 1


def test_a_tournament_someone_else_directs_is_refused_or_copied_on_request(evening, director, make_director, client):
    import_tournament(evening["second"], by=director)
    other = make_director("other")
    with pytest.raises(TransferError, match="you do not direct it"):
        import_tournament(evening["second"], by=other)
    with pytest.raises(TransferError):
        update_tournament(Tournament.objects.get(), evening["second"], by=other)
    client.force_login(other)
    client.post(reverse("tournament:import"), {"file": SimpleUploadedFile("t.json", evening["second"])})
    step2 = client.get(reverse("tournament:import_roles")).content.decode()
    assert 'value="update"' not in step2 and "you do not direct it" in step2
    assert client.post(reverse("tournament:import_roles"), {}).status_code == 200  # he must ask for the copy
    assert Tournament.objects.count() == 1
    client.post(reverse("tournament:import_roles"), {"action": "new"})
    copy = Tournament.objects.order_by("-pk")[0]
    assert Tournament.objects.count() == 2 and copy.uid != evening["uid"]
    assert copy.season is None  # the season here is another director's: not joined
