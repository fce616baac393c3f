"""A disqualified team is marked, with its round, on every page and printout where it appears (voms.md)."""

import pytest
from django.urls import reverse

from scoring.games.voms import entries as voms_entries
from scoring.games.voms import queries as voms_queries
from scoring.games.voms.documents import build
from scoring.games.voms.services import knockout as voms_knockout
from scoring.games.voms.services import slips as voms_slips
from tournament.models import Match, Team

from .drawn_once import built_drawn, drawn_world, once_director, once_drawn, once_voms  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.fixture
def disqualified(drawn, director):
    """Team 1 absent in its first three games: disqualified in round 3."""
    team = Team.objects.get(tournament=drawn, name="Team 1")
    games = [m for m in Match.objects.filter(stage__tournament=drawn, team_b__isnull=False)
             .select_related("round").order_by("round__number") if team.pk in (m.team_a_id, m.team_b_id)]
    for match in games[:3]:
        absent = "a" if match.team_a_id == team.pk else "b"
        voms_slips.record_slip(match, by=director, entry=voms_entries.slip_entry(absent=absent),
                               confirm_disqualify=True)
    assert voms_queries.disqualifications(drawn) == {team.pk: 3}
    return team


def page_text(client, name, tournament, *args):
    return client.get(reverse(name, args=[tournament.slug, *args])).content.decode()


def test_the_desk_pages_mark_the_disqualified_team(drawn, disqualified, director, client):
    client.force_login(director)
    for name, args in (("tournament:desk", ()), ("tournament:checkin", ()),
                       ("tournament:desk_entry", (disqualified.pk,))):
        assert "disqualified in round 3" in page_text(client, name, drawn, *args).lower(), name
    other = Team.objects.get(tournament=drawn, name="Team 2")
    assert "disqualified" not in page_text(client, "tournament:desk_entry", drawn, other.pk)


def test_the_game_pages_mark_the_disqualified_team(drawn, disqualified, director, client):
    client.force_login(director)
    for name in ("draw", "enter", "schedule", "standings"):
        assert "Team 1 (disqualified in round 3)" in page_text(client, f"tournament:voms:{name}", drawn), name


def test_the_pool_lists_mark_the_disqualified_team(drawn, disqualified):
    teams = [row["team"] for row in build(drawn, "pools").rows]
    assert "Team 1 (disqualified in round 3)" in teams
    assert "Team 2" in teams


def test_the_ranking_is_provisional_until_the_final_is_in_and_a_played_knockout_is_not_offered_again(
        drawn, director, client):
    for match in Match.objects.filter(stage__tournament=drawn, team_b__isnull=False):
        voms_slips.record_slip(match, by=director, entry=voms_entries.slip_entry(lus_a=9, lus_b=3))
    client.force_login(director)
    assert client.post(reverse("tournament:voms:knockout", args=[drawn.slug]),
                       {"qualifiers_per_pool": 2, "semifinal": "bracket"}).status_code == 302
    standings = page_text(client, "tournament:voms:standings", drawn)
    assert "Provisional — after 15 of 16 slips" in standings and "Final ranking" not in standings
    assert "Rebuild the knockout" in page_text(client, "tournament:voms:knockout", drawn)
    final = Match.objects.get(stage__tournament=drawn, key="F")
    voms_knockout.record_series(final, by=director, games=[{"lus_a": 9, "lus_b": 2}])
    knockout = page_text(client, "tournament:voms:knockout", drawn)
    assert "Rebuild the knockout" not in knockout and "the knockout cannot be rebuilt" in knockout
    voms_knockout.record_series(final, by=director, games=[{"lus_a": 9, "lus_b": 2}, {"lus_a": 9, "lus_b": 4}])
    assert "Final ranking" in page_text(client, "tournament:voms:standings", drawn)


def test_the_printouts_and_the_excel_file_mark_the_disqualified_team(drawn, disqualified):
    for name in ("standings", "schedule", "results", "crosstables"):
        assert "Team 1 (disqualified in round 3)" in document_text(build(drawn, name)), name


def document_text(document) -> str:
    """What a document holds, as text: a table's rows (the PDF's and the Excel file's), or a page's context."""
    parts = [getattr(document, attr, "") for attr in ("rows", "context", "pages")]
    parts += [list(sheet.rows) for sheet in getattr(document, "sheets", [])]
    return str(parts)


def test_the_public_pages_mark_the_disqualified_team(drawn, disqualified, director, client):
    import html

    from tournament.services.publishing import KINDS, set_publication

    set_publication(drawn, by=director, kinds=KINDS)
    for page in ("standings", "schedule", "results", "beamer"):
        text = html.unescape(client.get(reverse(f"public:{page}", args=[drawn.slug])).content.decode())
        assert "Team 1 (disqualified in round 3)" in text, page
    found = html.unescape(client.get(reverse("public:seat", args=[drawn.slug]), {"q": "P0 One"}).content.decode())
    assert "disqualified in round 3" in found


def test_the_team_page_after_the_draw_says_how_a_team_that_drops_out_is_entered(drawn, director, client):
    """A team leaves mid-evening: its page (where a director looks for "withdraw") says what happens, with the way
    to withdraw it from a round on (voms.md, Decision "a team leaves early")."""
    client.force_login(director)
    team = Team.objects.get(tournament=drawn, name="Team 2")
    page = page_text(client, "tournament:desk_entry", drawn, team.pk)
    assert "is withdrawn from a round on" in page and "count 9:0 for the opponents without a slip" in page
    assert f'href="{reverse("tournament:voms:withdraw", args=[drawn.slug, team.pk])}"' in page
    client.cookies.load({"django_language": "da"})
    assert "trækkes tilbage fra en runde" in page_text(client, "tournament:desk_entry", drawn, team.pk)
