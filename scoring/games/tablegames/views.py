"""Table-game director pages: overview, settings, seating, standings, printouts.

Views parse input, call one service, render. The score sheet pages are in `entry.py`. Every page
serves every table game: the game comes from the tournament (`GAMES`), never from the address.
"""

from __future__ import annotations

from django.contrib import messages
from django.db.models import Count
from django.http import Http404
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.views.generic import FormView, TemplateView, View

from documents import formats_for
from documents.base import format_value
from documents.response import document_response
from scoring.board import StillMissingMixin
from scoring.models import ScoreSheet
from scoring.withdrawal_views import PrizeEligibilityView as SharedPrizeEligibilityView
from scoring.withdrawals import withdrawn_seated
from tournament.models import Participant, Table
from tournament.permissions import DirectorRequiredMixin, ScoreEntryMixin
from tournament.services import seating
from tournament.services.errors import DomainError
from tournament.views.confirm import confirmation_page, confirmed

from . import services
from .config import settings_of
from .documents import documents, printout_items, ranking_document
from .family import table_game
from .forms import DrawForm, SettingsForm
from .queries import rounds_of, seated_tables, unseated_players
from .standings import standings


def url(tournament, name: str, *args) -> str:
    return reverse(f"tournament:tablegames:{name}", args=[tournament.slug, *args])


def fail(form, error: DomainError) -> None:
    """Put a service's refusal on the form: on its field when it names one, else on the form."""
    form.add_error(error.field if error.field in form.fields else None, error.message)


class TableGamePage:
    """Only table-game tournaments have these pages; `nav` marks the page in the menu."""

    nav = ""

    def dispatch(self, request, *args, **kwargs):
        # runs after the role mixin has loaded self.tournament and checked the role
        self.game = table_game(self.tournament)
        if self.game is None:
            raise Http404
        self.settings = settings_of(self.tournament)
        return super().dispatch(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(nav=self.nav, game=self.game, settings=self.settings, spec_name=_(self.settings.spec.name))
        return context


class DirectorPage(DirectorRequiredMixin, TableGamePage):
    pass


class EntryPage(ScoreEntryMixin, StillMissingMixin, TableGamePage):
    board_namespace = "tournament:tablegames"


# --- overview ------------------------------------------------------------------------------------------


class OverviewView(EntryPage, TemplateView):
    template_name = "tablegames/overview.html"
    nav = "overview"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        t = self.tournament
        statuses = dict(t.participants.values_list("status").annotate(n=Count("id")))
        tables = dict(Table.objects.filter(round__stage__tournament=t).values_list("round__number")
                      .annotate(n=Count("id")))
        sheets = ScoreSheet.objects.filter(table__round__stage__tournament=t).values_list("table__round__number")
        entered = dict(sheets.annotate(n=Count("id")))
        finished = dict(sheets.filter(derived__finished=True).annotate(n=Count("id")))
        context.update(
            players=statuses.get(Participant.Status.ACTIVE, 0),
            withdrawn=statuses.get(Participant.Status.WITHDRAWN, 0),
            draw=seating.current_draw(t),
            started=seating.play_started(t),
            rounds=[(r, finished.get(r.number, 0), entered.get(r.number, 0), tables.get(r.number, 0))
                    for r in rounds_of(t)],
            rules=rules_summary(self.settings),
        )
        return context


def rules_summary(settings) -> list[tuple[str, str]]:
    """Every number of the rules as (label, value), for the overview."""
    form = SettingsForm(settings)
    return [(form.fields[name].label, format_setting(form.initial[name])) for name in form.rule_names()]


def format_setting(value) -> str:
    if value is None or value == "":
        return "–"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    return str(value)


# --- settings ------------------------------------------------------------------------------------------


class SettingsView(DirectorPage, FormView):
    template_name = "tablegames/settings.html"
    nav = "settings"

    def get_form(self, form_class=None):
        form = SettingsForm(self.settings, **{k: v for k, v in self.get_form_kwargs().items() if k != "initial"})
        if seating.play_started(self.tournament):
            form.fix_all()
        return form

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        form = context["form"]
        context.update(
            started=seating.play_started(self.tournament),
            general=[form[name] for name in form.fields if not name.startswith("rule_")],
            rules=[form[name] for name in form.rule_names()],
        )
        return context

    def form_valid(self, form):
        try:
            _tournament, removed = services.update_settings(self.tournament, form.settings(), by=self.request.user)
        except DomainError as error:
            fail(form, error)
            return self.form_invalid(form)
        messages.success(self.request, _("Settings saved."))
        if form.variant_changed():
            messages.info(self.request, _("Another game was chosen: its numbers start from the rules' defaults."))
        if removed:
            messages.warning(self.request, _("The seating was drawn for other rounds or table sizes and has been "
                                             "removed: draw the seating again."))
        return redirect(url(self.tournament, "settings" if form.variant_changed() else "overview"))


# --- seating -------------------------------------------------------------------------------------------


class SeatingView(DirectorPage, FormView):
    template_name = "tablegames/seating.html"
    form_class = DrawForm
    nav = "seating"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        tables = seated_tables(self.tournament)
        draw = seating.current_draw(self.tournament)
        started = seating.play_started(self.tournament)
        context.update(
            draw=draw,
            tables=sorted(tables.items()),
            # before any draw nobody is seated: that is no problem to list, the page invites to draw instead
            unseated=unseated_players(self.tournament, tables) if tables else [],
            # withdrawn after the draw: redo it without them while no sheet is in (no sheet is in: every round)
            withdrawn=withdrawn_seated(self.tournament.participants.all(), tables, set()) if tables and not started
            else [],
            active_count=self.tournament.participants.filter(status=Participant.Status.ACTIVE).count(),
            large_twice=seating.large_table_twice(self.tournament, draw) if tables else [],
            again=seating.meeting_again(tables) if draw and tables else None,
            large_size=seating.larger_table_size(draw),
            started=started,
        )
        return context

    def form_valid(self, form):
        if seating.current_draw(self.tournament) and not confirmed(self.request):
            return confirmation_page(
                self.request, tournament=self.tournament,
                question=_("Set the field again?") if self.settings.patience else _("Redo the seating draw?"),
                explanation=_("The tables and seats of every round are drawn anew; printed seating lists and "
                              "score sheets no longer match and must be printed again."),
                confirm_label=_("Yes, redo it"), cancel_url=url(self.tournament, "seating"),
            )
        try:
            draw = services.draw(self.tournament, by=self.request.user, seed=form.cleaned_data.get("seed"))
        except DomainError as error:
            fail(form, error)
            return self.form_invalid(form)
        if self.settings.patience:
            messages.success(self.request, _("The field is set: every active player plays every deal."))
        else:
            messages.success(self.request, _("Seating drawn with seed %(seed)s.") % {"seed": draw.seed})
        return redirect(url(self.tournament, "seating"))


# --- standings and printouts ---------------------------------------------------------------------------


class StandingsView(DirectorPage, TemplateView):
    template_name = "tablegames/standings.html"
    nav = "standings"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        rounds = self.settings.rounds
        after = self.kwargs.get("round", rounds)
        if not 1 <= after <= rounds:
            raise Http404
        result = standings(self.tournament, after_round=after)
        document = ranking_document(self.tournament, result=result)
        context.update(
            result=result,
            document=document,
            table_rows=standings_rows_html(document, result),
            document_name="standings" if result.last_round else f"standings-after-{after}",
            after_choices=range(1, rounds + 1),
            missed=[row for row in result.rows if row.missed] if result.last_round else [],
        )
        return context


class PrizeEligibilityView(SharedPrizeEligibilityView):
    """The tick on the standings page: a player who did not play every round may win a prize."""

    def back_url(self) -> str:
        return reverse("tournament:tablegames:standings", args=[self.tournament.slug]) + "#prize-eligibility"


CELL_CLASSES = {"right": "num", "center": "center", "left": ""}


def standings_rows_html(document, result) -> list[SafeString]:
    """The ranking's rows as HTML, from the same document the PDF and Excel are made of.

    The cell of the step that put a player below the one above is marked (tournament points alone
    decide most places and need no mark), and so is the lot.
    """
    columns = document.columns
    classes = [CELL_CLASSES[column.alignment] for column in columns]
    first_metric = result.chain[0].key
    html = []
    for standing, values in zip(result.rows, document.row_values(), strict=True):
        cells = []
        for column, css, value in zip(columns, classes, values, strict=True):
            decided = standing.separated_by not in (None, first_metric) and column.key == standing.separated_by
            if decided or (column.key == "lot" and standing.by_lot):
                css += " tg-decided"
            cells.append(f'<td class="{css}">{escape(format_value(value))}</td>')
        html.append(SafeString(f"<tr>{''.join(cells)}</tr>"))
    return html


class PrintoutsView(DirectorPage, TemplateView):
    template_name = "tablegames/printouts.html"
    nav = "printouts"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(items=printout_items(self.tournament),
                       drawn=seating.current_draw(self.tournament) is not None)
        return context


class DownloadView(DirectorPage, View):
    def get(self, request, *args, name, file_format, **kwargs):
        available = documents(self.tournament)
        if name not in available:
            raise Http404
        document = available[name]()
        if file_format not in formats_for(document):
            raise Http404
        return document_response(request, document, file_format, tournament=self.tournament)

