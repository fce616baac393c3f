"""Table-game standings: the finished sheets' `derived` values, credited to players, ranked by the pure rules.

Table games rank by `scoring.rules.tablegames.ranking` (tournament points, then the sum of game scores,
then lot); patiences by docs/rules/patience.md (fewest tiles left over all deals, then the earliest
finish times when the director records them, then lot). A game counts once its table has finished it;
games still running are counted in `unfinished` and make the standings provisional.

A constant number of queries whatever the number of players: the seats, the sheets' derived values,
the participants and the lot seed, each read once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from scoring.progress import ResultProgress
from scoring.rules.domino import FINISH_TIME, TILES_LEFT, patience_chain
from scoring.rules.standings import Metric, rank
from scoring.rules.tablegames import ranking, ranking_chain
from scoring.seated import standings as seated
from scoring.withdrawals import prize_eligible

from .config import TableSettings, settings_of
from .sheets import LEFT, table_points_of


@dataclass
class Row(seated.Row):
    #: the table games play for no prize money (the prize rule still decides who is ranked eligible)
    prize: None = None

    @property
    def prize_eligible(self) -> bool:
        """He played every round, or the director ticked him eligible (`scoring.withdrawals`)."""
        return prize_eligible(self.participant, self.missed)


@dataclass
class Standings(seated.Standings):
    settings: TableSettings
    after_round: int
    rows: list[Row]
    chain: tuple[Metric, ...]
    finished: int
    total: int
    lot_seed: int | None
    unfinished: list[tuple[int, int]] = field(default_factory=list)
    corrected: list[tuple[int, int]] = field(default_factory=list)

    @property
    def rounds(self) -> int:
        return self.settings.rounds

    @property
    def progress(self) -> ResultProgress:
        """Sheets finished against sheets expected (`scoring.progress`): what labels the ranking provisional."""
        return ResultProgress(entered=self.finished, expected=self.total,
                              unit="deals" if self.settings.patience else "sheets")


def standings(tournament, *, after_round: int | None = None) -> Standings:
    """The ranking over rounds 1..after_round (default: all rounds)."""
    settings = settings_of(tournament)
    after_round = settings.rounds if after_round is None else after_round
    loaded = seated.load(tournament, after_round)
    sheets, participants, seed = loaded.sheets, loaded.participants, loaded.seed

    tables: dict[int, tuple[int, int]] = {}
    players: dict[int, dict[int, Any]] = {}  # participant -> {round: shown value}
    results: dict[int, dict[int, int]] = {}  # table -> {participant: game total}, finished games only
    times: dict[int, int] = {}
    corrected_players: set[int] = set()
    corrected_tables: set[tuple[int, int]] = set()
    departures: dict[int, dict[int, int]] = {}  # table -> {participant: his last hand}, who left its game
    missed: dict[int, set[int]] = {}  # participant -> rounds he did not play to the end (left, or empty seat)
    for seat in loaded.seats:
        table_id, round_number, participant = seat.table_id, seat.round, seat.participant
        tables[table_id] = (round_number, seat.table)
        players.setdefault(participant, {})
        # who the seat's result belongs to: a substitute's only when the director said so (`SeatRow.credited`)
        credited = seat.credited
        shown = players.setdefault(credited, {})
        derived, corrected = sheets.get(table_id, ({}, False))
        key = str(seat.seat)
        if not derived.get("finished"):
            continue
        if key not in derived["totals"]:  # an empty seat (a withdrawn player nobody played for): no result
            missed.setdefault(participant, set()).add(round_number)
            continue
        if key in derived.get(LEFT, {}):
            departures.setdefault(table_id, {})[credited] = derived[LEFT][key]
            missed.setdefault(credited, set()).add(round_number)
        results.setdefault(table_id, {})[credited] = derived["totals"][key]
        if settings.patience:
            shown[round_number] = derived["totals"][key]
            if key in derived.get("times", {}):
                times[credited] = times.get(credited, 0) + derived["times"][key]
        else:
            shown[round_number] = table_points_of(derived)[key]
        if corrected:
            corrected_players.add(credited)
            corrected_tables.add((round_number, seat.table))

    # A player with no finished game has no result yet: listed after the ranked ones, never ranked by lot.
    order = sorted((pk for pk in players if players[pk]), key=lambda pk: participants[pk].number)
    waiting = sorted((pk for pk in players if not players[pk]), key=lambda pk: participants[pk].number)
    finished_tables = [table_id for table_id in tables if table_id in results]
    if settings.patience:
        ranked, chain = _patience_ranking(order, results.values(), times, settings, seed,
                                          {pk: participants[pk].number for pk in order})
    else:
        chain = ranking_chain(settings.lower_is_better)
        ranked = ranking(order, list(results.values()), lower_is_better=settings.lower_is_better, seed=seed or 0,
                         left=[departures.get(table_id, {}) for table_id in results],
                         lot_keys={pk: participants[pk].number for pk in order})
    rows = [
        Row(rank=s.rank, participant=participants[s.participant],
            rounds=[players[s.participant].get(r) for r in range(1, after_round + 1)], values=s.values,
            by_lot=s.by_lot, separated_by=s.separated_by, corrected=s.participant in corrected_players,
            missed=sorted(missed.get(s.participant, ())))
        for s in ranked
    ]

    def unranked(participant) -> Row:
        return Row(rank=None, participant=participant, rounds=[None] * after_round, values={}, by_lot=False,
                   separated_by=None, corrected=False)

    rows += [unranked(participants[pk]) for pk in waiting]
    seated.mark_substitutes(rows, loaded, after_round, unranked)
    return Standings(
        settings=settings, after_round=after_round, rows=rows, chain=chain, finished=len(finished_tables),
        total=len(tables), lot_seed=seed,
        unfinished=sorted(tables[table_id] for table_id in tables if table_id not in results),
        corrected=sorted(corrected_tables),
    )


def _patience_ranking(order, results, times, settings: TableSettings, seed, lot_keys):
    """Fewest tiles left over every deal, then (when recorded) the smallest sum of finish times, then lot."""
    tiles = {pk: 0 for pk in order}
    for result in results:
        for participant, left in result.items():
            tiles[participant] += left
    values: dict[int, dict[str, Any]] = {pk: {TILES_LEFT: tiles[pk]} for pk in order}
    if settings.finish_time:
        for pk in order:
            values[pk][FINISH_TIME] = times.get(pk, 0)
    chain = patience_chain(with_time=settings.finish_time)
    return rank(order, chain, values, seed=seed or 0, lot_keys=lot_keys), chain


def half(value: Decimal | None):
    """Tournament points as shown: whole numbers without decimals, halves with one."""
    if value is None:
        return None
    return value.quantize(Decimal(1)) if value == value.to_integral_value() else value
