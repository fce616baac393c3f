"""The registration desk, one for every game: register, correct, delete before the draw, check in.

A seated game's desk lists players, a team game's (Voms) teams; everything else is the same page.
Views parse input, call one service of `tournament.services.participants`, render.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect
from django.urls import Resolver404, reverse
from django.utils.formats import number_format
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.generic import FormView, TemplateView, View

from scoring.games import game_of

from ..clubaddress import resolve_address
from ..desk_forms import (
    DeleteForm,
    ImportForm,
    MemberForm,
    PaymentForm,
    PlayerForm,
    StatusForm,
    TeamEditForm,
    TeamForm,
    ask_to_confirm,
)
from ..models import Participant, Team, Tournament
from ..permissions import DirectorRequiredMixin
from ..public.evening_links import evening_url
from ..queries import drawn
from ..season_forms import TakeOverForm
from ..services import participants as desk
from ..services import register
from ..services.errors import DomainError
from ..services.text import same_name
from .replay import ReplayGuard


def desk_url(tournament, name: str = "desk", *args) -> str:
    return reverse(f"tournament:{name}", args=[tournament.slug, *args])


def fail(form, error: DomainError) -> None:
    """Put a service's refusal on the form: on its field when it names one, else on the form."""
    if isinstance(error, desk.DuplicateName):
        ask_to_confirm(form, error.message)
    else:
        form.add_error(error.field if error.field in form.fields else None, error.message)


def money(amount) -> str:
    return number_format(amount, decimal_pos=2, use_l10n=True)


def counts_text(counts: desk.CheckInCounts, with_fee: bool) -> str:
    text = _("%(arrived)s of %(registered)s arrived, %(paid)s paid") % {
        "arrived": counts.arrived, "registered": counts.registered, "paid": counts.paid}
    if counts.paid_withdrawn:
        # their fee stays in the takings, so they stay among the paid: the two counters agree
        text += " " + _("(%(count)s of them withdrawn since)") % {"count": counts.paid_withdrawn}
    if with_fee:
        text += " · " + _("takings %(amount)s") % {"amount": money(counts.takings)}
    return text


def warn_if_prizes_change(request, tournament) -> None:
    """A registration or payment after the prizes were shown changes them: say so."""
    if game_of(tournament).prizes_shown(tournament):
        messages.warning(request, _(
            "The prizes were shown already: this changes the takings (now %(takings)s) and so the prize list. "
            "Print the final ranking again.") % {"takings": money(desk.takings(tournament))})


def with_notes(tournament, entries: list) -> list:
    """The entries, each with `note`: the game's mark beside its status (a Voms team's disqualification)."""
    notes = game_of(tournament).entry_notes(tournament)
    for entry in entries:
        entry.note = notes.get(entry.pk, "")
    return entries


class DeskPage(DirectorRequiredMixin):
    """Every desk page: the game's menu, and whether entrants are teams or players."""

    tab = ""

    @property
    def teams(self) -> bool:
        return game_of(self.tournament).participants == "team"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        t = self.tournament
        context.update(
            game_menu=game_of(t).menu(t), current_url=desk_url(t, "checkin" if self.tab == "checkin" else "desk"),
            tab=self.tab, teams=self.teams, substitutes=game_of(t).substitutes, fee=desk.fee_of(t),
            drawn=drawn(t), registration_links=game_of(t).registration_links(t),
        )
        return context


class RegisterView(DeskPage, ReplayGuard, FormView):
    """The list of entrants with the registration form (and, for players, the import of a list)."""

    template_name = "tournament/desk/register.html"
    tab = "register"
    report = None

    def get_form_class(self):
        return TeamForm if self.teams else PlayerForm

    def get_form_kwargs(self):
        kwargs = super().get_form_kwargs()
        if not self.teams:
            kwargs["organisation"] = self.tournament.organisation_id
        return kwargs

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        t = self.tournament
        entries = with_notes(t, list(desk.entrants(t)))
        counts = desk.checkin_counts(t)
        context.update(
            entries=entries,
            active=sum(not desk.is_withdrawn(e) for e in entries),
            counts=counts,
            counts_text=counts_text(counts, False),
            import_form=None if self.teams else (kwargs.get("import_form") or ImportForm()),
            report=self.report,
            take_over_form=None if self.teams else (kwargs.get("take_over_form") or TakeOverForm(
                tournaments=register.earlier_tournaments(t, self.request.user))),
        )
        return context

    def form_valid(self, form):
        data = dict(form.cleaned_data)
        try:
            if self.teams:
                entry = desk.register_team(
                    self.tournament, by=self.request.user, name=data["name"],
                    players=[data["player1"], data["player2"]], seeded=data["seeded"],
                    confirm_duplicate=data["confirm_duplicate"], sent=self.sent)
            else:
                entry = desk.add_participant(self.tournament, by=self.request.user, sent=self.sent, **data)
        except DomainError as error:
            fail(form, error)
            return self.form_invalid(form)
        messages.success(self.request, _("%(name)s registered with number %(number)s.")
                         % {"name": entry.name, "number": entry.number})
        warn_if_prizes_change(self.request, self.tournament)
        return redirect(desk_url(self.tournament))


def seating_page_label(tournament) -> str:
    """The seating page as the game's menu names it ("Seating"; "Field" for a patience)."""
    for label, address in game_of(tournament).menu(tournament):
        try:
            if resolve_address(address).url_name == "seating":
                return str(label)
        except Resolver404:
            continue
    return _("Seating")


def seating_drawn_message(tournament) -> str:
    """A status changed once the seats are drawn: where to go, in the game's own word, and what it may need."""
    page = seating_page_label(tournament)
    if game_of(tournament).substitutes:
        return _("The seating is drawn already: the page “%(page)s” says what this change needs — a substitute on "
                 "the seats still to be played, or the draw again before play starts.") % {"page": page}
    return _("The seating is drawn already: the page “%(page)s” says what this change needs.") % {"page": page}


class ImportView(RegisterView):
    """A list of players from a spreadsheet (a team game imports on its own page)."""

    http_method_names = ["post"]

    def replay_url(self) -> str:
        return desk_url(self.tournament)

    def post(self, request, *args, **kwargs):
        if self.teams:
            raise Http404
        form = ImportForm(request.POST, request.FILES, ask_duplicates=True)
        if not form.is_valid():
            return self.render_to_response(self.get_context_data(import_form=form, form=PlayerForm()))
        upload = form.cleaned_data["file"]
        self.report = desk.import_participants(self.tournament, upload.name, upload.read(), by=request.user,
                                               sent=self.sent, confirm_duplicates=form.confirmed)
        if self.report.ok:
            messages.success(request, _("%(count)s players imported.") % {"count": len(self.report.created)})
            return redirect(desk_url(self.tournament))
        if self.report.held:  # the file is chosen again, with the box ticked
            form = ImportForm(ask_duplicates=True)
        return self.render_to_response(self.get_context_data(import_form=form, form=PlayerForm()))


class TakeOverView(RegisterView):
    """Register the players of an earlier tournament in one step (check-in then decides who plays)."""

    http_method_names = ["post"]

    def post(self, request, *args, **kwargs):
        if self.teams:
            raise Http404
        t = self.tournament
        form = TakeOverForm(request.POST, tournaments=register.earlier_tournaments(t, request.user))
        if form.is_valid():
            source = Tournament.objects.get(pk=form.cleaned_data["source"])
            try:
                created = register.take_participants(t, source, by=request.user)
            except DomainError as error:
                form.add_error(None, error.message)
            else:
                messages.success(request, _("%(count)s players of “%(name)s” registered.")
                                 % {"count": len(created), "name": source.name})
                return redirect(desk_url(t))
        return self.render_to_response(self.get_context_data(take_over_form=form, form=PlayerForm()))


class EntryMixin(DeskPage):
    def entry(self):
        # a team game's desk edits teams (their players through the team), a seated game's players
        model = Team if self.teams else Participant
        return get_object_or_404(model, tournament=self.tournament, pk=self.kwargs["entry"])


class EditView(EntryMixin, TemplateView):
    """One player or team: correct the name (and club, group, number), withdraw or reinstate."""

    template_name = "tournament/desk/entry.html"
    tab = "register"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        entry = with_notes(self.tournament, [kwargs.get("current") or self.entry()])[0]
        if self.teams:
            details = kwargs.get("details_form") or TeamEditForm(instance=entry)
            status = None
            failed = kwargs.get("member_form")
            members = [(m, failed if failed is not None and failed.instance.pk == m.pk
                        else MemberForm(instance=m, prefix=f"m{m.pk}")) for m in entry.members.all()]
        else:
            details = kwargs.get("details_form") or PlayerForm(instance=entry, initial={"number": entry.number})
            status = kwargs.get("status_form") or StatusForm(initial={"status": entry.status,
                                                                      "reason": entry.status_reason})
            members = []
        context.update(
            # a team registered after the pool draw is in no pool: it can still be withdrawn
            can_withdraw=self.teams and not (context["drawn"] and entry.pool_entries.exists()),
            entry=entry, details_form=details, status_form=status, members=members,
            # the game's own pages about this player or team (a Voms team's withdrawal from a round)
            links=game_of(self.tournament).player_links(self.tournament, entry),
            evening_url=(evening_url(self.tournament, entry, self.request)
                         if game_of(self.tournament).public(self.tournament) is not None else ""),
        )
        return context

    def post(self, request, *args, **kwargs):
        entry = self.entry()
        action = request.POST.get("action")
        handlers = {"details": self._details, "status": self._status, "withdraw": self._withdraw,
                    "member": self._member}
        if action not in handlers:
            raise Http404
        status_before = getattr(entry, "status", None)
        failed = handlers[action](entry)
        if failed:
            return self.render_to_response(self.get_context_data(current=entry, **failed))
        entry.refresh_from_db()  # the message names the entry as it is now called
        messages.success(request, _("%(number)s %(name)s: changes saved.") % {"number": entry.number,
                                                                               "name": entry.name})
        if action == "status" and entry.status != status_before and drawn(self.tournament):
            # withdrawn mid-evening, or back after the draw: the seats need a decision, which the draw page offers
            messages.warning(request, seating_drawn_message(self.tournament))
        return redirect(desk_url(self.tournament))

    def _details(self, entry):
        if self.teams:
            form = TeamEditForm(self.request.POST, instance=Team.objects.get(pk=entry.pk))
        else:
            form = PlayerForm(self.request.POST, instance=Participant.objects.get(pk=entry.pk))
        if form.is_valid():
            data = dict(form.cleaned_data)
            try:
                if self.teams:
                    desk.update_team(entry, by=self.request.user, **data)
                else:
                    desk.update_participant(entry, by=self.request.user, **data)
                return None
            except DomainError as error:
                fail(form, error)
        return {"details_form": form}

    def _member(self, entry):
        if not self.teams:
            raise Http404
        member_id = self.request.POST.get("member", "")
        if not (member_id.isascii() and member_id.isdigit() and len(member_id) <= 18):
            raise Http404  # not a player of this team (a tampered form)
        member = get_object_or_404(entry.members, pk=int(member_id))
        form = MemberForm(self.request.POST, instance=Participant.objects.get(pk=member.pk), prefix=f"m{member.pk}")
        if form.is_valid():
            try:
                desk.update_participant(member, by=self.request.user, **form.cleaned_data)
                return None
            except DomainError as error:
                fail(form, error)
        return {"member_form": form}

    def _status(self, entry):
        form = StatusForm(self.request.POST)
        if self.teams:
            raise Http404
        if form.is_valid():
            try:
                desk.set_participant_status(entry, form.cleaned_data["status"], by=self.request.user,
                                            reason=form.cleaned_data["reason"])
                return None
            except DomainError as error:
                fail(form, error)
        return {"status_form": form}

    def _withdraw(self, entry):
        if not self.teams:
            raise Http404
        try:
            desk.set_team_withdrawn(entry, self.request.POST.get("withdrawn") == "1", by=self.request.user)
        except DomainError as error:
            messages.error(self.request, error.message)
        return None


class DeleteView(EntryMixin, FormView):
    """Delete a mistaken entry, before the draw, after a confirmation page."""

    template_name = "tournament/desk/delete.html"
    form_class = DeleteForm
    tab = "register"

    def get_context_data(self, **kwargs):
        return {**super().get_context_data(**kwargs), "entry": self.entry()}

    def form_valid(self, form):
        entry = self.entry()
        name, number = entry.name, entry.number
        try:
            if self.teams:
                desk.delete_team(entry, by=self.request.user, reason=form.cleaned_data["reason"])
            else:
                desk.delete_participant(entry, by=self.request.user, reason=form.cleaned_data["reason"])
        except DomainError as error:
            form.add_error(None, error.message)
            return self.form_invalid(form)
        messages.success(self.request, _("%(number)s %(name)s deleted.") % {"number": number, "name": name})
        return redirect(desk_url(self.tournament))


class CheckInView(DeskPage, TemplateView):
    """Arrived and paid, by keyboard: type part of a name or a number, Enter: arrived, Shift+Enter: paid."""

    template_name = "tournament/desk/checkin.html"
    tab = "checkin"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        t = self.tournament
        counts = desk.checkin_counts(t)
        query = self.request.GET.get("q", "").strip()
        everyone = desk.entrants(t)
        entries = with_notes(t, [e for e in everyone if not desk.is_withdrawn(e)])
        # listed apart, so that a late arrival withdrawn as a no-show is found, with the way back to playing
        withdrawn = [e for e in everyone if desk.is_withdrawn(e)]
        if query:
            entries, withdrawn = matching(entries, query), matching(withdrawn, query)
        context.update(entries=entries, withdrawn=withdrawn, counts=counts,
                       counts_text=counts_text(counts, desk.fee_of(t) is not None), query=query,
                       no_shows=desk.no_shows(t))
        return context

    def post(self, request, *args, **kwargs):
        t = self.tournament
        try:
            entry = desk.entrant(t, request.POST.get("entry"))
        except (Team.DoesNotExist, Participant.DoesNotExist, ValueError):
            raise Http404 from None
        action = request.POST.get("action")
        try:
            if action == "arrived":
                desk.mark_arrived(entry, by=request.user, arrived=True)
                done = _("%(name)s arrived.")
            elif action == "not_arrived":
                desk.mark_arrived(entry, by=request.user, arrived=False)
                done = _("%(name)s marked as not arrived.")
            elif action == "paid":
                form = PaymentForm(request.POST)
                if not form.is_valid():
                    raise DomainError(_("Type an amount of money, 0 or more."))
                desk.mark_paid(entry, by=request.user, amount=form.cleaned_data["amount"])
                done = _("%(name)s paid.")
            elif action == "unpaid":
                desk.mark_paid(entry, by=request.user, paid=False)
                done = _("Payment of %(name)s taken back.")
            else:
                raise Http404
        except DomainError as error:
            messages.error(request, error.message)
        else:
            counts = desk.checkin_counts(t)
            messages.success(request, (done % {"name": f"{entry.number} {entry.name}"}) + " "
                             + counts_text(counts, desk.fee_of(t) is not None) + ".")
            if action in ("paid", "unpaid"):
                warn_if_prizes_change(request, t)
        return redirect(desk_url(t, "checkin"))


def matching(entries, query: str) -> list:
    """The entrants a typed text finds: the number first, then names (and a team's players) containing it."""
    text = same_name(query)
    by_number = [e for e in entries if str(e.number) == text]
    by_name = [e for e in entries if e not in by_number and text in searchable(e)]
    return by_number + by_name


def searchable(entry) -> str:
    names = [entry.name]
    if isinstance(entry, Team):
        names += [p.name for p in entry.members.all()]
    return same_name(" ".join(names))


class NoShowsView(DirectorRequiredMixin, View):
    """Withdraw everyone registered who has not arrived, in one step, then back to the draw page."""

    http_method_names = ["post"]

    def post(self, request, *args, **kwargs):
        t = self.tournament
        back = request.POST.get("next", "")
        if not back.startswith("/") or not url_has_allowed_host_and_scheme(
                back, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
            back = desk_url(t, "checkin")
        try:
            missing = desk.withdraw_no_shows(t, by=request.user)
        except DomainError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, _("%(count)s withdrawn who did not arrive: %(names)s.") % {
                "count": len(missing), "names": ", ".join(e.name for e in missing)})
        return HttpResponseRedirect(back)  # an address, never a view name (redirect() would try to reverse it)
