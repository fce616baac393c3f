"""Problems a table signals from its private link (a missing player, a question for the referee): they show on
the round's page and board until someone at the referee table closes them."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.models import TableLink, TableProblem
from tournament.permissions import can_enter_results
from tournament.services.audit import log_action
from tournament.services.errors import DomainError

from .checks import clean_reason
from .links import refuse_closed


def signal_problem(link: TableLink, *, kind: str, note: str = "") -> TableProblem:
    """A table signals a problem from its link; it shows on the round's page until someone closes it."""
    if kind not in TableProblem.Kind.values:
        raise DomainError(_("Choose what the problem is."), field="kind")
    note = clean_reason(note)[:300].strip()
    with transaction.atomic():
        refuse_closed(link)
        open_ = TableProblem.objects.filter(table_id=link.table_id, match_id=link.match_id, kind=kind, note=note,
                                            closed_at__isnull=True).first()
        if open_ is not None:
            return open_  # signalled twice: one problem
        problem = TableProblem.objects.create(tournament=link.tournament, table_id=link.table_id,
                                              match_id=link.match_id, link=link, kind=kind, note=note)
        log_action("tableproblem.signal", by=None, tournament=link.tournament, obj=link.target,
                   after={"kind": kind, "note": note, "from_link": link.hint})
    return problem


def close_problem(problem: TableProblem, *, by) -> TableProblem:
    if not can_enter_results(by, problem.tournament):
        raise DomainError(_("You are not allowed to enter results in this tournament."))
    with transaction.atomic():
        locked = TableProblem.objects.select_for_update().get(pk=problem.pk)
        if locked.closed_at is None:
            locked.closed_at, locked.closed_by = timezone.now(), by
            locked.save(update_fields=["closed_at", "closed_by"])
            log_action("tableproblem.close", by=by, tournament=locked.tournament, obj=locked.table or locked.match,
                       before={"kind": locked.kind, "note": locked.note})
    return locked
