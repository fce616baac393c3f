"""Smaller Voms traps from the second walkthrough (issue 25): the round after a round's last slip, one tab order,
the knockout's choices by the number of pools, quarterfinal losers ranked by their stage."""

import re

import pytest
from django.urls import reverse

from scoring.games import game_of
from scoring.games.voms import entries as voms_entries
from scoring.games.voms.documents import build
from scoring.games.voms.services import knockout as voms_knockout
from scoring.games.voms.services import pools as voms_pools
from scoring.games.voms.services import slips as voms_slips
from tournament.models import Match, Stage
from tournament.services.participants import register_team

pytestmark = pytest.mark.django_db


# --- a. after a round's last slip the form moves on to the next round --------------------------------------


def test_after_a_rounds_last_slip_the_round_field_moves_to_the_round_still_missing(drawn, director, client):
    round_one = list(Match.objects.filter(stage__tournament=drawn, round__number=1, team_b__isnull=False)
                     .order_by("table_number"))
    client.force_login(director)
    address = reverse("tournament:voms:enter", args=[drawn.slug])
    response = client.post(address, {"round": 1, "table": round_one[0].table_number, "lus_a": "9", "lus_b": "4"})
    assert response["Location"] == address + "?round=1"  # round 1 still has games without a slip: it stays
    for match in round_one[1:-1]:
        voms_slips.record_slip(match, by=director, entry=voms_entries.slip_entry(lus_a=9, lus_b=4))
    response = client.post(address, {"round": 1, "table": round_one[-1].table_number, "lus_a": "9", "lus_b": "2"},
                           follow=True)
    text = response.content.decode()
    assert str(response.context["form"].initial["round"]) == "2"
    assert 'name="round" value="2"' in text and "Still missing in round 2" in text


# --- c. one tab order on every Voms page --------------------------------------------------------------------

VOMS_PAGES = ("overview", "settings", "teams", "draw", "schedule", "enter", "board", "standings", "knockout",
              "links", "printouts")


def tab_labels(text: str, nav_class: str) -> list[str]:
    nav = re.search(rf'<nav class="{nav_class}"[^>]*>(.*?)</nav>', text, re.S).group(1)
    return [re.sub(r"<[^>]+>", "", label).strip() for label in re.findall(r"<a [^>]*>(.*?)</a>", nav, re.S)]


def test_every_voms_page_and_the_desk_show_the_tabs_in_one_order(drawn, director, client):
    client.force_login(director)
    expected = [str(label) for label, _url in game_of(drawn).menu(drawn)]
    team = drawn.teams.first()
    response = client.get(reverse("tournament:voms:withdraw", args=[drawn.slug, team.pk]))
    seen = {"withdraw": tab_labels(response.content.decode(), "vo-nav")}
    for name in VOMS_PAGES:
        response = client.get(reverse(f"tournament:voms:{name}", args=[drawn.slug]), follow=True)
        seen[name] = tab_labels(response.content.decode(), "vo-nav")
    for name in ("desk", "checkin"):
        seen[name] = tab_labels(client.get(reverse(f"tournament:{name}", args=[drawn.slug])).content.decode(),
                                "desk-nav")
    assert {name: labels for name, labels in seen.items() if labels != expected} == {}
    assert expected[-2:] == ["Table links", "Printouts"]


def test_an_assistant_sees_the_same_order_without_the_directors_tabs(drawn, assistant_voms, client):
    client.force_login(assistant_voms)
    labels = tab_labels(client.get(reverse("tournament:voms:enter", args=[drawn.slug])).content.decode(), "vo-nav")
    # printouts (slips with the links' QR codes) are a director's, as in every game (docs/directors-guide.md, roles)
    assert labels == ["Overview", "Schedule", "Enter slips", "Round board", "Standings"]


# --- d. the knockout's choices follow the number of pools ---------------------------------------------------


def teams_in_pools(voms, director, pools, teams=8):
    for i in range(teams):
        register_team(voms, by=director, name=f"T{i}", players=[f"P{i} A"])
    voms_pools.draw_pools(voms, by=director, pools=pools, seed=3)
    for m in Match.objects.filter(stage__tournament=voms, stage__kind="pools", team_b__isnull=False):
        voms_slips.record_slip(m, by=director, entry={"lus_a": 9, "lus_b": 3})
    return voms


def test_with_four_pools_no_semifinal_a1_b2_is_offered(voms, director, client):
    teams_in_pools(voms, director, pools=4)
    client.force_login(director)
    address = reverse("tournament:voms:knockout", args=[voms.slug])
    text = client.get(address).content.decode()
    assert "A1–B2" not in text and "seeded so that teams of one pool meet as late as possible" in text
    assert "Round robin of 4 teams" in text  # 4 pools × 1 make the 4 teams of a round robin
    refused = client.post(address, {"qualifiers_per_pool": 2, "semifinal": "round_robin"})
    assert refused.status_code == 200 and "with 4 pools, 2 per pool make 8" in refused.content.decode()
    assert not Stage.objects.filter(tournament=voms, kind=Stage.Kind.KNOCKOUT).exists()
    assert "A1–B2" not in client.get(reverse("tournament:voms:settings", args=[voms.slug])).content.decode()


def test_with_two_pools_the_semifinals_are_a1_b2_and_b1_a2(voms, director, client):
    teams_in_pools(voms, director, pools=2)
    client.force_login(director)
    text = client.get(reverse("tournament:voms:knockout", args=[voms.slug])).content.decode()
    assert "Knockout (A1–B2, B1–A2)" in text and "Round robin of 4 teams" in text


def test_with_three_pools_there_is_no_round_robin_of_four(voms, director, client):
    teams_in_pools(voms, director, pools=3, teams=9)
    client.force_login(director)
    text = client.get(reverse("tournament:voms:knockout", args=[voms.slug])).content.decode()
    assert "Round robin of 4 teams" not in text and "A1–B2" not in text


# --- e. quarterfinal losers are ranked as such ----------------------------------------------------------------


def play_the_knockout(voms, director):
    stage = Stage.objects.get(tournament=voms, kind=Stage.Kind.KNOCKOUT)
    while True:
        open_matches = [m for m in stage.matches.filter(team_a__isnull=False, team_b__isnull=False)
                        if not hasattr(m, "sheet")]
        if not open_matches:
            return
        for match in open_matches:
            voms_knockout.record_series(match, by=director, games=[{"lus_a": 9, "lus_b": 3}, {"lus_a": 9, "lus_b": 5}])


def test_quarterfinal_losers_are_ranked_as_quarterfinal_losers(voms, director, client):
    teams_in_pools(voms, director, pools=2)
    client.force_login(director)
    assert client.post(reverse("tournament:voms:knockout", args=[voms.slug]),
                       {"qualifiers_per_pool": 4, "semifinal": "bracket"}).status_code == 302
    play_the_knockout(voms, director)
    rows = build(voms, "ranking").row_dicts()
    assert [(row["place"], row["decided_in"]) for row in rows] == [
        (1, "Final"), (2, "Final"), (3, "Semifinal"), (3, "Semifinal"),
        (5, "Quarterfinal"), (5, "Quarterfinal"), (5, "Quarterfinal"), (5, "Quarterfinal")]
    quarterfinals = Match.objects.filter(stage__tournament=voms, key__startswith="QF")
    losers = {m.team_b.name for m in quarterfinals}  # team A won every series
    assert {row["team"] for row in rows[4:]} == losers
