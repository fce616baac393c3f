"""Double entry for every kind of game behind one small adapter, so each rule is tested once per game."""

import dataclasses
import random

import pytest

from scoring.games.schafkopf import services as schafkopf
from scoring.games.schafkopf.demo import random_list
from scoring.games.schafkopf.standings import standings as schafkopf_standings
from scoring.games.tablegames import services as tablegames
from scoring.games.tablegames.config import defaults_for
from scoring.games.tablegames.family import game_by_key
from scoring.games.tablegames.standings import standings as tablegames_standings
from scoring.games.voms.services import pools as voms_pools
from scoring.games.voms.services import slips as voms_slips
from scoring.games.voms.standings import pool_tables
from scoring.seated import services as seated_services
from tests.browser.conftest import browser, page  # noqa: F401  (real-browser fixtures)
from tournament.models import Match, Role, Table, TournamentRole
from tournament.services.participants import add_participant, register_team


def rummi_hand(out, *penalties):
    return {"out": out, "hand_rummi": False,
            "penalties": {str(seat): typed for seat, typed in enumerate(penalties, start=1)}}


@dataclasses.dataclass
class VomsGame:
    tournament: object
    service = voms_slips
    #: where the backup after a round is asked for
    after_round = voms_slips

    @property
    def place(self):
        return Match.objects.filter(stage__tournament=self.tournament, round__number=1,
                                    team_b__isnull=False).order_by("table_number").first()

    def entries(self, variant=0):
        return {"lus_a": 9, "lus_b": 3 + variant}

    def enter(self, by, variant=0, **kwargs):
        return voms_slips.record_slip(self.place, by=by, entry=self.entries(variant), **kwargs)

    def confirm(self, by, **kwargs):
        return voms_slips.confirm_slip(self.place, by=by, **kwargs)

    def fields(self):
        from scoring.games.voms.forms import slip_fields

        return slip_fields

    def counts(self) -> bool:
        return bool(pool_tables(self.tournament)[0].results)

    def correction(self, by, **kwargs):
        return voms_slips.record_slip(self.place, by=by, entry={"lus_a": 9, "lus_b": 7}, **kwargs)

    def complete_round(self, by):
        for match in Match.objects.filter(stage__tournament=self.tournament, round__number=1, team_b__isnull=False,
                                          sheet__isnull=True):
            voms_slips.record_slip(match, by=by, entry={"lus_a": 9, "lus_b": 1})


@dataclasses.dataclass
class SchafkopfGame:
    tournament: object
    service = schafkopf
    after_round = seated_services

    @property
    def place(self):
        return Table.objects.get(round__stage__tournament=self.tournament, round__number=1, number=1)

    def entries(self, variant=0):
        games = random_list(random.Random(5), 30, 4)
        if variant:
            games[6] = {**games[6], "won": not games[6]["won"]}
        return games

    def enter(self, by, variant=0, **kwargs):
        return schafkopf.enter_sheet(self.place, by=by, mode="games", entries=self.entries(variant), **kwargs)

    def confirm(self, by, **kwargs):
        return schafkopf.confirm_sheet(self.place, by=by, **kwargs)

    def fields(self):
        from scoring.games.schafkopf.entry import list_fields

        return list_fields

    def counts(self) -> bool:
        return any(row.rounds[0] is not None for row in schafkopf_standings(self.tournament).rows)

    def correction(self, by, **kwargs):
        games = self.entries()
        games[0] = {**games[0], "won": not games[0]["won"]}
        return schafkopf.enter_sheet(self.place, by=by, mode="games", entries=games, **kwargs)

    def complete_round(self, by):
        for table in Table.objects.filter(round__stage__tournament=self.tournament, round__number=1,
                                          sheet__isnull=True):
            schafkopf.enter_sheet(table, by=by, mode="games", entries=self.entries())


@dataclasses.dataclass
class RummiGame:
    tournament: object
    service = tablegames
    after_round = seated_services

    @property
    def place(self):
        return Table.objects.get(round__stage__tournament=self.tournament, round__number=1, number=1)

    def entries(self, variant=0):
        return [rummi_hand(1, "0", "100", "90", "80"), rummi_hand(2, "100", "0", "90", "80"),
                rummi_hand(4, "60", "10", str(90 + variant), "0")]

    def enter(self, by, variant=0, **kwargs):
        return tablegames.enter_sheet(self.place, by=by, entries=self.entries(variant), **kwargs)

    def confirm(self, by, **kwargs):
        return tablegames.confirm_sheet(self.place, by=by, **kwargs)

    def fields(self):
        from scoring.games.tablegames.config import settings_of
        from scoring.games.tablegames.entry import sheet_fields

        return sheet_fields(settings_of(self.tournament), tablegames.seat_names(self.place))

    def counts(self) -> bool:
        return tablegames_standings(self.tournament).finished > 0

    def correction(self, by, **kwargs):
        hands = self.entries()
        hands[0] = rummi_hand(1, "0", "100", "90", "85")
        return tablegames.enter_sheet(self.place, by=by, entries=hands, **kwargs)

    def complete_round(self, by):
        for table in Table.objects.filter(round__stage__tournament=self.tournament, round__number=1,
                                          sheet__isnull=True):
            tablegames.enter_sheet(table, by=by, entries=self.entries())


def _voms(director, make_tournament):
    tournament = make_tournament(director, name="Voms double", game="voms")
    for i in range(4):
        register_team(tournament, by=director, name=f"Team {i + 1}", players=[f"P{i} One", f"P{i} Two"])
    voms_pools.draw_pools(tournament, by=director, pools=1, seed=11)
    return VomsGame(tournament)


def _schafkopf(director, make_tournament):
    tournament = make_tournament(director, name="Schafkopf double", game="schafkopf")
    for number in range(1, 9):
        add_participant(tournament, by=director, number=number, first_name=f"Anna{number}",
                        last_name=f"Huber{number}")
    seated_services.draw_seating(tournament, by=director, seed=7)
    return SchafkopfGame(tournament)


def _rummi(director, make_tournament):
    tournament = make_tournament(director, name="Rummi double", game="rummi")
    game = game_by_key("rummi")
    chosen = defaults_for(game, game.default_variant)
    seated_services.update_settings(tournament, dataclasses.replace(chosen, rounds=2), by=director)
    for number in range(1, 9):
        add_participant(tournament, by=director, number=number, first_name=f"Ida{number}", last_name=f"Holm{number}")
    seated_services.draw_seating(tournament, by=director, seed=7)
    return RummiGame(tournament)


GAMES = {"voms": _voms, "schafkopf": _schafkopf, "rummi": _rummi}


@pytest.fixture(params=list(GAMES))
def game(request, director, make_tournament):
    """Each kind of game once: a Voms slip, a Schafkopf list, a table game (rummi) sheet."""
    return GAMES[request.param](director, make_tournament)


@pytest.fixture
def make_game(director, make_tournament):
    return lambda kind: GAMES[kind](director, make_tournament)


def _helper(django_user_model, tournament, username):
    user = django_user_model.objects.create_user(username=username, password=f"pw-{username}-1")
    TournamentRole.objects.create(tournament=tournament, user=user, role=Role.ASSISTANT)
    return user


@pytest.fixture
def first(django_user_model, game):
    return _helper(django_user_model, game.tournament, "first")


@pytest.fixture
def second(django_user_model, game):
    return _helper(django_user_model, game.tournament, "second")


@pytest.fixture
def double(game):
    """The game with double entry switched on."""
    game.tournament.double_entry = True
    game.tournament.save(update_fields=["double_entry"])
    return game
