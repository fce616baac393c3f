"""Registering players: one by one, from an imported list, withdrawing before the draw."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from ..imports import ImportFileError, read_table, refuse_after_play
from ..models import Participant
from ..permissions import is_director
from .audit import log_action
from .errors import DomainError
from .text import limited_reason

MAX_NUMBER = 99999


@dataclass
class ImportReport:
    created: list[Participant] = field(default_factory=list)
    rejected: list[tuple[int, str]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.rejected


def _require_director(by, tournament) -> None:
    if not is_director(by, tournament):
        raise DomainError(_("Only a director of this tournament can change its participants."))


def next_number(tournament) -> int:
    return (tournament.participants.aggregate(m=Max("number"))["m"] or 0) + 1


def _parse_number(text: str) -> int | None:
    if not text:
        return None
    if not text.isdigit() or not 1 <= int(text) <= MAX_NUMBER:
        raise ValueError(text)
    return int(text)


def add_participant(tournament, *, by, last_name, first_name="", club="", group="", number=None) -> Participant:
    _require_director(by, tournament)
    last_name = last_name.strip()
    if not last_name:
        raise DomainError(_("A participant needs a last name."), field="last_name")
    with transaction.atomic():
        if number is None:
            number = next_number(tournament)
        elif tournament.participants.filter(number=number).exists():
            raise DomainError(_("Participant number %(number)s is taken.") % {"number": number}, field="number")
        participant = Participant.objects.create(
            tournament=tournament, number=number, first_name=first_name.strip(), last_name=last_name,
            club=club.strip(), group=group.strip(),
        )
        log_action("participant.add", by=by, tournament=tournament, obj=participant,
                   after={"number": number, "name": participant.name, "club": participant.club})
    return participant


def set_participant_status(participant, status: str, *, by, reason: str = "") -> Participant:
    tournament = participant.tournament
    _require_director(by, tournament)
    reason = limited_reason(reason)
    if status == Participant.Status.EXCLUDED and not reason.strip():
        raise DomainError(_("Say why the player is excluded."), field="reason")
    with transaction.atomic():
        before = {"status": participant.status, "reason": participant.status_reason}
        participant.status, participant.status_reason = status, reason.strip()
        participant.save(update_fields=["status", "status_reason"])
        log_action(f"participant.{status}", by=by, tournament=tournament, obj=participant, before=before,
                   after={"status": status, "reason": participant.status_reason}, reason=reason)
    return participant


def import_participants(tournament, filename: str, data: bytes, *, by) -> ImportReport:
    """Import players from a list; if any row is rejected, nothing is imported and the report says why."""
    _require_director(by, tournament)
    report = ImportReport()
    try:
        refuse_after_play(tournament)
        parsed = read_table(filename, data, required=("last_name",))
    except ImportFileError as error:
        report.rejected.append((0, str(error)))
        return report
    report.rejected.extend(parsed.rejected)
    taken = set(tournament.participants.values_list("number", flat=True))
    candidates = []
    for row_number, row in parsed.rows:
        if not row.get("last_name"):
            report.rejected.append((row_number, _("The last name is missing.")))
            continue
        try:
            number = _parse_number(row.get("number", ""))
        except ValueError:
            report.rejected.append(
                (row_number, _("“%(value)s” is not a participant number (1 to %(max)s).")
                 % {"value": row["number"], "max": MAX_NUMBER})
            )
            continue
        if number is not None and number in taken:
            report.rejected.append((row_number, _("Participant number %(number)s is taken.") % {"number": number}))
            continue
        if number is not None:
            taken.add(number)
        candidates.append((number, row))
    if report.rejected:
        return report
    with transaction.atomic():
        auto = max(taken | {0}) + 1
        for number, row in candidates:
            if number is None:
                number, auto = auto, auto + 1
            report.created.append(
                Participant.objects.create(
                    tournament=tournament, number=number, first_name=row.get("first_name", ""),
                    last_name=row["last_name"], club=row.get("club", ""), group=row.get("group", ""),
                )
            )
        log_action("participant.import", by=by, tournament=tournament, obj=tournament,
                   after={"file": filename, "created": len(report.created)})
    return report
