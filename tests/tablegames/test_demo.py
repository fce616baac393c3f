"""`manage.py demo <table game>`: complete, plausible tournaments through the same services a director uses."""

import pytest
from django.core.management import CommandError, call_command

from scoring.games.tablegames.config import settings_of
from scoring.games.tablegames.standings import standings
from scoring.models import ScoreSheet
from tournament.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("arguments", "players", "variant"), [
    (["domino", "--players", "16"], 16, "almindelig"),
    (["domino", "--players", "13", "--variant", "femmer"], 13, "femmer"),
    (["domino", "--players", "9", "--variant", "to_ens"], 9, "to_ens"),
    (["domino", "--players", "10", "--variant", "blinde"], 10, "blinde"),
    (["rummi", "--players", "12"], 12, "rummi"),
    (["quadominos", "--players", "11", "--variant", "beginner"], 11, "beginner"),
    (["domino_patience", "--players", "20", "--variant", "bingo"], 20, "bingo"),
])
def test_demo_with_results_is_a_complete_tournament(director, arguments, players, variant):
    call_command("demo", *arguments, "--results", "--seed", "4", "--director", director.username)
    tournament = Tournament.objects.get(game=arguments[0])
    settings = settings_of(tournament)
    assert settings.variant == variant and tournament.participants.count() == players
    sheets = ScoreSheet.objects.filter(tournament=tournament)
    assert sheets.exists() and all(sheet.derived["finished"] for sheet in sheets)
    result = standings(tournament)
    assert result.complete and result.final and len(result.rows) == players


def test_demo_without_results_is_drawn_and_waits_for_sheets(director):
    call_command("demo", "quadominos", "--players", "8", "--director", director.username)
    tournament = Tournament.objects.get(game="quadominos")
    assert tournament.stages.get().rounds.count() == 3
    assert not ScoreSheet.objects.filter(tournament=tournament).exists()


@pytest.mark.parametrize(("arguments", "smallest"), [
    (["domino", "--players", "1"], 2),
    (["domino", "--players", "0", "--variant", "femmer"], 2),
    (["rummi", "--players", "1", "--results"], 2),
    (["quadominos", "--players", "-3"], 2),
    (["domino_patience", "--players", "0"], 1),
])
def test_demo_with_an_impossible_player_count_says_what_to_do_and_creates_nothing(director, arguments, smallest):
    with pytest.raises(CommandError, match=rf"at least {smallest} players.*--players {smallest} or more"):
        call_command("demo", *arguments, "--director", director.username)
    assert not Tournament.objects.exists()


def test_demo_refused_half_way_leaves_nothing_behind(director, monkeypatch):
    """Whatever a service refuses after the tournament was made: one transaction, a clean message."""
    from scoring.seated import services
    from tournament.services.errors import DomainError

    def refuse(*args, **kwargs):
        raise DomainError("The seating cannot be drawn.")

    monkeypatch.setattr(services, "draw_seating", refuse)
    with pytest.raises(CommandError, match="The seating cannot be drawn."):
        call_command("demo", "rummi", "--players", "8", "--director", director.username)
    assert not Tournament.objects.exists()
