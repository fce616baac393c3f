"""The knockout at the referee table: rebuild with confirmation, rounds on the clock, corrections, the winner."""

import pytest

from scoring.games.voms.services import knockout as voms_knockout
from scoring.games.voms.services import pools as voms_pools
from scoring.games.voms.services import slips as voms_slips
from tournament.models import AuditEntry, Match, Round, Stage
from tournament.services.errors import DomainError
from tournament.services.participants import register_team

pytestmark = pytest.mark.django_db


@pytest.fixture
def pools_played(voms, director):
    for i in range(8):
        register_team(voms, by=director, name=f"T{i}", players=[f"P{i} A"])
    voms_pools.draw_pools(voms, by=director, pools=2, seed=3)
    for m in Match.objects.filter(stage__tournament=voms, stage__kind="pools", team_b__isnull=False):
        voms_slips.record_slip(m, by=director, entry={"lus_a": 9, "lus_b": 3})
    return voms


def build(client, t, **extra):
    return client.post(f"/manage/{t.slug}/voms/knockout/",
                       {"qualifiers_per_pool": 2, "semifinal": "bracket", "third_place": "on", **extra})


def series(match, director, *games):
    return voms_knockout.record_series(match, by=director, games=[{"lus_a": a, "lus_b": b} for a, b in games])


def test_knockout_page_rebuild_clock_correction_and_winner(client, pools_played, director):
    t = pools_played
    client.force_login(director)
    assert build(client, t).status_code == 302
    stage = Stage.objects.get(tournament=t, kind=Stage.Kind.KNOCKOUT)
    # the knockout rounds are rounds of the round clock, an hour each
    assert list(Round.objects.filter(stage=stage).values_list("number", "slot_minutes")) == [(1, 60), (2, 60)]
    assert not Match.objects.filter(stage=stage, round__isnull=True).exists()
    page = client.get(f"/manage/{t.slug}/voms/knockout/").content.decode()
    assert "A1" in page and "B2" in page  # where each team came from
    assert "The knockout was built with:" in page and "id_confirm_rebuild" in page
    # rebuilding asks first
    response = build(client, t)
    assert response.status_code == 200 and "Yes, rebuild it" in response.content.decode()
    assert Stage.objects.get(tournament=t, kind=Stage.Kind.KNOCKOUT).pk == stage.pk
    assert build(client, t, confirm_rebuild="on").status_code == 302
    stage = Stage.objects.get(tournament=t, kind=Stage.Kind.KNOCKOUT)
    m = {x.key: x for x in stage.matches.all()}
    series(m["SF1"], director, (9, 2), (9, 4))
    series(m["SF2"], director, (9, 2), (3, 9), (9, 1))
    # a director corrects game 1 of SF2 (reason, audited); a winner change with results further on is refused
    voms_knockout.correct_series_game(m["SF2"], by=director, number=1, game={"lus_a": 9, "lus_b": 5}, reason="typo")
    sheet = Match.objects.get(pk=m["SF2"].pk).sheet
    assert sheet.entries[0] == {"lus_a": 9, "lus_b": 5} and sheet.corrected
    assert AuditEntry.objects.filter(action="sheet.correction", reason="typo").exists()
    final = Match.objects.get(stage=stage, key="F")
    series(final, director, (9, 2), (9, 4))
    with pytest.raises(DomainError):
        voms_knockout.correct_series_game(m["SF1"], by=director, number=1, game={"lus_a": 2, "lus_b": 9},
                                     reason="x")
    with pytest.raises(DomainError):
        voms_knockout.correct_series_game(m["SF1"], by=director, number=1, game={"lus_a": 5, "lus_b": 99},
                                     reason="x")
    page = client.get(f"/manage/{t.slug}/voms/knockout/").content.decode()
    assert 'id="knockout-winner"' in page and final.team_a.name in page
    assert f"/manage/{t.slug}/voms/print/ranking.pdf" in page


def test_series_correction_page(client, pools_played, director):
    t = pools_played
    client.force_login(director)
    build(client, t)
    m = Match.objects.get(stage__tournament=t, key="SF1")
    series(m, director, (9, 2))
    url = f"/manage/{t.slug}/voms/knockout/{m.pk}/"
    response = client.post(url, {"action": "correct", "fix-number": 1, "fix-lus_a": 14, "fix-lus_b": 2,
                                 "fix-reason": "typo", "fix-version": 1})
    assert "14 lus — are you sure?" in response.content.decode()
    response = client.post(url, {"action": "correct", "fix-number": 1, "fix-lus_a": 14, "fix-lus_b": 2,
                                 "fix-confirm_high_lus": "on", "fix-reason": "typo", "fix-version": 1})
    assert response.status_code == 302
    assert Match.objects.get(pk=m.pk).sheet.entries == [{"lus_a": 14, "lus_b": 2, "confirm_high_lus": True}]


def test_a_decided_series_names_its_winner_and_the_games_won(client, pools_played, director):
    """The third game of a semifinal is saved: the page says who won the series and how, not just that it is
    decided (the referee table announces the final's pairing from it)."""
    t = pools_played
    client.force_login(director)
    build(client, t)
    m = Match.objects.select_related("team_b").get(stage__tournament=t, key="SF1")
    series(m, director, (9, 5), (4, 9), (2, 9))
    page = client.get(f"/manage/{t.slug}/voms/knockout/{m.pk}/").content.decode()
    assert f"The series is decided: {m.team_b.name} wins 2–1." in page
    client.cookies.load({"django_language": "da"})
    page = client.get(f"/manage/{t.slug}/voms/knockout/{m.pk}/").content.decode()
    assert f"Serien er afgjort: {m.team_b.name} vinder 2–1." in page and "Ret et spil" in page


def test_build_anyway_is_offered_only_while_a_pool_game_has_no_result(client, pools_played, director):
    """Every pool game in: the knockout form does not offer "build anyway (not every pool game has a result)",
    which made a director look for the missing game; with one game missing it is there, and needed."""
    t = pools_played
    client.force_login(director)
    assert "build anyway" not in client.get(f"/manage/{t.slug}/voms/knockout/").content.decode()
    Match.objects.filter(stage__tournament=t, stage__kind="pools", team_b__isnull=False).first().sheet.delete()
    page = client.get(f"/manage/{t.slug}/voms/knockout/").content.decode()
    assert "build anyway (not every pool game has a result)" in page
    assert "Not every pool game has a result yet" in build(client, t).content.decode()
    assert build(client, t, force="1").status_code == 302
