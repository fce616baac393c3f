"""A seated game's director pages: overview, settings, seating, starting a round, substitutes, fixed tables.

Views parse input, call one service, render. What is the game's own (its settings form, the overview's
account of its rules) the page asks of the tournament's `SeatedGame`. The sheet pages are the results
layer's, the standings and printouts the documents'.
"""

from __future__ import annotations

from django.contrib import messages
from django.db.models import Count
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.generic import FormView, TemplateView, View

from scoring.models import ScoreSheet
from tournament.models import Participant, Seat, Table
from tournament.services import seating
from tournament.services.errors import DomainError
from tournament.views.confirm import confirmation_page, confirmed

from .. import services
from ..forms import DrawForm, FixedTableForm, SubstituteForm
from ..queries import (
    entered_tables,
    round_to_play,
    rounds_of,
    seat_of,
    seated_tables,
    seating_problems,
    substitute_candidates,
)
from .base import DirectorPage, EntryPage, fail, url

# --- overview ------------------------------------------------------------------------------------------


class OverviewView(EntryPage, TemplateView):
    template_name = "seated/overview.html"
    nav = "overview"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        t = self.tournament
        statuses = dict(t.participants.values_list("status").annotate(n=Count("id")))
        tables = Table.objects.filter(round__stage__tournament=t).values_list("round__number")
        sheets = ScoreSheet.objects.filter(table__round__stage__tournament=t).values_list("table__round__number")
        total, entered = dict(tables.annotate(n=Count("id"))), dict(sheets.annotate(n=Count("id")))
        finished = dict(tables.filter(self.game.finished_sheet).annotate(n=Count("id")))
        context.update(
            players=statuses.get(Participant.Status.ACTIVE, 0),
            withdrawn=statuses.get(Participant.Status.WITHDRAWN, 0),
            excluded=statuses.get(Participant.Status.EXCLUDED, 0),
            draw=seating.current_draw(t),
            started=services.play_started(t),
            rounds=[(r, finished.get(r.number, 0), entered.get(r.number, 0), total.get(r.number, 0))
                    for r in rounds_of(t)],
            **self.game.overview_context(self.settings),
        )
        return context


# --- settings ------------------------------------------------------------------------------------------


class SettingsView(DirectorPage, FormView):
    template_name = "seated/settings.html"
    nav = "settings"

    def get_form(self, form_class=None):
        data = self.request.POST if self.request.method == "POST" else None
        return self.game.settings_form(self.settings, data=data, started=services.play_started(self.tournament))

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        form = context["form"]
        started = services.play_started(self.tournament)
        # once play has started the game's form shows what play fixed as read-only: saved only if something is not
        context.update(started=started, savable=not started or any(not f.disabled for f in form.fields.values()),
                       **self.game.settings_page_context(form))
        return context

    def form_valid(self, form):
        try:
            _tournament, removed = services.update_settings(
                self.tournament, self.game.settings_from_form(form, self.settings), by=self.request.user)
        except DomainError as error:
            fail(form, error)
            return self.form_invalid(form)
        messages.success(self.request, _("Settings saved."))
        page = self.game.settings_saved(self.request, form)
        if removed:
            messages.warning(self.request, self.game.seating_removed_message())
        return redirect(url(self.tournament, page))


# --- seating -------------------------------------------------------------------------------------------


class SeatingView(DirectorPage, FormView):
    template_name = "seated/seating.html"
    form_class = DrawForm
    nav = "seating"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        tables = seated_tables(self.tournament)
        draw = seating.current_draw(self.tournament)
        started = services.play_started(self.tournament)
        entered = entered_tables(self.tournament) if tables else set()
        # before any draw nobody is seated: that is no problem to list, the page invites to draw instead
        problems = seating_problems(self.tournament, tables, entered) if tables else {}
        context.update(
            draw=draw,
            tables=sorted(tables.items()),
            # the page opens on the round still to play, and offers substitutes only at its tables and later
            # ones whose sheet is not in (a played seat's substitute is a correction, not an offer)
            entered=entered,
            to_play=round_to_play(tables, entered),
            problems=problems,
            # a game without substitutes names the withdrawn players' rounds (redo the draw without them)
            withdrawn_rounds=[(p, [number for number, _seat in seats]) for p, seats in problems.get("withdrawn", [])],
            draw_note=self.game.draw_note(self.settings),
            active_count=self.tournament.participants.filter(status=Participant.Status.ACTIVE).count(),
            large_twice=seating.large_table_twice(self.tournament, draw) if tables else [],
            again=seating.meeting_again(tables) if draw and tables else None,
            large_size=seating.larger_table_size(draw),
            started=started,
            first_round=rounds_of(self.tournament)[:1],
            reprints=self.reprints(),
        )
        return context

    def reprints(self) -> tuple | None:
        """After a substitute was set: the seat, and the printouts naming who plays it (to print again), linked."""
        pk = self.request.GET.get("reprint", "")
        seat = seat_of(self.tournament, int(pk)) if pk.isdigit() and len(pk) < 18 and self.game.substitutes else None
        return (seat, self.game.reprints(self.tournament, seat)) if seat is not None else None

    def form_valid(self, form):
        if seating.current_draw(self.tournament) and not confirmed(self.request):
            return confirmation_page(
                self.request, tournament=self.tournament,
                question=_("Set the field again?") if self.game.patience else _("Redo the seating draw?"),
                explanation=self.game.redraw_explanation(),
                confirm_label=_("Yes, redo it"), cancel_url=url(self.tournament, "seating"),
            )
        try:
            draw = services.draw_seating(self.tournament, by=self.request.user, seed=form.cleaned_data.get("seed"))
        except DomainError as error:
            fail(form, error)
            return self.form_invalid(form)
        if self.game.patience:
            messages.success(self.request, _("The field is set: every active player plays every deal."))
        else:
            messages.success(self.request, _("Seating drawn with seed %(seed)s.") % {"seed": draw.seed})
        return redirect(url(self.tournament, "seating"))


class StartRoundView(DirectorPage, View):
    http_method_names = ["post"]

    def post(self, request, *args, **kwargs):
        rounds = rounds_of(self.tournament)
        number = request.POST.get("round", "1")
        round_ = next((r for r in rounds if str(r.number) == number), None)
        if round_ is None:
            raise Http404
        services.start_round(round_, by=request.user)
        messages.success(request, _("Round %(number)s has started.") % {"number": round_.number})
        return redirect(url(self.tournament, "seating"))


# --- substitutes ---------------------------------------------------------------------------------------


class SubstituteView(DirectorPage, FormView):
    template_name = "seated/substitute.html"
    form_class = SubstituteForm
    nav = "seating"

    def get_seat(self) -> Seat:
        seat = seat_of(self.tournament, self.kwargs["pk"])
        if seat is None:
            raise Http404
        return seat

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "candidates": substitute_candidates(self.tournament, self.get_seat())}

    def get_initial(self):
        seat = self.get_seat()
        return {"substitute": seat.substitute, "points_to_substitute": seat.points_to_substitute}

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        seat = self.get_seat()
        context.update(seat=seat, reprints=self.game.reprints(self.tournament, seat))
        return context

    def form_valid(self, form):
        data = form.cleaned_data
        try:
            services.set_substitute(self.get_seat(), data["substitute"], by=self.request.user,
                                    points_to_substitute=data["points_to_substitute"], reason=data["reason"])
        except DomainError as error:
            fail(form, error)
            return self.form_invalid(form)
        seat = self.get_seat()
        printouts = "; ".join(text for text, _address in self.game.reprints(self.tournament, seat))
        messages.success(self.request, _("Changes saved. Print again: %(printouts)s.") % {"printouts": printouts})
        # the seating page links what to print again
        return redirect(url(self.tournament, "seating") + f"?reprint={seat.pk}#round-{seat.table.round.number}")


# --- a player's fixed table (registering and correcting players is the desk's: tournament/views/desk.py) --


class FixedTableView(DirectorPage, FormView):
    """The table a player keeps in every round (e.g. for accessibility); applies at the next draw."""

    template_name = "seated/fixed_table.html"
    form_class = FixedTableForm
    nav = "players"

    def player(self) -> Participant:
        return get_object_or_404(Participant, tournament=self.tournament, pk=self.kwargs["pk"])

    def get_initial(self):
        return {"table": self.settings.fixed_tables.get(self.player().number)}

    def get_context_data(self, **kwargs):
        return {**super().get_context_data(**kwargs), "player": self.player()}

    def form_valid(self, form):
        try:
            services.set_fixed_table(self.player(), form.cleaned_data["table"], by=self.request.user)
        except DomainError as error:
            fail(form, error)
            return self.form_invalid(form)
        messages.success(self.request, _("Changes saved."))
        return redirect(reverse("tournament:desk_entry", args=[self.tournament.slug, self.player().pk]))
