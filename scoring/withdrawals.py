"""Players who leave a seated game mid-evening (Schafkopf, the table games), as the rankings say it.

A withdrawn player keeps what he played: his finished games (in Schafkopf also the points of a seat a
substitute played for him, unless the director credited the substitute) rank him as before, and every
ranking (page, PDF, Excel, public page) marks him "withdrawn" and names who played his seat in which round.
A substitute is named with the seats he played. The Schafkopf digest is silent on how to show a substitute
whose seats' points all stay with the players he replaced: he is listed without a rank, with that note,
never silently absent.

The texts are lazy: the screen shows them in the screen's language, the printouts in the tournament's.
"""

from __future__ import annotations

from django.utils.functional import lazy
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from tournament.models import Participant

WITHDRAWN = _("withdrawn")


def is_withdrawn(participant) -> bool:
    return participant.status == Participant.Status.WITHDRAWN


def _played(message: str, round_number: int, player) -> str:
    return gettext(message) % {"round": round_number, "number": player.number, "name": player.name}


_lazy_played = lazy(_played, str)


def played_by(round_number: int, substitute):
    """On the row of the seat's player: who played his seat in that round."""
    return _lazy_played(gettext_noop("round %(round)s played by %(number)s %(name)s"), round_number, substitute)


def played_for(round_number: int, player):
    """On the row of the substitute: whose seat he played in that round."""
    return _lazy_played(gettext_noop("played round %(round)s for %(number)s %(name)s"), round_number, player)


def seat_remarks(row, *, mark_withdrawn: bool = True) -> list:
    """A ranking row's remarks about seats: "withdrawn" (unless `mark_withdrawn` is off: the row says something
    stronger, as "excluded"), then who played his seat in which round, then whose seats he played."""
    parts = [WITHDRAWN] if mark_withdrawn and row.withdrawn else []
    parts += [played_by(number, substitute) for number, substitute in row.played_by]
    parts += [played_for(number, player) for number, player in row.played_for]
    return parts


def _joined(*parts) -> str:
    return ", ".join(str(part) for part in parts)


_lazy_joined = lazy(_joined, str)


def remark(parts: list):
    """The remarks of one ranking row as one text ("withdrawn, round 2 played by 14 Sedlmair")."""
    if not parts:
        return ""
    return parts[0] if len(parts) == 1 else _lazy_joined(*parts)


def played_tables(tables_by_round, entered: set[int]) -> set[tuple[int, int]]:
    """(round, table number) of the tables whose sheet is in: where a player who left has played.

    "Find my seat" shows a withdrawn player those rounds only, not the seats he will no longer take."""
    return {(number, table.number) for number, tables in tables_by_round.items() for table in tables
            if table.table_id in entered}


def withdrawn_seated(players, tables_by_round, entered: set[int]) -> list[tuple]:
    """Withdrawn players still on a seat to play, each with the rounds of those seats: a seat nobody else
    plays (no substitute on it), at a table whose sheet is not in. The seating page names them, and only
    the rounds still to play, until the draw is redone (before play) or a substitute takes each seat."""
    to_play: dict[int, list[int]] = {}
    for tables in tables_by_round.values():
        for table in tables:
            if table.table_id in entered:
                continue
            for seat in table.seats:
                if not seat.substitute_id:
                    to_play.setdefault(seat.participant_id, []).append(table.round)
    return [(p, sorted(to_play[p.pk])) for p in players if is_withdrawn(p) and p.pk in to_play]
