"""Writing the audit log. Every service that changes state calls `log_action`.

So this is also the one place that keeps an archived tournament read-only: a change that cannot be logged is not
made. `log_action` refuses an entry for an archived tournament with `TournamentArchived` (a `DomainError`, which
the views show), and the service's transaction rolls back whatever it had written before: corrections, entries
from the referee table or a table's phone, problems signalled, registrations, draws and settings alike. Only
what `ALLOWED_WHEN_ARCHIVED` names goes through: taking it out of the archive, and what changes none of its
content.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection
from django.utils.translation import gettext as _

from ..models import AuditEntry, Tournament
from .errors import DomainError

#: what separates the parts of an object given as a tuple ("Round 2, Table 4, Seat 3")
PARTS = ", "


def _jsonable(value: Any) -> Any:
    # Dates and Decimals must survive a JSON field on SQLite and PostgreSQL alike.
    return None if value is None else json.loads(json.dumps(value, cls=DjangoJSONEncoder))


def _pieces(obj: Any) -> list:
    """One object as language-neutral pieces: what has a word ("Table", "Round", a stage's or a role's name)
    as a key and its figures, everything else (a team's or a player's name, as it is now) as its text.
    The words are built when the log is read (tournament.audit_labels.object_words)."""
    label = getattr(getattr(obj, "_meta", None), "label_lower", None)
    if label in ("tournament.table", "tournament.round", "tournament.seat"):
        return [{"kind": label.split(".")[1], "number": obj.number}]
    if label == "tournament.stage":
        return [{"kind": "stage", "stage": obj.kind}]
    if label == "tournament.draw":
        return [{"kind": "draw", "draw": obj.kind, "seed": obj.seed}]
    if label == "tournament.tournamentrole":
        return [str(obj.user), " – ", {"kind": "role", "role": obj.role}, " – ", str(obj.tournament)]
    if label == "scoring.tablelink":
        return [{"kind": "link", "of": _pieces(obj.target)}]
    return [str(obj)]


def object_ref(obj: Any) -> list | None:
    """The pieces of `obj` (a tuple: its parts in turn), or None where there is nothing to word at read time
    (no object, or one given as text: it shows as written)."""
    if obj is None or isinstance(obj, str):
        return None
    parts = obj if isinstance(obj, tuple) else (obj,)
    pieces = []
    for n, part in enumerate(parts):
        pieces += ([PARTS] if n else []) + _pieces(part)
    if all(isinstance(piece, str) for piece in pieces):
        return None  # names only: the stored text says it all
    return pieces


def _text(obj: Any) -> str:
    if obj is None:
        return ""
    return PARTS.join(str(part) for part in obj) if isinstance(obj, tuple) else str(obj)


#: what may still be done to an archived tournament: reopening it (and archiving it again), and what changes none
#: of its content: who works on it, whether its pages are published, the season it is an evening of
# "tournament.update_from_file": the file replacing the content may itself be of an archived evening (updating an
# archived tournament is refused before: tournament/transfer_update.py)
ALLOWED_WHEN_ARCHIVED = frozenset({"tournament.archive", "tournament.unarchive", "tournament.update_from_file",
                                   "role.set", "role.remove", "public.publish", "season.add_evening",
                                   "season.remove_evening"})


class TournamentArchived(DomainError):
    """A change of an archived tournament: refused, nothing is stored."""

    def __init__(self):
        super().__init__(archived_message())


def archived_message() -> str:
    return _("This tournament is archived, so it is read-only: nothing was saved. To change it, a director "
             "reopens it: “Restore from archive” on the tournament's page (the list of tournaments shows archived "
             "ones under “Show archived tournaments”).")


def refuse_if_archived(tournament, action: str) -> None:
    """Raise `TournamentArchived` for a change of an archived tournament, as the service was handed it: loaded
    with the request (by the view, or with a table's link), so it costs no query on the hot paths of an evening
    (entering a list, a slip, a registration). Archiving is the end of an evening: a save already under way when
    the director archives may still finish, none started after it does."""
    if tournament is not None and action not in ALLOWED_WHEN_ARCHIVED and tournament.archived:
        raise TournamentArchived


def one_result_at_a_time(tournament, action: str) -> None:
    """On PostgreSQL, the results of one tournament are saved one after the other: a sheet's save locks its
    tournament's row until it commits. What follows a result in its transaction reads every result of the round
    (is the round complete: its backup; is the tournament finished: its status); two last results saved at the same
    moment would each miss the other, uncommitted, and neither would see the round complete. SQLite's IMMEDIATE
    transactions already take turns for every write. FOR NO KEY UPDATE: rows that only refer to the tournament
    (a registration, a table link's entry) are not held up."""
    if (tournament is not None and action.startswith("sheet.") and connection.vendor == "postgresql"
            and connection.in_atomic_block):
        list(Tournament.objects.select_for_update(no_key=True).filter(pk=tournament.pk).values_list("pk", flat=True))


def _club_of(tournament, obj: Any, organisation) -> int | None:
    """The club whose data changed: the tournament's, else the one named, else the changed object's own (a register
    entry, a season); None for what belongs to no club."""
    if tournament is not None:
        return tournament.organisation_id
    if organisation is not None:
        return getattr(organisation, "pk", organisation)
    parts = obj if isinstance(obj, tuple) else (obj,)
    return next((part.organisation_id for part in parts if hasattr(part, "organisation_id")), None)


def log_action(
    action: str, *, by, tournament=None, obj: Any = None, before: Any = None, after: Any = None, reason: str = "",
    organisation=None, federation=None,
) -> AuditEntry:
    """Write one entry. `obj` is what changed: a model instance, a tuple of them (a round's table's seat), or
    a text; it is kept as the writer's text and, where it has words, language-neutral for the reader. The entry
    belongs to the club of the tournament, else of `organisation`, else of `obj`; a change of a federation's
    register or seasons names its `federation` (its admins' audit view).

    Refuses the change of an archived tournament (`TournamentArchived`): call it inside the service's transaction,
    which then rolls back. A sheet's entry waits there for another result of its tournament being saved
    (`one_result_at_a_time`)."""
    refuse_if_archived(tournament, action)
    one_result_at_a_time(tournament, action)
    return AuditEntry.objects.create(
        tournament=tournament,
        organisation_id=_club_of(tournament, obj, organisation),
        federation_id=getattr(federation, "pk", federation),
        user=by if getattr(by, "is_authenticated", False) else None,
        action=action,
        object_repr=_text(obj)[:200],
        object_ref=object_ref(obj),
        before=_jsonable(before),
        after=_jsonable(after),
        reason=reason,
    )
