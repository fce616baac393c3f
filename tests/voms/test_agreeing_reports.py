"""Voms with two agreeing reports counting: each team of a game has its own link, printed in its half of the
slip; both teams' phones sending the same slip make it count, different ones reach the referee table."""

import pytest
from django.urls import reverse

from documents import render
from scoring.games.voms.documents import series_slips_document, slips_document
from scoring.link_pages import link_url
from scoring.models import LinkReport, PendingSheet, ScoreSheet
from scoring.results.links import current_token, issue_match_links, token_of
from tests.pdf_shapes import square_sides
from tests.pdf_text import page_texts
from tournament.models import AuditEntry

from .test_tablelinks import knockout, phone, pool_games, slip, table_url  # noqa: F401  (fixtures)


@pytest.fixture
def team_links(drawn, director):
    """The two teams' links of every game of round 1: {(table, team): (link, token)}."""
    drawn.agreeing_reports_count = True
    drawn.save()
    return {(link.match.table_number, link.holder): (link, token_of(link))
            for link in issue_match_links(drawn, pool_games(drawn, 1), by=director)}


def test_each_teams_phone_names_its_team_as_the_slip_does(phone, team_links):  # noqa: F811
    # the slip's halves are Team A and Team B: the phone of each team's link said "Team 1", "Team 2" (issue 27)
    for team, side in ((1, "A"), (2, "B")):
        page = phone.get(table_url(team_links[(1, team)][1])).content.decode()
        assert f"Table 1 · Team {side}</" in page, page


def test_each_team_of_a_game_gets_its_own_link(team_links, drawn):
    assert {team for _table, team in team_links} == {1, 2}
    assert len(team_links) == 2 * len(pool_games(drawn, 1))


def test_two_teams_sending_the_same_slip_make_it_count_without_the_referee(phone, team_links, drawn):  # noqa: F811
    (link_a, token_a), (_link_b, token_b) = team_links[(1, 1)], team_links[(1, 2)]
    assert phone.post(table_url(token_a), slip(9, 4)).status_code == 302
    assert not ScoreSheet.objects.filter(match=link_a.match).exists()
    waiting = phone.get(table_url(token_a)).content.decode()
    assert "it counts as soon as another link of your table sends the same" in waiting
    assert phone.post(table_url(token_b), slip(9, 4)).status_code == 302
    sheet = ScoreSheet.objects.get(match=link_a.match)
    assert sheet.entries == [{"lus_a": 9, "lus_b": 4}] and sheet.derived["games"][0]["points_a"] == "2"
    assert not PendingSheet.objects.exists() and not LinkReport.objects.exists()
    entry = AuditEntry.objects.get(action="sheet.confirmed")
    assert entry.reason == "counted: two agreeing reports from teams A and B"
    assert 'id="counted"' in phone.get(table_url(token_b)).content.decode()


def test_two_teams_that_differ_reach_the_referee_who_picks_one(phone, team_links, drawn, director,  # noqa: F811
                                                                client):
    (link_a, token_a), (link_b, token_b) = team_links[(2, 1)], team_links[(2, 2)]
    phone.post(table_url(token_a), slip(9, 4))
    phone.post(table_url(token_b), slip(9, 5))
    assert not ScoreSheet.objects.filter(match=link_a.match).exists()
    note = phone.get(table_url(token_b)).content.decode()
    assert "The referee table compares the two and decides" in note and 'value="5"' in note
    client.force_login(director)
    url = reverse("tournament:voms:enter", args=[drawn.slug])
    page = client.get(url + "?round=1").content.decode()
    assert "team B, from its link (differs)" in page and "Let the report of team B count" in page
    report = LinkReport.objects.get(match=link_b.match, holder=2)
    pending = PendingSheet.objects.get(match=link_a.match)
    answer = client.post(url, {"action": "confirm", "match": link_a.match.pk, "pending_version": pending.version,
                               "report": report.pk})
    assert answer.status_code == 302
    sheet = ScoreSheet.objects.get(match=link_a.match)
    assert sheet.entries == [{"lus_a": 9, "lus_b": 5}] and sheet.revisions.get().source_link == link_b


def test_each_team_has_its_own_qr_code_in_its_half_of_the_slip(team_links, drawn, tmp_path):
    document = slips_document(drawn, 1)
    first = document.pages[0]["slips"][0]
    (link_a, _), (link_b, _) = team_links[(1, 1)], team_links[(1, 2)]
    assert first["link"] is None
    assert [code["url"] for _side, _team, code in first["sides"]] == [link_url(current_token(link_a)),
                                                                     link_url(current_token(link_b))]
    data = render(document, "pdf", tournament=drawn)
    (tmp_path / "slips.pdf").write_bytes(data)
    assert page_texts(data)
    # each team's code 22 mm (quiet zone included), as a table's on a Schafkopf list: 16 read badly
    assert square_sides(data)[0].count(22.0) == 2 * len(document.pages[0]["slips"])


def test_without_the_option_a_game_has_one_link_beside_its_table_number(drawn, director):
    issue_match_links(drawn, pool_games(drawn, 1), by=director)
    first = slips_document(drawn, 1).pages[0]["slips"][0]
    assert first["link"]["url"] and [code for *_rest, code in first["sides"]] == [None, None]


def test_the_links_page_lists_a_row_per_team(team_links, drawn, director, client):
    client.force_login(director)
    page = client.get(reverse("tournament:voms:links_part", args=[drawn.slug, "1"])).content.decode()
    for (_table, team), (link, token) in team_links.items():
        assert f'id="match-{link.match_id}-team-{team}"' in page and f"/t/{token}/" in page
    assert "each team of a game has its own link" in page


def test_each_team_of_a_series_has_its_own_qr_code_on_the_knockout_slip(knockout, drawn, director,  # noqa: F811
                                                                         tmp_path):
    drawn.agreeing_reports_count = True
    drawn.save()
    series = list(knockout.matches.filter(team_a__isnull=False, team_b__isnull=False).order_by("key"))
    made = issue_match_links(drawn, series, by=director)
    assert len(made) == 2 * len(series)
    document = series_slips_document(drawn)
    first = document.pages[0]["slips"][0]
    links = {link.holder: link for link in made if link.match_id == series[0].pk}
    assert first["link"] is None
    assert [code["url"] for code in first["codes"]] == [link_url(current_token(links[1])),
                                                       link_url(current_token(links[2]))]
    data = render(document, "pdf", tournament=drawn)
    (tmp_path / "series-slips.pdf").write_bytes(data)
    assert page_texts(data)
