"""Players who leave a seated game mid-evening (Schafkopf, the table games), as the rankings say it.

A withdrawn player keeps what he played: his finished games (in Schafkopf also the points of a seat a
substitute played for him, unless the director credited the substitute) rank him as before, and every
ranking (page, PDF, Excel, public page) marks him "withdrawn" and names who played his seat in which round.
A substitute is named with the seats he played. The Schafkopf tournament rules are silent on how to show a substitute
whose seats' points all stay with the players he replaced: he is listed without a rank, with that note,
never silently absent.

Prizes (docs/rules/seated.md, "Prizes", every seated game): a player who did not play every round (his
seat played by a substitute, or left empty) is ranked and marked, and wins a prize only when the director ticked
him eligible (`set_prize_eligible`); his prize goes to the next eligible player
(`scoring.rules.prizes.award_prizes`). The game's standings say which rounds each row missed (`rounds_played`,
`missed_rounds`); the rest is here, game-neutral.

The texts are lazy: the screen shows them in the screen's language, the printouts in the tournament's.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.db import transaction
from django.utils.functional import lazy
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from tournament.models import Participant
from tournament.permissions import is_director
from tournament.services.audit import log_action
from tournament.services.errors import DomainError
from tournament.services.text import limited_reason

WITHDRAWN = _("withdrawn")
#: a ranked player who did not play every round (his seat played by a substitute, or empty)
MISSED_ROUNDS = _("did not play every round")
#: ... on the prize list: skipped, the prize goes to the next eligible player
NOT_ELIGIBLE = _("not eligible: did not play every round")
#: ... ticked eligible by the director
TICKED_ELIGIBLE = _("did not play every round, eligible by the director's decision")


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


def replaced_by(tables_by_round) -> dict[tuple[int, int], Participant]:
    """{(round, seat's player id): the substitute who plays that seat}: what a printout names instead of him."""
    return {(table.round, seat.participant_id): seat.substitute for tables in tables_by_round.values()
            for table in tables for seat in table.seats if seat.substitute_id}


def withdrawn_seated(players, tables_by_round, entered: set[int]) -> list[tuple]:
    """Withdrawn players still on a seat to play, each with the rounds of those seats: a seat nobody else
    plays (no substitute on it), at a table whose sheet is not in. The seating page names them, and only
    the rounds still to play, until the draw is redone (before play) or a substitute takes each seat."""
    return [(player, [number for number, _seat in seats])
            for player, seats in withdrawn_seats(players, tables_by_round, entered)]


def withdrawn_seats(players, tables_by_round, entered: set[int]) -> list[tuple]:
    """`withdrawn_seated` with the seats themselves: (player, [(round, seat), ...]), so that a page can link
    each round to the seat that needs a substitute."""
    to_play: dict[int, list[tuple]] = {}
    for tables in tables_by_round.values():
        for table in tables:
            if table.table_id in entered:
                continue
            for seat in table.seats:
                if not seat.substitute_id:
                    to_play.setdefault(seat.participant_id, []).append((table.round, seat))
    return [(p, sorted(to_play[p.pk], key=lambda item: item[0])) for p in players
            if is_withdrawn(p) and p.pk in to_play]


# --- prizes for players who did not play every round ----------------------------------------------------


def rounds_played(seats: Iterable[tuple[int, int, int | None]]) -> dict[int, set[int]]:
    """{participant id: the rounds he sat at a table himself} from (round, seat's player, substitute) triples:
    on his own seat when nobody played it for him, or on another's seat as a substitute."""
    played: dict[int, set[int]] = {}
    for round_number, participant, substitute in seats:
        played.setdefault(substitute or participant, set()).add(round_number)
    return played


def missed_rounds(played: set[int], rounds: Iterable[int]) -> list[int]:
    """The rounds of `rounds` (those the ranking covers) in which a player did not sit at a table."""
    return [number for number in rounds if number not in played]


def prize_eligible(participant, missed: Sequence[int]) -> bool:
    """Whether a ranked player may win a prize: he played every round, or the director ticked him eligible."""
    return not missed or participant.prize_eligible


def eligibility_remark(participant, missed: Sequence[int], *, prizes: bool):
    """What a ranking row says of a player who did not play every round: on a ranking with prize money, whether
    he is eligible ("not eligible: did not play every round"); elsewhere only that he missed rounds."""
    if not missed:
        return None
    if not prizes:
        return MISSED_ROUNDS
    return TICKED_ELIGIBLE if participant.prize_eligible else NOT_ELIGIBLE


def set_prize_eligible(participant: Participant, eligible: bool, *, by, reason: str = "") -> Participant:
    """The director's tick: `participant` may win a prize although he did not play every round (or not)."""
    reason = limited_reason(reason)
    tournament = participant.tournament
    if not is_director(by, tournament):
        raise DomainError(_("Only a director of this tournament can do this."))
    with transaction.atomic():
        locked = Participant.objects.select_for_update().get(pk=participant.pk)
        if locked.prize_eligible != bool(eligible):
            before = {"prize_eligible": locked.prize_eligible}
            locked.prize_eligible = bool(eligible)
            locked.save(update_fields=["prize_eligible"])
            log_action("participant.prize_eligible", by=by, tournament=tournament, obj=locked, before=before,
                       after={"prize_eligible": locked.prize_eligible}, reason=reason)
    return locked
