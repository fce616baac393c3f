"""What the slip and series entry pages share: the problems the tables signalled (and closing one), the
Confirm button of a first entry, and a second entry unlike the first shown beside it."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.generic import View

from scoring.link_pages import problem_rows
from scoring.models import TableProblem
from scoring.results.compare import two_versions
from scoring.results.double_entry import EntriesDiffer
from scoring.results.problems import close_problem
from scoring.results.words import entered_by_label
from tournament.permissions import ScoreEntryMixin
from tournament.services.errors import DomainError

from .. import queries
from ..forms import slip_fields
from ..services.slips import confirm_slip
from .common import url


def open_problems(tournament, **filters) -> list[dict]:
    """Problems the tables signalled from their links and nobody closed yet, oldest first."""
    problems = (TableProblem.objects.filter(tournament=tournament, closed_at__isnull=True, **filters)
                .select_related("match__round", "match__team_a", "match__team_b"))
    return problem_rows(problems, lambda problem: url(tournament, "close_problem", problem.pk))


class CloseProblemView(ScoreEntryMixin, View):
    """Close a problem a table signalled: someone went to the table and sorted it out."""

    http_method_names = ["post"]

    def post(self, request, *args, **kwargs):
        problem = get_object_or_404(TableProblem, tournament=self.tournament, pk=kwargs["pk"])
        try:
            close_problem(problem, by=request.user)
        except DomainError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, _("%(place)s: problem closed.")
                             % {"place": problem_rows([problem], str)[0]["place"]})
        match = problem.match
        if match is not None and queries.is_series(match):
            return redirect(url(self.tournament, "series", match.pk))
        return redirect(url(self.tournament, "enter"))


def confirm_first_entry(request, match) -> bool:
    """The Confirm button of a first entry (a slip or series games): True when it counts now, else a message."""
    version = request.POST.get("pending_version", "")
    try:
        confirm_slip(match, by=request.user, expected_version=int(version) if version.isdigit() else None)
    except DomainError as error:
        messages.error(request, error.message)
        return False
    return True


def mark_differences(form, conflict: EntriesDiffer) -> dict:
    """A second entry unlike the first: both versions for `_two_versions.html`, the differing inputs marked."""
    two = two_versions(
        conflict.pending.entries, conflict.entries, slip_fields,
        title=_("The two entries differ"), intro=conflict.message,
        first_label=_("First entry (%(who)s)") % {"who": entered_by_label(conflict.pending)},
        second_label=_("Your entry"),
    )
    for key in sorted(two["keys"]):
        form.add_error(key if key in form.fields else "lus_a", _("Differs from the first entry."))
    return two
