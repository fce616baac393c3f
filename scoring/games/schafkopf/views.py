"""Schafkopf director pages: overview, fixed tables, settings, seating and substitutes.

Views parse input, call one service, render. The score list pages are in `entry.py`, the standings
and printouts in `reports.py`.
"""

from __future__ import annotations

from django.contrib import messages
from django.db.models import Count
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.generic import FormView, TemplateView, View

from scoring.board import StillMissingMixin
from scoring.models import ScoreSheet
from scoring.rules.schafkopf import TARIFF_PRESETS, tariff_to_dict
from tournament.models import Participant, Seat, Table
from tournament.permissions import DirectorRequiredMixin, ScoreEntryMixin
from tournament.services.errors import DomainError
from tournament.services.seating import large_table_twice, larger_table_size, meeting_again
from tournament.views.confirm import confirmation_page, confirmed

from . import services
from .config import settings_of
from .forms import DrawForm, FixedTableForm, SettingsForm, SubstituteForm
from .queries import entered_tables, round_to_play, rounds_of, seated_tables, seating_problems


def url(tournament, name: str, *args) -> str:
    return reverse(f"tournament:schafkopf:{name}", args=[tournament.slug, *args])


def fail(form, error: DomainError) -> None:
    """Put a service's refusal on the form: on its field when it names one, else on the form."""
    form.add_error(error.field if error.field in form.fields else None, error.message)


class SchafkopfPage:
    """`nav` marks the page in the Schafkopf menu (other games' tournaments are refused in tournament/game_pages.py)."""

    nav = ""

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["nav"] = self.nav
        return context


class DirectorPage(DirectorRequiredMixin, SchafkopfPage):
    pass


class EntryPage(ScoreEntryMixin, StillMissingMixin, SchafkopfPage):
    board_namespace = "tournament:schafkopf"


# --- overview --------------------------------------------------------------------------------------


class OverviewView(EntryPage, TemplateView):
    template_name = "schafkopf/overview.html"
    nav = "overview"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        t = self.tournament
        statuses = dict(t.participants.values_list("status").annotate(n=Count("id")))
        tables = dict(Table.objects.filter(round__stage__tournament=t).values_list("round__number")
                      .annotate(n=Count("id")))
        entered = dict(ScoreSheet.objects.filter(table__round__stage__tournament=t).values_list("table__round__number")
                       .annotate(n=Count("id")))
        context.update(
            settings=settings_of(t),
            players=statuses.get(Participant.Status.ACTIVE, 0),
            withdrawn=statuses.get(Participant.Status.WITHDRAWN, 0),
            excluded=statuses.get(Participant.Status.EXCLUDED, 0),
            draw=services.current_draw(t),
            started=services.play_started(t),
            rounds=[(r, entered.get(r.number, 0), tables.get(r.number, 0)) for r in rounds_of(t)],
        )
        return context


# --- a player's fixed table (registering and correcting players is the desk's: tournament/views/desk.py) ---


class FixedTableView(DirectorPage, FormView):
    """The table a player keeps in every round (e.g. for accessibility); applies at the next draw."""

    template_name = "schafkopf/fixed_table.html"
    form_class = FixedTableForm
    nav = "players"

    def player(self) -> Participant:
        return get_object_or_404(Participant, tournament=self.tournament, pk=self.kwargs["pk"])

    def get_initial(self):
        return {"table": settings_of(self.tournament).fixed_tables.get(self.player().number)}

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


# --- settings --------------------------------------------------------------------------------------


class SettingsView(DirectorPage, FormView):
    template_name = "schafkopf/settings.html"
    form_class = SettingsForm
    nav = "settings"

    def get_initial(self):
        return SettingsForm.initial_from(settings_of(self.tournament))

    def get_form(self, form_class=None):
        form = super().get_form(form_class)
        if services.play_started(self.tournament):
            form.fix_play_settings()
        return form

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        form = context["form"]
        context["fieldsets"] = [
            (title, [form[name] for name in names]) for title, names in SettingsForm.FIELDSETS
        ]
        context["presets"] = {key: {**tariff_to_dict(t), "name": _(t.name)} for key, t in TARIFF_PRESETS.items()}
        context["started"] = services.play_started(self.tournament)
        context["tariff_sentence"] = _(
            "Solo won: soloist +%(soloist)s, each opponent %(opponent)s. Tout won: soloist +%(tout_soloist)s, "
            "each opponent %(tout_opponent)s. Rufspiel won: declarer and partner +%(ruf)s each."
        )
        return context

    def form_valid(self, form):
        try:
            _tournament, removed = services.update_settings(
                self.tournament, form.settings(settings_of(self.tournament)), by=self.request.user
            )
        except DomainError as error:
            fail(form, error)
            return self.form_invalid(form)
        messages.success(self.request, _("Settings saved."))
        if removed:
            messages.warning(self.request, _("The seating was drawn for another number of rounds and has been "
                                             "removed: draw the seating again."))
        return redirect(url(self.tournament, "overview"))


# --- seating ---------------------------------------------------------------------------------------


class SeatingView(DirectorPage, FormView):
    template_name = "schafkopf/seating.html"
    form_class = DrawForm
    nav = "seating"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        tables = seated_tables(self.tournament)
        draw = services.current_draw(self.tournament)
        entered = entered_tables(self.tournament) if tables else set()
        to_play = round_to_play(tables, entered)
        context.update(
            draw=draw,
            tables=sorted(tables.items()),
            # the page opens on the round still to play, and offers substitutes only at its tables and later
            # ones whose list is not in (a played seat's substitute is a correction, not an offer)
            entered=entered,
            to_play=to_play,
            # before any draw nobody is seated: that is no problem to list, the page invites to draw instead
            problems=seating_problems(self.tournament, tables) if tables else {},
            active_count=self.tournament.participants.filter(status=Participant.Status.ACTIVE).count(),
            large_twice=large_table_twice(self.tournament, draw) if tables else [],
            again=meeting_again(tables) if draw and tables else None,
            large_size=larger_table_size(draw),
            started=services.play_started(self.tournament),
            first_round=rounds_of(self.tournament)[:1],
        )
        return context

    def form_valid(self, form):
        if services.current_draw(self.tournament) and not confirmed(self.request):
            return confirmation_page(
                self.request, tournament=self.tournament, question=_("Redo the seating draw?"),
                explanation=_("The tables and seats of every round are drawn anew; printed seating lists, table "
                              "cards and score lists no longer match and must be printed again."),
                confirm_label=_("Yes, redo the draw"), cancel_url=url(self.tournament, "seating"),
            )
        try:
            draw = services.draw_seating(self.tournament, by=self.request.user, seed=form.cleaned_data["seed"])
        except DomainError as error:
            fail(form, error)
            return self.form_invalid(form)
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


class SubstituteView(DirectorPage, FormView):
    template_name = "schafkopf/substitute.html"
    form_class = SubstituteForm
    nav = "seating"

    def get_seat(self) -> Seat:
        return get_object_or_404(
            Seat.objects.select_related("table__round__stage", "participant", "substitute"),
            pk=self.kwargs["pk"], table__round__stage__tournament=self.tournament,
        )

    def get_form_kwargs(self):
        seat = self.get_seat()
        busy = Seat.objects.filter(table__round=seat.table.round)
        candidates = (
            self.tournament.participants.filter(status=Participant.Status.ACTIVE)
            .exclude(pk__in=busy.values("participant"))
            .exclude(pk__in=busy.exclude(pk=seat.pk).exclude(substitute=None).values("substitute"))
        )
        return {**super().get_form_kwargs(), "candidates": candidates}

    def get_initial(self):
        seat = self.get_seat()
        return {"substitute": seat.substitute, "points_to_substitute": seat.points_to_substitute}

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        seat = self.get_seat()
        context.update(seat=seat, reprints=reprints(self.tournament, seat))
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
        messages.success(self.request, _("Changes saved. Print again: %(printouts)s.")
                         % {"printouts": "; ".join(text for text, _address in reprints(self.tournament, seat))})
        return redirect(url(self.tournament, "seating") + f"#round-{seat.table.round.number}")


def reprints(tournament, seat: Seat) -> list[tuple[str, str]]:
    """The printouts that name who plays `seat`, as (what to print again, its PDF's address): after a substitute
    is set (or taken off) they name the wrong player. The score list only while the table's list is not in."""
    round_number, table = seat.table.round.number, seat.table.number
    players = [seat.participant, *([seat.substitute] if seat.substitute_id else [])]
    found = []
    if not ScoreSheet.objects.filter(table=seat.table).exists():
        found.append((_("the score list of round %(round)s, table %(table)s") % {"round": round_number, "table": table},
                      url(tournament, "download", f"score-lists-{round_number}", "pdf")))
    found += [
        (_("the table card of table %(table)s") % {"table": table}, url(tournament, "download", "table-cards", "pdf")),
        (_("the participant cards of %(players)s") % {"players": ", ".join(f"{p.number} {p.name}" for p in players)},
         url(tournament, "download", "participant-cards", "pdf")),
        (_("the seating by table (round %(round)s)") % {"round": round_number},
         url(tournament, "download", "seating-by-table", "pdf")),
        (_("the seating by name"), url(tournament, "download", "seating-by-name", "pdf")),
    ]
    return found
