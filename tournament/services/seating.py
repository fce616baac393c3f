"""The seating draw as a service: tables and seats of every round, drawn at once and stored.

Any seated game uses it: it draws with the pure `tournament.draw.seating` and stores what comes back
as one `Stage(kind="rounds")` with its `Round`s, `Table`s and `Seat`s, plus a `Draw` with the seed (so
the draw can be reproduced and printed) and, once per tournament, the seed of the lot that decides
ties in the standings. The draw can be redone until play has started: the first score sheet of the
tournament (or a director starting round 1) fixes it.

Single-player events (domino patiences) have no tables: `seat_field` puts the whole field on one
sheet per round, stored the same way (one table per round holding every player).
"""

from __future__ import annotations

import secrets
from collections import Counter
from collections.abc import Mapping, Sequence

from django.db import transaction
from django.utils.translation import gettext as _

from scoring.results.checks import rule_message
from scoring.rules.base import RuleError
from tournament.draw.seating import draw_seating as draw_plan
from tournament.draw.seating import fewest_repeated_pairs, table_sizes

from ..models import Draw, Participant, Round, Seat, Stage, Table, Tournament
from ..permissions import require_director
from ..queries import exists_any, play_started_querysets
from .audit import log_action
from .errors import DomainError
from .tournaments import sync_status

SEED_LIMIT = 10**9


def new_seed() -> int:
    """A seed short enough to print and type back in."""
    return secrets.randbelow(SEED_LIMIT - 1) + 1


# --- reading -------------------------------------------------------------------------------------------


def rounds_stage(tournament) -> Stage | None:
    return Stage.objects.filter(tournament=tournament, kind=Stage.Kind.ROUNDS).first()


def current_draw(tournament) -> Draw | None:
    return Draw.objects.filter(tournament=tournament, kind=Draw.Kind.SEATING).order_by("-created", "-id").first()


def lot_seed(tournament) -> int | None:
    return (
        Draw.objects.filter(tournament=tournament, kind=Draw.Kind.LOT)
        .order_by("-created", "-id")
        .values_list("seed", flat=True)
        .first()
    )


def play_started(tournament, *, any_round: bool = False) -> bool:
    """True once round 1 was started or any score sheet of the rounds was entered: the seating is final.

    With `any_round` a start of any round counts, not only round 1's (Schafkopf: a director may start
    a later round by hand, and that fixes the seating too).
    """
    return exists_any(tournament, *play_started_querysets(tournament, any_round=any_round))


def fitting_sizes(count: int, sizes: Sequence[int], allowed: Sequence[int] = ()) -> tuple[int, ...]:
    """The table sizes to draw `count` players with: `sizes` (preferred first) when they seat the count,
    else `sizes` followed by the other `allowed` sizes (nearest the preferred first), so that a count the
    preferred sizes cannot seat still gets tables. Raises `DomainError` with a translated message when
    nothing fits, naming the nearest counts that do."""
    preferred = tuple(sizes)
    others = sorted((s for s in allowed if s not in preferred), key=lambda s: (abs(s - preferred[0]), -s))
    refused = None
    for candidate in (preferred, preferred + tuple(others)) if others else (preferred,):
        try:
            table_sizes(count, candidate)
            return candidate
        except RuleError as error:
            refused = error
    raise DomainError(rule_message(refused), field=refused.field)


def large_table_twice_params(plan) -> dict[str, int]:
    """For the draw's record: {participant number: rounds} of who sits at a larger table (a 5-table among
    4-tables) in more than one round."""
    return {str(number): times for number, times in sorted(plan.large_table_repeats().items())}


def season_avoid(tournament: Tournament, avoid: Mapping[frozenset, int] | None) -> Mapping[frozenset, int] | None:
    """The pairs the draw keeps apart: those given, else, for an evening of a season, who already sat at one
    table at its earlier evenings (`tournament.services.seasons.met_before`); None outside a season."""
    if avoid is not None or not tournament.season_id:
        return avoid
    from .seasons import met_before

    return met_before(tournament)


def met_before_params(plan, avoid: Mapping[frozenset, int] | None, numbers) -> dict[str, int]:
    """For the draw's record, when earlier meetings were given: how many pairs of the players drawn had met
    before (`met_before`) and how many of them share a table again in this draw (`met_before_again`)."""
    if avoid is None:
        return {}
    present = set(numbers)
    return {
        "met_before": sum(1 for pair, times in avoid.items() if times and set(pair) <= present),
        "met_before_again": plan.met_again(avoid),
    }


def large_table_twice(tournament, draw: Draw | None) -> list[tuple[Participant, int]]:
    """The draw summary's "at a table of 5 in more than one round": (participant, rounds), by number."""
    if draw is None or not draw.params.get("large_table_twice"):
        return []
    times = {int(number): n for number, n in draw.params["large_table_twice"].items()}
    players = tournament.participants.filter(number__in=list(times)).order_by("number")
    return [(player, times[player.number]) for player in players]


def meeting_again(tables_by_round: Mapping[int, Sequence]) -> dict | None:
    """The draw summary's "who meets a table-mate again", read from the seated tables (`queries.seated_tables`):
    ``pairs`` [(participant, participant, rounds together)] by number, ``count`` the repeated pairs (a pair
    meeting in 3 rounds counts 2, as the draw counts them), ``fewest`` the fewest any draw at these tables over
    these rounds has (`fewest_repeated_pairs`), ``unavoidable`` whether the draw has no more than that. None when
    nobody meets anyone twice. Seats, not substitutes: the draw placed the players."""
    meetings: Counter = Counter()
    by_id: dict[int, Participant] = {}
    for tables in tables_by_round.values():
        for table in tables:
            players = [seat.participant for seat in table.seats]
            by_id.update((p.pk, p) for p in players)
            meetings.update(tuple(sorted((a.pk, b.pk))) for i, a in enumerate(players) for b in players[i + 1:])
    again = []
    for (a, b), times in meetings.items():
        if times > 1:
            first, second = sorted((by_id[a], by_id[b]), key=lambda p: p.number)
            again.append((first, second, times))
    again.sort(key=lambda row: (row[0].number, row[1].number))
    if not again:
        return None
    first_round = next(iter(tables_by_round.values()))
    fewest = fewest_repeated_pairs([len(table.seats) for table in first_round], len(tables_by_round))
    count = sum(times - 1 for _a, _b, times in again)
    return {"pairs": again, "count": count, "fewest": fewest, "unavoidable": count <= fewest}


def larger_table_size(draw: Draw | None) -> int:
    """The size of the larger tables of a draw with tables of two sizes (5 among 4s), else 0."""
    sizes = set(draw.params.get("table_sizes") or []) if draw else set()
    return max(sizes) if len(sizes) > 1 else 0


# --- drawing -------------------------------------------------------------------------------------------


def _refuse_after_start(tournament) -> None:
    if play_started(tournament):
        raise DomainError(
            _("Play has started (a score sheet of round 1 is entered): the seating can no longer be drawn again.")
        )


def draw_seating(
    tournament: Tournament,
    *,
    by,
    rounds: int,
    sizes: Sequence[int],
    seed: int | None = None,
    groups: Mapping[int, str] | None = None,
    fixed: Mapping[int, int] | None = None,
    avoid: Mapping[frozenset, int] | None = None,
    params: Mapping[str, object] | None = None,
) -> Draw:
    """Draw tables and seats of every round for the active players, replacing any earlier draw.

    `sizes` are the table sizes, preferred first (see `tournament.draw.seating.table_sizes`); `groups`
    maps a participant number to a group kept apart (a family), `fixed` a participant number to the
    table the player keeps. `avoid` maps a pair of participant numbers, ``frozenset({a, b})``, to how often
    they already met at a table this season (`tournament.services.seasons.met_before`): the draw seats them
    together again as little as it can; pairs naming someone not playing are ignored. The draw's params
    record how many such pairs meet again (`met_before_again`). A seed given by the director reproduces an
    earlier draw of the same players (and the same `avoid`). `params`: what the game records with the draw
    besides (Schafkopf: whether clubs sit apart, the fixed tables). Refused once play has started.
    """
    require_director(by, tournament)
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        _refuse_after_start(locked)
        players = list(locked.participants.filter(status=Participant.Status.ACTIVE))
        numbers = sorted(p.number for p in players)
        seed = seed if seed is not None else new_seed()
        avoid = season_avoid(locked, avoid)
        try:
            plan = draw_plan(numbers, rounds, seed=seed, sizes=tuple(sizes), groups=dict(groups or {}),
                             fixed=dict(fixed or {}), avoid=dict(avoid or {}))
        except RuleError as error:
            raise DomainError(rule_message(error), field=error.field) from error
        recorded = {
            "rounds": rounds,
            "players": len(players),
            "sizes": list(sizes),
            "table_sizes": plan.table_sizes,
            "repeated_pairs": plan.repeated_pairs(),
            "seat_repeats": plan.seat_repeats(),
            "group_conflicts": plan.group_conflicts(dict(groups or {})),
            "large_table_twice": large_table_twice_params(plan),
            **met_before_params(plan, avoid, numbers),
            **(params or {}),
        }
        return store_draw(locked, plan.rounds, players, by=by, seed=seed, params=recorded)


def seat_field(tournament: Tournament, *, by, rounds: int) -> Draw:
    """Single-player events: every active player on the one sheet of each round, in participant order.

    Nothing is random here; the draw is stored all the same (seed 0) so that the tournament records when
    the field was fixed, and the lot seed for the standings is drawn.
    """
    require_director(by, tournament)
    if rounds < 1:
        raise DomainError(_("The number of rounds must be at least 1."), field="rounds")
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        _refuse_after_start(locked)
        players = list(locked.participants.filter(status=Participant.Status.ACTIVE).order_by("number"))
        if not players:
            raise DomainError(_("There are no players to seat. Register players first."), field="players")
        field = tuple(p.number for p in players)
        params = {"rounds": rounds, "players": len(players), "field": True}
        return store_draw(locked, [[field] for _round in range(rounds)], players, by=by, seed=0, params=params)


def store_draw(tournament, plan_rounds, players, *, by, seed: int, params: dict) -> Draw:
    """Replace the stage's rounds by the plan's, record the draw and the lot seed, write the audit log.

    `plan_rounds` holds, per round, the participant numbers of each table in seat order; the audit
    entry is `seating.draw` for a first draw, `seating.redraw` after that (every seated game's).
    """
    previous = current_draw(tournament)
    stage, created = Stage.objects.get_or_create(tournament=tournament, kind=Stage.Kind.ROUNDS)
    if not created:  # a new stage has no rounds to replace
        stage.rounds.all().delete()
    _store_rounds(stage, plan_rounds, {p.number: p for p in players})
    draw = Draw.objects.create(tournament=tournament, kind=Draw.Kind.SEATING, seed=seed, params=params,
                               created_by=by)
    if lot_seed(tournament) is None:
        Draw.objects.create(tournament=tournament, kind=Draw.Kind.LOT, seed=new_seed(), created_by=by)
    log_action("seating.redraw" if previous else "seating.draw", by=by, tournament=tournament, obj=draw,
               before={"seed": previous.seed} if previous else None, after={"seed": seed, **params})
    sync_status(tournament, by=by)
    return draw


def _store_rounds(stage: Stage, plan_rounds, by_number: dict[int, Participant]) -> None:
    """Rounds, tables and seats in three bulk inserts, whatever the number of players."""
    rounds = Round.objects.bulk_create([Round(stage=stage, number=r) for r in range(1, len(plan_rounds) + 1)])
    tables = Table.objects.bulk_create([
        Table(round=round_, number=t)
        for round_, round_tables in zip(rounds, plan_rounds, strict=True)
        for t in range(1, len(round_tables) + 1)
    ])
    players_of = [players for round_tables in plan_rounds for players in round_tables]
    # ids rather than objects: 4,000 seats of a large tournament, and each related-object assignment costs
    Seat.objects.bulk_create([
        Seat(table_id=table.pk, number=s, participant_id=by_number[number].pk)
        for table, players in zip(tables, players_of, strict=True)
        for s, number in enumerate(players, start=1)
    ])


def remove_seating(tournament, *, by, reason: str = "") -> bool:
    """Remove a seating drawn before play started (the settings it was drawn for changed); True if removed."""
    require_director(by, tournament)
    with transaction.atomic():
        _refuse_after_start(tournament)
        stage = rounds_stage(tournament)
        if stage is None or not stage.rounds.exists():
            return False
        stage.rounds.all().delete()
        log_action("seating.remove", by=by, tournament=tournament, obj=tournament, reason=reason)
    return True
