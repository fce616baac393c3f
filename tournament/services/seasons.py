"""Seasons: a named series of tournaments of one game, ranked together (tournament/models/season.py).

The counting is `scoring.rules.season` (pure); this module reads each evening through its game's
`season_evening` hook, maps participants to register entries, and keeps the season's settings, evenings and
publication, each change audited. `met_before` tells the seating draw who already sat together this season.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from itertools import combinations

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from scoring.games import game_of, get_game, is_game
from scoring.rules.season import (
    Contribution,
    EveningRanking,
    EveningResult,
    PersonStats,
    SeasonRules,
    season_ranking,
    season_stats,
)

from ..models import FederationMember, FederationSeason, Participant, Person, Season, Seat, Tournament
from ..permissions import is_director
from ..tenancy import directs_in, organisation_of, organisations_of
from .audit import log_action
from .errors import DomainError
from .register import link_to_register

MAX_PLACES = 100


# --- who may ------------------------------------------------------------------------------------------------


def is_season_director(user, season: Season) -> bool:
    if not user.is_authenticated:
        return False
    return user.is_superuser or season.directors.filter(pk=user.pk).exists()


def visible_seasons(user):
    """The seasons of the user's clubs that they direct (every season for a superuser)."""
    if user.is_superuser:
        return Season.objects.all()
    return Season.objects.of(organisations_of(user)).filter(directors=user)


def season_of(user, slug: str, club=None) -> Season | None:
    """The season at this address if the user directs it, else None (others' seasons are not revealed); with
    `club` (the address's club, tournament/clubaddress.py) that club's season of the short name."""
    seasons = visible_seasons(user) if club is None else visible_seasons(user).of(club)
    return seasons.filter(slug=slug).first()


def _require_season_director(by, season: Season) -> None:
    if not is_season_director(by, season):
        raise DomainError(_("Only a director of this season can change it."))


def has_seasons(game_key: str) -> bool:
    return is_game(game_key) and get_game(game_key).offers("season_evening")


# --- settings -----------------------------------------------------------------------------------------------


def parse_place_points(text: str) -> list[str]:
    """"25 20 16 13" (or with commas, semicolons) -> ["25", "20", "16", "13"]: points for 1st, 2nd, ... place."""
    parts = [part for part in text.replace(";", " ").replace(",", " ").split() if part]
    if len(parts) > MAX_PLACES:
        raise DomainError(_("At most %(count)s places get points.") % {"count": MAX_PLACES}, field="place_points")
    values = []
    for part in parts:
        try:
            value = Decimal(part)
        except InvalidOperation:
            value = None
        if value is None or not value.is_finite() or value < 0 or value >= 10000 or value != value.quantize(
                Decimal("0.1")):
            raise DomainError(_("“%(value)s” is not a number of points (0 to 9999, halves allowed).")
                              % {"value": part[:20]}, field="place_points")
        values.append(str(int(value)) if value == value.to_integral_value() else str(value.normalize()))
    return values


def _check(values: dict) -> None:
    if values.get("scoring") == Season.Scoring.PLACES and not values.get("place_points"):
        raise DomainError(_("Give the points for the places (1st place first), or rank by the game's own points."),
                          field="place_points")


def season_snapshot(season: Season) -> dict:
    return {"name": season.name, "scoring": season.scoring, "place_points": season.place_points,
            "best_of": season.best_of, "min_evenings": season.min_evenings, "language": season.language}


def new_season_values(*, name: str, game: str, scoring: str = Season.Scoring.PLACES, place_points=(),
                      best_of: int | None = None, min_evenings: int = 1, language: str = "de") -> dict:
    """The checked fields of a new season (a club's or a federation's), its short name included."""
    name = " ".join(name.split())
    if not name:
        raise DomainError(_("A season needs a name."), field="name")
    if not has_seasons(game):
        raise DomainError(_("This game has no season ranking."), field="game")
    values = {"scoring": scoring, "place_points": list(place_points), "best_of": best_of,
              "min_evenings": min_evenings}
    _check(values)
    return {"name": name, "game": game, "language": language, **values}


def create_season(*, by, **settings) -> Season:
    """A new season of the club `by` directs in (`settings`: as `new_season_values` takes them)."""
    club = organisation_of(by)
    if club is None or not directs_in(by, club):
        raise DomainError(_("You are not allowed to create seasons."))
    values = new_season_values(**settings)
    game = values["game"]
    with transaction.atomic():
        season = Season.objects.create(organisation=club, slug=Season.unique_slug(values["name"], club), created_by=by,
                                       **values)
        season.directors.add(by)
        log_action("season.add", by=by, obj=season, after={**season_snapshot(season), "game": game})
    return season


def update_season(season: Season, *, by, **changes) -> Season:
    _require_season_director(by, season)
    allowed = ("name", "scoring", "place_points", "best_of", "min_evenings", "language")
    changes = {k: v for k, v in changes.items() if k in allowed}
    if "name" in changes:
        changes["name"] = " ".join(changes["name"].split())
        if not changes["name"]:
            raise DomainError(_("A season needs a name."), field="name")
    with transaction.atomic():
        season = Season.objects.select_for_update().get(pk=season.pk)
        before = season_snapshot(season)
        for key, value in changes.items():
            setattr(season, key, value)
        _check({"scoring": season.scoring, "place_points": season.place_points})
        after = season_snapshot(season)
        if before != after:
            season.save()
            log_action("season.update", by=by, obj=season, before=before, after=after)
    return season


def set_season_published(season: Season, publish: bool, *, by) -> Season:
    _require_season_director(by, season)
    with transaction.atomic():
        season = Season.objects.select_for_update().get(pk=season.pk)
        if season.publish != publish:
            season.publish = publish
            season.save(update_fields=["publish"])
            log_action("season.publish", by=by, obj=season, before={"publish": not publish},
                       after={"publish": publish})
    return season


def add_director(season: Season, user, *, by) -> None:
    _require_season_director(by, season)
    if not directs_in(user, season.organisation):
        raise DomainError(_("%(user)s may not direct tournaments.") % {"user": user}, field="user")
    with transaction.atomic():
        season.directors.add(user)
        log_action("season.director", by=by, obj=season, after={"director": str(user)})


def candidate_evenings(season: Season, user) -> list[Tournament]:
    """The tournaments this user may add to the season: of its club and game, directed by them, in no season yet."""
    tournaments = (Tournament.objects.of(season.organisation_id).filter(game=season.game, season__isnull=True)
                   .order_by("-date", "-pk"))
    return [t for t in tournaments if is_director(user, t)]


def add_evening(season: Season, tournament: Tournament, *, by) -> Tournament:
    """Make the tournament an evening of the season; its players are linked to the register if they were not."""
    _require_season_director(by, season)
    if not is_director(by, tournament):
        raise DomainError(_("Only a director of the tournament can add it to a season."), field="tournament")
    if tournament.organisation_id != season.organisation_id:
        raise DomainError(_("Only a tournament of the season's club can be one of its evenings."), field="tournament")
    if tournament.game != season.game:
        raise DomainError(_("The season is one of %(game)s: this tournament is another game.")
                          % {"game": game_of(season).name}, field="tournament")
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if tournament.season_id not in (None, season.pk):
            raise DomainError(_("This tournament belongs to another season already."), field="tournament")
        if tournament.season_id == season.pk:
            return tournament
        tournament.season = season
        tournament.save(update_fields=["season", "updated"])
        linked = link_to_register(tournament)
        log_action("season.add_evening", by=by, tournament=tournament, obj=season,
                   after={"tournament": tournament.name, "linked_to_register": linked})
    return tournament


def remove_evening(season: Season, tournament: Tournament, *, by) -> None:
    _require_season_director(by, season)
    with transaction.atomic():
        if tournament.season_id != season.pk:
            raise DomainError(_("This tournament is not an evening of the season."), field="tournament")
        tournament.season = None
        tournament.save(update_fields=["season", "updated"])
        log_action("season.remove_evening", by=by, tournament=tournament, obj=season,
                   before={"tournament": tournament.name})


# --- the ranking ------------------------------------------------------------------------------------------------


def rules_of(season: Season, *, higher_is_better: bool = True) -> SeasonRules:
    places = None
    if season.scoring == Season.Scoring.PLACES:
        places = tuple(Decimal(v) for v in season.place_points)
    return SeasonRules(place_points=places, best_of=season.best_of, min_evenings=max(season.min_evenings, 1),
                       higher_is_better=higher_is_better)


def evenings_of(season: Season) -> list[Tournament]:
    return list(season.tournaments.order_by("date", "pk"))


def evening_ranking(tournament: Tournament) -> EveningRanking:
    game = game_of(tournament)
    if not game.offers("season_evening"):
        return EveningRanking(final=False, rows=())
    return game.season_evening(tournament)


@dataclass
class Evening:
    number: int
    tournament: Tournament
    final: bool


@dataclass
class Cell:
    """One person's result on one evening, as the season shows it."""

    place: int
    points: Decimal
    worth: Decimal | None = None
    counted: bool = False
    #: the evening is not final yet: shown, not counted
    provisional: bool = False


@dataclass
class SeasonRow:
    person: Person
    rank: int | None
    total: Decimal
    evenings: int
    cells: dict[int, Cell] = field(default_factory=dict)
    stats: PersonStats | None = None
    separated_by: str | None = None


@dataclass
class SeasonTable:
    season: Season
    evenings: list[Evening]
    rows: list[SeasonRow]
    rules: SeasonRules

    @property
    def provisional(self) -> bool:
        return any(not e.final for e in self.evenings)


def season_table(season: Season | FederationSeason) -> SeasonTable:
    """The season ranking with every evening's contribution: counted, discarded, or provisional (not final yet).

    A club's season ranks its register's entries; a federation's season ranks its members (`ranked_entries`)."""
    evenings = [Evening(i, t, False) for i, t in enumerate(evenings_of(season), start=1)]
    results: dict[object, list[EveningResult]] = defaultdict(list)
    provisional: dict[object, dict[int, Cell]] = defaultdict(dict)
    higher_is_better = True
    keys = ranked_entries(season)
    for evening in evenings:
        ranking = evening_ranking(evening.tournament)
        evening.final = ranking.final
        higher_is_better = ranking.higher_is_better
        key_of = keys.of_evening(evening.tournament)
        for row in ranking.rows:
            key = key_of.get(row.participant)
            if key is None:
                continue
            if ranking.final:
                results[key].append(EveningResult(evening.number, row.place, row.points, row.ties))
            else:
                provisional[key][evening.number] = Cell(row.place, row.points, provisional=True)
    rules = rules_of(season, higher_is_better=higher_is_better)
    standings = season_ranking(results, rules)
    people = keys.shown(set(results) | set(provisional))
    rows = []
    for standing in standings:
        points = {r.evening: r.points for r in results[standing.person]}
        cells = {c.evening: _cell(c, points[c.evening]) for c in standing.contributions}
        cells.update(provisional.get(standing.person, {}))
        rows.append(SeasonRow(people[standing.person], standing.rank, standing.total, standing.evenings, cells,
                              season_stats(results[standing.person], higher_is_better=higher_is_better),
                              standing.separated_by))
    for person, cells in provisional.items():
        if person not in results:
            rows.append(SeasonRow(people[person], None, Decimal(0), 0, dict(cells)))
    return SeasonTable(season, evenings, rows, rules)


class RegisterEntries:
    """Who a club's season ranks: the club's register entries (a participant without one counts nowhere)."""

    def of_evening(self, tournament: Tournament) -> dict[int, object]:
        return dict(Participant.objects.filter(tournament=tournament, person__isnull=False)
                    .values_list("pk", "person_id"))

    def shown(self, keys: set) -> dict[object, Person]:
        return Person.objects.in_bulk(keys)


@dataclass(frozen=True)
class RankedMember:
    """One line of a federation season: a member (their number, name and home club), or a club's register entry
    without a member number, which counts alone (`number` None, marked where shown)."""

    pk: object
    number: int | None
    first_name: str
    last_name: str
    club: str

    @property
    def name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()


class MemberEntries:
    """Who a federation season ranks: each player once by member number across the clubs (two clubs' entries of one
    member are one line); a participant with a register entry but no member number counts alone."""

    def of_evening(self, tournament: Tournament) -> dict[int, object]:
        rows = Participant.objects.filter(tournament=tournament, person__isnull=False).values_list(
            "pk", "person_id", "person__member_id", "person__member__merged_into_id")
        return {pk: ("member", merged or member) if member else ("entry", person)
                for pk, person, member, merged in rows}

    def shown(self, keys: set) -> dict[object, RankedMember]:
        members = FederationMember.objects.select_related("home_club").in_bulk(
            [pk for kind, pk in keys if kind == "member"])
        entries = Person.objects.in_bulk([pk for kind, pk in keys if kind == "entry"])
        shown = {}
        for key in keys:
            kind, pk = key
            if kind == "member":
                m = members[pk]
                shown[key] = RankedMember(key, m.number, m.first_name, m.last_name,
                                          m.home_club.name if m.home_club else "")
            else:
                p = entries[pk]
                shown[key] = RankedMember(key, None, p.first_name, p.last_name, p.club)
        return shown


def ranked_entries(season) -> RegisterEntries | MemberEntries:
    return MemberEntries() if isinstance(season, FederationSeason) else RegisterEntries()


def _cell(contribution: Contribution, points: Decimal) -> Cell:
    return Cell(contribution.place, points, contribution.worth, contribution.counted)


# --- the seating's season memory -----------------------------------------------------------------------------------


def earlier_evenings(tournament: Tournament):
    if tournament.season_id is None:
        return Tournament.objects.none()
    return (Tournament.objects.filter(season_id=tournament.season_id)
            .filter(Q(date__lt=tournament.date) | Q(date=tournament.date, pk__lt=tournament.pk)))


def met_before(tournament: Tournament) -> dict[frozenset[int], int]:
    """How often each pair of the tournament's active participants (by participant NUMBER) sat at one table in the
    season's earlier tournaments, known through their register entries; pairs who never met are left out.

    Every round counts: two people at one table in two rounds of an evening met twice. Who actually sat is the
    seat's substitute where there was one."""
    players = dict(tournament.participants.filter(status=Participant.Status.ACTIVE, person__isnull=False)
                   .values_list("person_id", "number"))
    if len(players) < 2:
        return {}
    seats = (Seat.objects.filter(table__round__stage__tournament__in=earlier_evenings(tournament))
             .values_list("table_id", "participant__person_id", "substitute_id", "substitute__person_id"))
    tables: dict[int, set[int]] = defaultdict(set)
    for table_id, person, substitute, substitute_person in seats:
        sat = substitute_person if substitute else person
        if sat in players:
            tables[table_id].add(sat)
    met: Counter[frozenset[int]] = Counter()
    for persons in tables.values():
        for a, b in combinations(sorted(persons), 2):
            met[frozenset((players[a], players[b]))] += 1
    return dict(met)
