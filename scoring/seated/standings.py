"""The seated games' standings: one loader of what a ranking reads, and the row and standings every game extends.

A constant number of queries whatever the number of players: the seats, the sheets' derived values, the
participants and the lot seed, each read once (`load`). Each game credits the values to players and ranks
them by its own pure rules (`scoring.games.schafkopf.standings`, `scoring.games.tablegames.standings`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from scoring.models import ScoreSheet
from scoring.progress import ResultProgress
from scoring.withdrawals import is_withdrawn
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

    @property
    def has_result(self) -> bool:
        return self.rank is not None

    @property
    def withdrawn(self) -> bool:
        return is_withdrawn(self.participant)


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
