"""The seated games' standings: one loader of what a ranking reads, and the row and standings every game extends.

A constant number of queries whatever the number of players: the seats, the sheets' derived values, the
participants and the lot seed, each read once (`load`). Each game credits the values to players and ranks
them by its own pure rules (`scoring.games.schafkopf.standings`, `scoring.games.tablegames.standings`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from scoring.models import ScoreSheet
from scoring.progress import ResultProgress
from scoring.withdrawals import is_withdrawn, missed_rounds, rounds_played
from tournament.models import Participant, Seat, Stage
from tournament.services.seating import lot_seed

#: Participant fields the standings never show: not loaded (2,000 players on the page after every change)
UNRANKED_FIELDS = ("created", "group", "status_reason")


class SeatRow(NamedTuple):
    table_id: int
    round: int
    table: int
    seat: int
    participant: int
    substitute: int | None
    points_to_substitute: bool

    @property
    def credited(self) -> int:
        """Who the seat's points belong to: the substitute only when the director said so."""
        return self.substitute if self.substitute and self.points_to_substitute else self.participant


@dataclass
class Loaded:
    """What a ranking over rounds 1..after_round reads."""

    seats: list[SeatRow]
    #: table id -> (the sheet's derived values, whether it was corrected after entry)
    sheets: dict[int, tuple[dict, bool]]
    participants: dict[int, Participant]
    seed: int | None


def load(tournament, after_round: int) -> Loaded:
    rounds = {"table__round__stage__kind": Stage.Kind.ROUNDS, "table__round__number__lte": after_round}
    seats = [
        SeatRow(*values)
        for values in Seat.objects.filter(table__round__stage__tournament=tournament, **rounds).values_list(
            "table_id", "table__round__number", "table__number", "number", "participant_id", "substitute_id",
            "points_to_substitute")
    ]
    sheets = {
        table_id: (derived, corrected)
        for table_id, derived, corrected in ScoreSheet.objects.filter(tournament=tournament, **rounds).values_list(
            "table_id", "derived", "corrected")
    }
    # Only what a ranking row shows (the creation time alone cost 10 ms of converting 2,000 timestamps)
    participants = {p.pk: p for p in Participant.objects.filter(tournament=tournament).defer(*UNRANKED_FIELDS)}
    return Loaded(seats=seats, sheets=sheets, participants=participants, seed=lot_seed(tournament))


@dataclass
class Row:
    #: None for a player with no result yet: shown as such, not ranked (nor tied by lot)
    rank: int | None
    participant: Participant
    #: per round 1..n the value the game shows; None while the round's result is not in
    rounds: list[Any]
    values: dict
    by_lot: bool
    separated_by: str | None
    #: one of the sheets this player's result comes from was corrected after entry
    corrected: bool
    #: (round, substitute) where a substitute played this player's seat (his points or not)
    played_by: list[tuple[int, Participant]] = field(default_factory=list)
    #: (round, player) where this player played another's seat as a substitute
    played_for: list[tuple[int, Participant]] = field(default_factory=list)
    #: a substitute none of whose seats' points are his: listed after everyone else, without a rank
    substitute_only: bool = False
    #: the rounds of the ranking he did not play (his seat played by a substitute; in a table game also left
    #: mid-game or empty): he wins a prize only when the director ticks him eligible (`scoring.withdrawals`)
    missed: list[int] = field(default_factory=list)

    @property
    def has_result(self) -> bool:
        return self.rank is not None

    @property
    def withdrawn(self) -> bool:
        return is_withdrawn(self.participant)


def mark_substitutes(rows: list[Row], loaded: Loaded, after_round: int, unranked: Callable[[Participant], Row]
                     ) -> list[Row]:
    """`rows` with who played whose seat said on both rows (the seat's player's and the substitute's), the rounds
    each ranked player did not sit at a table himself (`missed`), and a row without a rank (`unranked`, marked
    `substitute_only`) for each substitute none of whose seats' points are his: never silently absent."""
    participants = loaded.participants
    played_by: dict[int, list] = defaultdict(list)
    played_for: dict[int, list] = defaultdict(list)
    for seat in loaded.seats:
        if seat.substitute:
            played_by[seat.participant].append((seat.round, participants[seat.substitute]))
            played_for[seat.substitute].append((seat.round, participants[seat.participant]))
    listed = {row.participant.pk for row in rows}
    for pk in sorted((pk for pk in played_for if pk not in listed), key=lambda pk: participants[pk].number):
        row = unranked(participants[pk])
        row.substitute_only = True
        rows.append(row)
    played = rounds_played((seat.round, seat.participant, seat.substitute) for seat in loaded.seats)
    for row in rows:
        pk = row.participant.pk
        if row.has_result:
            row.missed = sorted({*row.missed, *missed_rounds(played.get(pk, set()), range(1, after_round + 1))})
        row.played_by = sorted(played_by.get(pk, []), key=lambda item: item[0])
        row.played_for = sorted(played_for.get(pk, []), key=lambda item: item[0])
    return rows


class Standings:
    """What every seated game's standings answer. A game's dataclass supplies `after_round`, `rounds`, `rows`,
    `lot_seed` and `chain` (the ranking's metrics, `scoring.rules.standings.Metric`), and its `progress`."""

    @property
    def progress(self) -> ResultProgress:
        raise NotImplementedError

    @property
    def last_round(self) -> bool:
        """The standings over every round (not after an earlier one)."""
        return self.after_round == self.rounds

    @property
    def complete(self) -> bool:
        return self.progress.complete

    @property
    def final(self) -> bool:
        """The final ranking: every round, every result in. Only then "Final ranking" (and the prizes)."""
        return self.last_round and self.complete

    @property
    def any_lot(self) -> bool:
        return any(row.by_lot for row in self.rows)
