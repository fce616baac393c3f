"""The object of an audit entry reads in the reader's language, as it was called then.

An entry keeps the writer's text (`object_repr`) and, for what has words (a table, a round, a seat, a stage, a
draw, a role, a table's link), the same object language-neutral (`object_ref`), worded when the page is read."""

import pytest
from django.urls import reverse
from django.utils import translation

from scoring.models import TableLink
from tournament.audit_labels import object_text
from tournament.models import AuditEntry, Draw, Participant, Role, Round, Seat, Stage, Table
from tournament.services.audit import log_action
from tournament.services.clock import start_clock
from tournament.services.roles import set_role

from .test_audit_page import cells, page_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(tournament):
    stage = Stage.objects.create(tournament=tournament, kind=Stage.Kind.ROUNDS)
    return Table.objects.create(round=Round.objects.create(stage=stage, number=2), number=4)


def written_in(language, *args, **kwargs) -> AuditEntry:
    with translation.override(language):
        return log_action(*args, **kwargs)


@pytest.mark.parametrize("writer,reader,stored,shown", [
    ("en", "de", "Table 4", "Tisch 4"),
    ("de", "en", "Tisch 4", "Table 4"),
    ("en", "da", "Table 4", "Bord 4"),
])
def test_an_entry_reads_in_the_readers_language(table, tournament, director, client, writer, reader, stored,
                                                shown):
    entry = written_in(writer, "sheet.entry", by=director, tournament=tournament, obj=table, after={"lus": 5})
    assert entry.object_repr == stored  # the writer's text stays, for an older reader and the admin
    client.force_login(director)
    assert cells(page_of(client, tournament, reader), "object")[0] == shown


def test_a_round_its_table_and_a_seat_each_in_words(table, tournament, director, client):
    player = Participant.objects.create(tournament=tournament, number=7, first_name="Anna", last_name="Huber")
    seat = Seat.objects.create(table=table, number=3, participant=player)
    written_in("en", "schafkopf.substitute", by=director, tournament=tournament, obj=(table.round, table, seat))
    client.force_login(director)
    assert cells(page_of(client, tournament, "de"), "object")[0] == "Runde 2, Tisch 4, Platz 3"
    assert cells(page_of(client, tournament, "en"), "object")[0] == "Round 2, Table 4, Seat 3"


def test_the_round_clock_names_its_stage_and_round_in_the_readers_words(table, tournament, director, client):
    with translation.override("de"):
        start_clock(table.round, by=director)
    entry = AuditEntry.objects.get(action="clock.start")
    assert entry.object_repr == "Runden, Runde 2"
    client.force_login(director)
    assert cells(page_of(client, tournament, "en", action="clock.start"), "object") == ["Rounds, Round 2"]
    assert cells(page_of(client, tournament, "da", action="clock.start"), "object") == ["Runder, Runde 2"]


def test_a_draw_a_role_and_a_link_in_words(table, tournament, director, django_user_model, client):
    draw = Draw.objects.create(tournament=tournament, kind=Draw.Kind.SEATING, seed=42)
    written_in("en", "seating.draw", by=director, tournament=tournament, obj=draw)
    helper = django_user_model.objects.create_user("helper", password="pw-Helper-1")
    with translation.override("en"):
        set_role(tournament, helper, Role.ASSISTANT, by=director)
    link = TableLink.objects.create(tournament=tournament, table=table, token_hash="x" * 64)
    written_in("en", "tablelink.revoke", by=director, tournament=tournament, obj=link)
    client.force_login(director)
    html = page_of(client, tournament, "de")
    assert cells(html, "object")[:3] == ["Link von Tisch 4", f"helper – Assistenz – {tournament.name}",
                                         "Sitzordnung 42"]


def test_a_renamed_team_keeps_the_name_it_had_then(tournament, director, client):
    from tournament.services.participants import register_team, update_team

    team = register_team(tournament, by=director, name="Old name", players=["Ann", "Bo"])
    update_team(team, by=director, name="New name")
    client.force_login(director)
    objects = cells(page_of(client, tournament, "de", action="team.add"), "object")
    assert objects == ["Old name"]


def test_an_old_entry_and_an_unknown_piece_show_their_stored_text(tournament, director, client):
    AuditEntry.objects.create(tournament=tournament, user=director, action="sheet.entry", object_repr="Table 9")
    AuditEntry.objects.create(tournament=tournament, user=director, action="sheet.correction",
                              object_repr="Future thing", object_ref=[{"kind": "from.a.newer.version"}])
    AuditEntry.objects.create(tournament=tournament, user=director, action="sheet.decided",
                              object_repr="Broken", object_ref=[{"kind": "table"}])
    client.force_login(director)
    objects = cells(page_of(client, tournament, "de"), "object")
    assert {"Table 9", "Future thing", "Broken"} <= set(objects)


@pytest.mark.parametrize("ref", [
    {"kind": "table", "number": 4}, 7, "text", [{"kind": "table", "number": "four"}], [{"kind": "table"}],
    [{"kind": "stage", "stage": ["x"]}], [{"kind": "link", "of": [{"kind": "link", "of": []}]}],
    [{"kind": "link", "of": {"kind": "table", "number": 1}}], ["x" * 300], [{"kind": "draw", "draw": "seating"}],
])
def test_an_object_a_file_could_hold_shows_its_stored_text(ref):
    """An imported tournament file may hold any JSON there: never an error, never a page made long by it."""
    assert object_text(AuditEntry(object_ref=ref, object_repr="as stored")) == "as stored"


def test_names_given_as_text_stay_as_they_are(tournament, director):
    entry = log_action("participant.add", by=director, tournament=tournament, obj="7 Anna Huber")
    assert entry.object_ref is None and object_text(entry) == "7 Anna Huber"
    entry = log_action("tournament.update", by=director, tournament=tournament, obj=tournament)
    assert entry.object_ref is None and object_text(entry) == tournament.name


def test_search_finds_the_object_in_the_readers_words(table, tournament, director, client):
    written_in("en", "sheet.entry", by=director, tournament=tournament, obj=table, after={"lus": 5})
    client.force_login(director)
    url = reverse("tournament:audit", args=[tournament.slug])
    found = client.get(url, {"q": "tisch 4"}, HTTP_ACCEPT_LANGUAGE="de").context["table"].paginated_rows
    assert [row.record.action for row in found] == ["sheet.entry"]
    found = client.get(url, {"q": "Table 4"}, HTTP_ACCEPT_LANGUAGE="de").context["table"].paginated_rows
    assert [row.record.action for row in found] == ["sheet.entry"]  # the stored text is still found
    assert not client.get(url, {"q": "Tisch 5"}, HTTP_ACCEPT_LANGUAGE="de").context["table"].paginated_rows
