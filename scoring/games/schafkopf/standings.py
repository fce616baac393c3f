"""Schafkopf standings: the stored lists' `derived` values, credited to players, ranked by the pure rules.

A constant number of queries whatever the number of players: the seats, the sheets' derived values,
the participants and the lot seed, each read once. The ranking itself is `scoring.rules.schafkopf.ranking`.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal

from scoring.progress import ResultProgress
from scoring.rules.prizes import award_prizes
from scoring.rules.schafkopf import (
    COUNT_FIELDS,
    EXCLUDED_KEY,
    RANKING_CHAIN,
    Counts,
    PrizeList,
    prize_list,
    ranking,
)
from scoring.seated import standings as seated
from scoring.withdrawals import prize_eligible as eligible_for_prize
from tournament.models import Participant

from .config import settings_of


@dataclass
class Row(seated.Row):
    prize: Decimal | None = None

    @property
    def prize_eligible(self) -> bool:
        """He played every round, or the director ticked him eligible (scoring.withdrawals)."""
        return eligible_for_prize(self.participant, self.missed)

    @property
    def excluded(self) -> bool:
        return bool(self.values.get(EXCLUDED_KEY))


@dataclass
class Standings(seated.Standings):
    after_round: int
    rounds: int
    rows: list[Row]
    lists_entered: int
    lists_total: int
    lot_seed: int | None
    prizes: PrizeList | None = None
    #: ranked players a prize passed over: they did not play every round and were not ticked eligible
    not_eligible: list[Row] = field(default_factory=list)
    corrected_lists: list[tuple[int, int]] = field(default_factory=list)
    chain = RANKING_CHAIN

    @property
    def progress(self) -> ResultProgress:
        """Lists entered against lists expected (`scoring.progress`): what labels the ranking provisional."""
        return ResultProgress(entered=self.lists_entered, expected=self.lists_total, unit="lists")


#: the values of a player with no result yet: every column empty
NO_RESULT_VALUES = {"points": None, "round_spread": None, **{name: None for name in COUNT_FIELDS}}


def standings(tournament, *, after_round: int | None = None) -> Standings:
    """The ranking over rounds 1..after_round (default: all rounds), with the prize money when final."""
    settings = settings_of(tournament)
    rounds = settings.rounds
    after_round = rounds if after_round is None else after_round
    loaded = seated.load(tournament, after_round)
    seats, sheets, participants, seed = loaded.seats, loaded.sheets, loaded.participants, loaded.seed

    points: dict[int, dict[int, int]] = {}
    # summed as plain lists, in COUNT_FIELDS order: 4,000 seats must not each build a dataclass
    summed: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    corrected_players: set[int] = set()
    corrected_lists: set[tuple[int, int]] = set()
    withdrawn = {pk for pk, p in participants.items() if p.status == Participant.Status.WITHDRAWN}
    fields = list(enumerate(COUNT_FIELDS))
    for seat in seats:
        # Everyone seated is ranked, with or without a list yet; a player who withdrew and left his seat
        # to a substitute with the points is not.
        if seat.participant not in withdrawn:
            points.setdefault(seat.participant, {})
        credited, round_number = seat.credited, seat.round
        player_points = points.setdefault(credited, {})
        sheet = sheets.get(seat.table_id)
        if sheet is None:
            continue
        derived, corrected = sheet
        key = str(seat.seat)
        player_points[round_number] = player_points.get(round_number, 0) + derived["totals"][key]
        seat_counts, player_counts = derived["counts"][key], summed[credited]
        for index, name in fields:
            player_counts[index] += seat_counts[name]
        if corrected:
            corrected_players.add(credited)
            corrected_lists.add((round_number, seat.table))

    counts = {pk: Counts(*values) for pk, values in summed.items()}
    # A player none of whose lists is entered has no result yet: shown as such after the ranked players,
    # never ranked (nor tied by lot) on zero points.
    players = sorted((pk for pk in points if points[pk]), key=lambda pk: participants[pk].number)
    waiting = sorted((pk for pk in points if not points[pk]), key=lambda pk: participants[pk].number)
    excluded = frozenset(pk for pk in players if participants[pk].status == Participant.Status.EXCLUDED)
    ranked = ranking(
        players,
        {pk: [points[pk][r] for r in sorted(points[pk])] for pk in players},
        counts,
        seed=seed if seed is not None else 0,
        excluded=excluded,
        lot_keys={pk: participants[pk].number for pk in players},
    )
    rows = [
        Row(
            rank=s.rank,
            participant=participants[s.participant],
            rounds=[points[s.participant].get(r) for r in range(1, after_round + 1)],
            values=s.values,
            by_lot=s.by_lot,
            separated_by=s.separated_by,
            corrected=s.participant in corrected_players,
        )
        for s in ranked
    ]

    def unranked(participant) -> Row:
        return Row(rank=None, participant=participant, rounds=[None] * after_round, values=dict(NO_RESULT_VALUES),
                   by_lot=False, separated_by=None, corrected=False)

    rows += [unranked(participants[pk]) for pk in waiting]
    seated.mark_substitutes(rows, loaded, after_round, unranked)
    result = Standings(
        after_round=after_round,
        rounds=rounds,
        rows=rows,
        lists_entered=len(sheets),
        lists_total=len({seat.table_id for seat in seats}),
        lot_seed=seed,
        corrected_lists=sorted(corrected_lists),
    )
    if result.final:
        _add_prizes(result, settings, participants.values())
    return result


def _add_prizes(result: Standings, settings, participants) -> None:
    """Prize money by final rank; excluded players win nothing, nor do players who did not play every round
    unless the director ticked them eligible: the next eligible player moves up."""
    if not settings.prizes:
        return
    paying = sum(1 for p in participants if p.status != Participant.Status.WITHDRAWN)
    # once the desk records payments, the takings are what was paid; before that, the fee per player
    paid = [p.paid_amount or Decimal("0") for p in participants if p.paid]
    takings = sum(paid, Decimal("0")) if paid else None
    result.prizes = prize_list(settings.entry_fee, paying, settings.prizes, takings=takings)
    result.not_eligible = award_prizes(result.rows, list(result.prizes))
