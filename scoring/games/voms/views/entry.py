"""What the slip and series entry pages share: the problems the tables signalled (and closing one), and the
inputs of a second entry unlike the first marked on its form."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.generic import View

from scoring.link_pages import problem_rows
from scoring.models import TableProblem
from scoring.results.problems import close_problem
from tournament.permissions import ScoreEntryMixin
from tournament.services.errors import DomainError

from .. import queries
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


def mark_differences(form, two: dict) -> None:
    """A second entry unlike the first: the inputs that differ from the first entry marked on the form."""
    for key in sorted(two["keys"]):
        form.add_error(key if key in form.fields else "lus_a", _("Differs from the first entry."))
