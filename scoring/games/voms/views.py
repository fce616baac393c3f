"""Voms pages for the director and the referee table. Views parse input, call one service, render."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.generic import FormView, TemplateView, View

from scoring.board_views import ProblemsBoardView, opened_from_board
from scoring.link_pages import problem_rows
from scoring.models import PendingSheet, TableProblem
from scoring.results.double_entry import decided_message, pending_of
from scoring.results.problems import close_problem
from scoring.results.views import CONFIRMED, DECIDED, FIRST_ENTRY, EntryFlow
from scoring.results.words import entered_by_label, user_name
from scoring.templatetags.voms import points as show_points
from tournament.draw.bracket import round_name
from tournament.models import Match, Stage, Team
from tournament.permissions import DirectorRequiredMixin, ScoreEntryMixin, is_director
from tournament.services.errors import DomainError
from tournament.views.replay import ReplayGuard

from . import services
from .forms import (
    CONFIRM_FIELDS,
    CorrectionForm,
    DrawForm,
    ImportForm,
    IndividualForm,
    KnockoutForm,
    SeriesCorrectionForm,
    SeriesGameForm,
    SettingsForm,
    SlipForm,
    semifinal_choices,
    slip_fields,
)
from .standings import cached_standings_page, lot_seed, pool_tables, qualifiers_from


def url(tournament, name: str, *args) -> str:
    return reverse(f"tournament:voms:{name}", args=[tournament.slug, *args])


def pool_count(tournament) -> int:
    """The pools drawn, or (before the draw) the pools the settings plan: the knockout's forms follow it."""
    stage = pools_stage(tournament)
    if stage is not None:
        return stage.pools.count()
    return int(services.settings_of(tournament)["pools"])


def pools_stage(tournament):
    return Stage.objects.filter(tournament=tournament, kind=Stage.Kind.POOLS).first()


def fail(form, error: DomainError):
    form.add_error(error.field if error.field in form.fields else None, error.message)


class OverviewView(ScoreEntryMixin, TemplateView):
    template_name = "voms/overview.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        t = self.tournament
        context.update(
            teams=services.active_teams(t).count(),
            stage=pools_stage(t),
            knockout=services.knockout_stage(t),
            settings=services.settings_of(t),
        )
        return context


class SettingsView(DirectorRequiredMixin, FormView):
    template_name = "voms/form_page.html"
    form_class = SettingsForm

    def get_initial(self):
        s = services.settings_of(self.tournament)
        return {**s, "start_time": s["start_time"]}

    def form_valid(self, form):
        data = dict(form.cleaned_data)
        data["start_time"] = data["start_time"].strftime("%H:%M")
        for key in ("win_points", "kam_points", "over_points"):
            data[key] = str(data[key].normalize())
        try:
            services.update_settings(self.tournament, by=self.request.user, changes=data)
        except DomainError as error:
            fail(form, error)
            return self.form_invalid(form)
        messages.success(self.request, _("Settings saved."))
        return redirect(url(self.tournament, "overview"))

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "pools": pool_count(self.tournament)}

    def get_context_data(self, **kwargs):
        return {**super().get_context_data(**kwargs), "title": _("Voms settings")}


class TeamsView(DirectorRequiredMixin, ReplayGuard, TemplateView):
    """Players without a partner (paired by lot) and the import of a registration list.

    Teams are registered, corrected and checked in at the registration desk (`tournament/views/desk.py`).
    """

    template_name = "voms/teams.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        t = self.tournament
        context.setdefault("individual_form", IndividualForm(prefix="single"))
        context.setdefault("import_form", ImportForm(prefix="import"))
        context.update(
            singles=services.players_without_team(t),
            drawn=pools_stage(t) is not None,
        )
        return context

    def post(self, request, slug):
        action = request.POST.get("action")
        t = self.tournament
        try:
            if action == "single":
                form = IndividualForm(request.POST, prefix="single")
                if not form.is_valid():
                    return self.render_to_response(self.get_context_data(individual_form=form))
                player = services.register_individual(t, by=request.user, name=form.cleaned_data["name"],
                                                      sent=self.sent)
                messages.success(request, _("%(name)s registered without a partner.") % {"name": player.name})
            elif action == "partners":
                teams = services.draw_partners(t, by=request.user, sent=self.sent)
                messages.success(request, _("Partners drawn: %(count)s teams.") % {"count": len(teams)})
                return redirect(reverse("tournament:desk", args=[t.slug]))
            elif action == "import":
                form = ImportForm(request.POST, request.FILES, prefix="import", ask_duplicates=True)
                if not form.is_valid():
                    return self.render_to_response(self.get_context_data(import_form=form))
                upload = form.cleaned_data["file"]
                report = services.import_teams(t, upload.name, upload.read(), by=request.user, sent=self.sent,
                                               confirm_duplicates=form.confirmed)
                if report.held:  # the file is chosen again, with the box ticked
                    return self.render_to_response(self.get_context_data(
                        import_form=ImportForm(prefix="import", ask_duplicates=True), warnings=report.warnings))
                if not report.ok:
                    return self.render_to_response(self.get_context_data(import_form=form, rejected=report.rejected))
                messages.success(request, imported_message(report))
                return redirect(reverse("tournament:desk", args=[t.slug]))
        except DomainError as error:
            messages.error(request, error.message)
        return redirect(url(t, "teams"))


def imported_message(report) -> str:
    """What an import registered: teams with their players, or players without a partner."""
    players = len(report.created)
    if report.teams:
        return ngettext("%(teams)s team with %(players)s players imported.",
                        "%(teams)s teams with %(players)s players imported.",
                        report.teams) % {"teams": report.teams, "players": players}
    return _("%(count)s players imported.") % {"count": players}


class DrawView(DirectorRequiredMixin, FormView):
    template_name = "voms/draw.html"
    form_class = DrawForm

    def get_initial(self):
        return {"pools": services.settings_of(self.tournament)["pools"]}

    def form_valid(self, form):
        try:
            services.draw_pools(self.tournament, by=self.request.user, **form.cleaned_data)
        except DomainError as error:
            fail(form, error)
            return self.form_invalid(form)
        messages.success(self.request, _("Pools drawn."))
        return redirect(url(self.tournament, "draw"))

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(
            tables=pool_tables(self.tournament),
            seed=lot_seed(self.tournament),
            locked=services.play_started(self.tournament),
            without_pool=services.teams_without_pool(self.tournament),
        )
        return context


class ScheduleView(ScoreEntryMixin, TemplateView):
    template_name = "voms/schedule.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        stage = pools_stage(self.tournament)
        rounds = []
        if stage:
            matches = Match.objects.filter(stage=stage).select_related("round", "pool", "team_a", "team_b", "sheet")
            state = services.pool_state(self.tournament, stage)
            by_round = {}
            for m in matches:
                result = state.result(m.pk)
                m.name_a = services.with_note(str(m.team_a), state.marks, m.team_a_id)
                m.name_b = services.with_note(str(m.team_b), state.marks, m.team_b_id) if m.team_b else ""
                m.decided = ""
                if result is not None and result.disqualified:
                    m.decided = (_("void") if result.outcome == "void" else
                                 f"{result.game.lus_a} : {result.game.lus_b} ({_('forfeit')})")
                by_round.setdefault(m.round, []).append(m)
            rounds = sorted(by_round.items(), key=lambda item: item[0].number)
        context.update(rounds=rounds, seed=lot_seed(self.tournament))
        return context


class SlipEntryView(ScoreEntryMixin, EntryFlow, FormView):
    """The referee table: table number, lus A, lus B, Enter. Current round first."""

    template_name = "voms/enter.html"
    form_class = SlipForm

    def stage(self):
        return pools_stage(self.tournament)

    def get_initial(self):
        stage = self.stage()
        rnd = services.current_round(stage) if stage else None
        asked = self.request.GET.get("round", "")
        return {"round": asked if asked.isdigit() and len(asked) < 5 else (rnd.number if rnd else 1)}

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "max_lus": services.rules_settings(self.tournament).max_lus}

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        form = context["form"]
        if form.is_bound and form.errors:
            form.focus_first_error()
        stage = self.stage()
        lookup, recent, missing, current = {}, [], [], None
        if stage:
            state = services.pool_state(self.tournament, stage)
            director = is_director(self.request.user, self.tournament)
            matches = Match.objects.filter(stage=stage, team_b__isnull=False).select_related(
                "round", "pool", "team_a", "team_b", "sheet")
            for m in matches:
                lookup.setdefault(str(m.round.number), {})[str(m.table_number)] = preview(
                    self.tournament, m, state, director)
            recent = list(
                Match.objects.filter(stage=stage, sheet__isnull=False)
                .select_related("round", "team_a", "team_b", "sheet").order_by("-sheet__updated_at")[:8]
            )
            for m in recent:  # a disqualified team is marked with its round here too
                m.name_a = services.with_note(str(m.team_a), state.marks, m.team_a_id)
                m.name_b = services.with_note(str(m.team_b), state.marks, m.team_b_id)
                m.note = slip_note(m.sheet.derived["games"][0], state.result(m.pk))
            current = services.current_round(stage)
            missing = still_missing(stage, state, current)
        pending = self.pending_slips(stage)
        # opened from the round's board: the focus goes to that slip's Confirm, and confirming returns there
        asked = self.request.GET.get("match", "")
        focus = int(asked) if opened_from_board(self.request) and asked.isdigit() else None
        if focus is not None and any(row["match"].pk == focus and not row["mine"] for row in pending):
            for field in form.fields.values():
                field.widget.attrs.pop("autofocus", None)
        context.update(problems=open_problems(self.tournament), lookup=lookup, recent=recent, stage=stage,
                       target=services.rules_settings(self.tournament).target,
                       double_entry=self.tournament.double_entry, pending=pending,
                       missing=missing, current=current, confirm_fields=CONFIRM_FIELDS,
                       from_board=opened_from_board(self.request), focus_match=focus)
        return context

    def pending_slips(self, stage) -> list[dict]:
        """First entries awaiting a second person (double entry), oldest first: the evening's open work."""
        if stage is None:
            return []
        rows = (PendingSheet.objects.filter(match__stage=stage)
                .select_related("match__round", "match__team_a", "match__team_b", "entered_by")
                .order_by("match__round__number", "match__table_number"))
        return [{"pending": p, "match": p.match, "fields": slip_fields(p.entries)[0][1], "who": entered_by_label(p),
                 "mine": p.entered_by_id == self.request.user.pk} for p in rows]

    def post(self, request, *args, **kwargs):
        if request.POST.get("action") == "confirm":
            # the Confirm button of a first entry: a second person (or a director deciding) lets it count
            self.match = get_object_or_404(Match.objects.select_related("round", "team_a", "team_b", "stage"),
                                           stage__tournament=self.tournament, pk=self.request.POST.get("match") or 0)
            return self.confirm()
        return super().post(request, *args, **kwargs)

    # --- the entry protocol's hooks (scoring.results.views.EntryFlow) ------------------------------------

    def entry_fields(self):
        return slip_fields

    def confirm_first_entry(self, *, expected_version):
        services.confirm_slip(self.match, by=self.request.user, expected_version=expected_version)

    def confirmed_message(self) -> str:
        return (_("Round %(round)s, table %(table)s: the slip is confirmed and counts now.")
                % {"round": self.match.round.number, "table": self.match.table_number})

    def board_part(self) -> str:
        return str(self.match.round.number)

    def confirmed_url(self) -> str:
        return url(self.tournament, "enter") + f"?round={round_after(self.match.stage, self.match.round.number)}"

    def confirm_refused_url(self) -> str:
        return self.confirmed_url()

    def show_stale(self, stale, entries):
        return self.entered_already(self.form, stale.sheet)

    def show_differs(self, differ, entries, compared):
        """A second entry unlike the first: both side by side, the differing inputs marked, nothing saved."""
        mark_differences(self.form, compared["two"])
        return self.render_to_response(self.get_context_data(
            form=self.form, conflict_match=self.match, conflict_pending=differ.pending, **compared))

    def form_valid(self, form):
        d = form.cleaned_data
        stage = self.stage()
        match = Match.objects.filter(stage=stage, round__number=d["round"], table_number=d["table"]).first()
        if match is None:
            form.add_error("table", _("There is no game at table %(table)s in round %(round)s.")
                           % {"table": d["table"], "round": d["round"]})
            return self.form_invalid(form)
        waiting = pending_of(match=match)
        self.form, self.match = form, match
        try:
            # version 0: a new slip; one saved meanwhile (or before) is shown beside this one, never replaced
            sheet = self.record(lambda **flow: services.record_slip(
                match, by=self.request.user, entry=form.entry(), expected_version=0,
                confirm_disqualify=d["confirm_disqualify"], **flow), [form.entry()])
        except DomainError as error:
            fail(form, error)
            return self.form_invalid(form)
        if self.answered(sheet):
            return sheet
        teams = {"round": d["round"], "table": d["table"], "a": match.team_a, "b": match.team_b}
        outcome = self.outcome(sheet, had_first_entry=waiting is not None)
        if outcome == FIRST_ENTRY:
            messages.success(self.request, _(
                "Round %(round)s, table %(table)s: first entry saved. It counts once a second person enters "
                "the slip again or confirms it."
            ) % teams)
        else:
            game = sheet.derived["games"][0]
            text = _("Round %(round)s, table %(table)s: %(a)s %(lus_a)s : %(lus_b)s %(b)s — points %(pa)s : %(pb)s")
            if outcome == DECIDED:
                # a director decided between two different entries: not "the same"
                text = decided_message(sheet) + " " + text
            elif outcome == CONFIRMED:
                text = _("Confirmed (same as the first entry). ") + text
            messages.success(self.request, text % {**teams, "lus_a": game["lus_a"], "lus_b": game["lus_b"],
                                                   "pa": show_points(game["points_a"]),
                                                   "pb": show_points(game["points_b"])})
            announce_disqualifications(self.request, sheet)
        return redirect(url(self.tournament, "enter") + f"?round={round_after(stage, d['round'])}")

    def entered_already(self, form, sheet):
        """The slip was entered already (maybe a moment ago by someone else): both versions, nothing saved."""
        d = form.cleaned_data
        message = _("The slip of table %(table)s in round %(round)s has been entered already; a director can "
                    "correct it.") % {"table": d["table"], "round": d["round"]}
        form.add_error("table", message)
        two = self.stale_versions(sheet.entries, [form.entry()], intro=message,
                                  first_label=_("Saved version (%(who)s)") % {"who": user_name(sheet.entered_by)})
        return self.render_to_response(self.get_context_data(form=form, two=two, entered=sheet))


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
        if match is not None and services.is_series(match):
            return redirect(url(self.tournament, "series", match.pk))
        return redirect(url(self.tournament, "enter"))


def slip_note(game: dict, result) -> str:
    """What a slip's lus alone do not say: a forfeit (9:0 for an absent team, not a kam), or a game a later
    disqualification decided (the typed lus stay on the slip, the game counts 9:0 for the opponent, or void)."""
    if result is not None and result.disqualified:
        return _("void") if result.outcome == "void" else _("counts 9:0 for the opponent")
    if game.get("kind") == "forfeit":
        return _("absent: %(side)s") % {"side": "A" if game["winner"] == "b" else "B"}
    return ""


def preview(tournament, match: Match, state: services.PoolState, director: bool) -> dict:
    """What the entry page shows under the form for a typed round and table (voms/enter.js)."""
    entry = {"a": services.with_note(str(match.team_a), state.marks, match.team_a_id),
             "b": services.with_note(str(match.team_b), state.marks, match.team_b_id),
             "pool": _("Pool %(pool)s") % {"pool": match.pool.name} if match.pool else "", "done": False}
    result = state.result(match.pk)
    sheet = getattr(match, "sheet", None)
    if result is not None and result.disqualified:
        teams = {"a": match.team_a, "b": match.team_b}
        entry["status"] = " · ".join(
            services.with_note(str(teams[side]), state.marks, teams[side].pk) for side in result.disqualified)
        entry["status"] += " · " + (_("void") if result.outcome == "void" else _("counts 9:0 for the opponent"))
        entry["done"] = True
    elif sheet is not None:
        game = sheet.derived["games"][0]
        lus = (_("absent: %(side)s") % {"side": "A" if game["winner"] == "b" else "B"} if game["kind"] == "forfeit"
               else f"{game['lus_a']}:{game['lus_b']}")
        entry["status"] = _("already entered %(lus)s") % {"lus": lus}
        entry["done"] = True
        if director:
            entry["correct"] = url(tournament, "correct", match.pk)
            entry["correct_label"] = str(_("Correct"))
    return entry


def round_after(stage, typed: int) -> int:
    """The round the entry form shows after a slip of round `typed` was saved: that round while a game of it still
    waits for its slip, else the first round that does (the one "Still missing" lists), so that the Round field
    and the list never name two different rounds after a round's last slip."""
    derivation = services.pool_state(stage.tournament, stage).derivation
    if any(slot.round == typed for slot in derivation.missing()):
        return typed
    following = derivation.first_open_round()
    return following if following is not None else typed


def still_missing(stage, state: services.PoolState, current) -> list[Match]:
    """The games of the current round still waiting for their slip (a disqualification's games are decided)."""
    if current is None:
        return []
    open_pks = [slot.key for slot in state.derivation.missing() if slot.round == current.number]
    return list(Match.objects.filter(pk__in=open_pks).select_related("team_a", "team_b", "pool")
                .order_by("table_number"))


def announce_disqualifications(request, sheet) -> None:
    """Say what a counted slip changed: a team disqualified, or a disqualification lifted by a correction."""
    changed = {**getattr(sheet, "disqualified", {}), **getattr(sheet, "reinstated", {})}
    names = {team.pk: team.name for team in Team.objects.filter(pk__in=changed)}
    for team_id, rnd in getattr(sheet, "disqualified", {}).items():
        messages.warning(request, _("%(team)s is disqualified in round %(round)s: its later games count 9:0 for "
                                    "the opponents.") % {"team": names[team_id], "round": rnd})
    for team_id in getattr(sheet, "reinstated", {}):
        messages.warning(request, _("%(team)s is no longer disqualified: its later results count again.")
                         % {"team": names[team_id]})


class CorrectSlipView(DirectorRequiredMixin, EntryFlow, FormView):
    template_name = "voms/correct.html"
    form_class = CorrectionForm

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "max_lus": services.rules_settings(self.tournament).max_lus}

    def get_match(self):
        return get_object_or_404(
            Match.objects.select_related("team_a", "team_b", "round", "sheet"),
            stage__tournament=self.tournament, pk=self.kwargs["match"], sheet__isnull=False,
        )

    def get_initial(self):
        entry = self.get_match().sheet.entries[0]
        if entry.get("absent"):
            initial = {"lus_a": "x" if entry["absent"] == "a" else "", "lus_b": "x" if entry["absent"] == "b" else ""}
        else:
            initial = {"lus_a": entry["lus_a"], "lus_b": entry["lus_b"], "winner": entry.get("winner", ""),
                       "confirm_low_winner": entry.get("confirm_low_winner", False),
                       "confirm_high_lus": entry.get("confirm_high_lus", False)}
        return {**initial, "version": self.get_match().sheet.version}

    def get_context_data(self, **kwargs):
        match = self.get_match()
        context = super().get_context_data(**kwargs)
        if context["form"].is_bound and context["form"].errors:
            context["form"].focus_first_error()
        result = services.pool_state(self.tournament, match.stage).result(match.pk)
        return {**context, "match": match, "revisions": match.sheet.revisions.select_related("by"),
                "confirm_fields": CONFIRM_FIELDS,
                "overridden": result is not None and bool(result.disqualified)}

    def form_valid(self, form):
        match = self.get_match()
        self.form = form
        try:
            sheet = self.record(lambda **flow: services.record_slip(
                match, by=self.request.user, entry=form.entry(), expected_version=form.cleaned_data["version"],
                reason=form.cleaned_data["reason"], confirm_disqualify=form.cleaned_data["confirm_disqualify"],
                **flow), [form.entry()], decision=False)
        except DomainError as error:
            fail(form, error)
            return self.form_invalid(form)
        if self.answered(sheet):
            return sheet
        messages.success(self.request, _("Slip corrected."))
        announce_disqualifications(self.request, sheet)
        # back where the correction was opened from (the entry page's list, or its "already entered" line), in the
        # slip's round: the referee table goes on typing slips, and the corrected one is marked there
        return redirect(url(self.tournament, "enter") + f"?round={match.round.number}")

    def entry_fields(self):
        return slip_fields

    def show_stale(self, stale, entries):
        form = self.form
        two = self.stale_versions(stale.sheet.entries, entries, intro=stale.message,
                                  first_label=_("Saved meanwhile (version %(version)s)")
                                  % {"version": stale.sheet.version})
        fail(form, stale)
        form.data = form.data.copy()
        form.data["version"] = stale.sheet.version  # saving again replaces the saved version on purpose
        return self.render_to_response(self.get_context_data(form=form, stale=stale.sheet, two=two))


class BoardView(ScoreEntryMixin, ProblemsBoardView):
    """The round's board (`scoring.board_views`) under the Voms menu."""

    nav_template = "voms/_nav.html"


class StandingsView(ScoreEntryMixin, TemplateView):
    template_name = "voms/standings.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["page"] = cached_standings_page(self.tournament)
        return context


class KnockoutView(DirectorRequiredMixin, FormView):
    template_name = "voms/knockout.html"
    form_class = KnockoutForm

    def get_initial(self):
        s = services.settings_of(self.tournament)
        stage = services.knockout_stage(self.tournament)
        built = {k: v for k, v in (stage.settings if stage else {}).items() if v is not None}
        return {k: built.get(k, s[k]) for k in ("qualifiers_per_pool", "third_place", "semifinal")}

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "built": services.knockout_stage(self.tournament) is not None,
                "pools": pool_count(self.tournament)}

    def form_valid(self, form):
        d = form.cleaned_data
        tables = pool_tables(self.tournament)
        if not tables:
            form.add_error(None, _("Draw the pools first."))
            return self.form_invalid(form)
        if not all(t.complete for t in tables) and not self.request.POST.get("force"):
            form.add_error(None, _("Not every pool game has a result yet. Tick “build anyway” to continue."))
            return self.form_invalid(form)
        qualifiers = qualifiers_from(tables, d["qualifiers_per_pool"])
        try:
            services.create_knockout(self.tournament, by=self.request.user, qualifiers=qualifiers,
                                     third_place=d["third_place"], semifinal=d["semifinal"],
                                     qualifiers_per_pool=d["qualifiers_per_pool"],
                                     confirm_rebuild=d.get("confirm_rebuild", False))
        except DomainError as error:
            fail(form, error)
            return self.form_invalid(form)
        messages.success(self.request, _("Knockout built."))
        return redirect(url(self.tournament, "knockout"))

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        bracket = knockout_rounds(self.tournament)
        stage = services.knockout_stage(self.tournament)
        origins = team_origins(stage) if stage else {}
        for _name, matches in bracket:
            for m in matches:
                m.origin_a, m.origin_b = origins.get(m.team_a_id, ""), origins.get(m.team_b_id, "")
        tables = pool_tables(self.tournament)
        context.update(bracket=bracket, built=built_with(stage) if stage else None,
                       winner=knockout_winner(self.tournament, bracket),
                       played=services.knockout_played(self.tournament),
                       # "build anyway" only while a pool game still has no result: else it only makes one wonder
                       pools_incomplete=not tables or not all(t.complete for t in tables))
        return context


def team_origins(stage) -> dict[int, str]:
    """Where each knockout team came from: its pool and place ("A1", "C2")."""
    from tournament.draw.pools import pool_name

    return {team: f"{pool_name(pool)}{place}" for pool, place, team in stage.settings.get("qualifiers", [])}


def built_with(stage) -> list[tuple[str, str]]:
    """The options the knockout was built with, to show before it is rebuilt."""
    s = stage.settings
    semifinal = dict(semifinal_choices(pool_count(stage.tournament)))
    rows = [(_("Qualified teams"), ", ".join(sorted(team_origins(stage).values())))]
    if s.get("qualifiers_per_pool"):
        rows.insert(0, (_("Teams per pool in the knockout"), str(s["qualifiers_per_pool"])))
    rows += [(_("Semifinal"), str(semifinal.get(s.get("semifinal"), ""))),
             (_("Play a match for third place"), _("yes") if s.get("third_place") else _("no"))]
    return rows


def knockout_winner(tournament, bracket) -> Team | None:
    """The winner of the final, once it is decided."""
    for _name, matches in bracket:
        for m in matches:
            sheet = getattr(m, "sheet", None)
            if m.key == "F" and sheet is not None and sheet.derived.get("finished"):
                return m.team_a if sheet.derived["winner"] == "a" else m.team_b
    return None


def knockout_rounds(tournament) -> list[tuple[str, list[Match]]]:
    """The knockout matches grouped by round, with translated round names."""
    stage = services.knockout_stage(tournament)
    if stage is None:
        return []
    if stage.settings.get("semifinal") == "round_robin":
        sf = Stage.objects.filter(tournament=tournament, kind=Stage.Kind.SEMIFINAL_POOL).first()
        matches = list(Match.objects.filter(stage=sf).select_related("team_a", "team_b", "sheet"))
        finals = {m.key: m for m in stage.matches.select_related("team_a", "team_b", "sheet")}
        out = [(_("Semifinal round robin"), matches)]
        if "3P" in finals:
            out.append((_("Match for third place"), [finals["3P"]]))
        if "F" in finals:
            out.append((_("Final"), [finals["F"]]))
        return out
    bracket = services.bracket_of(stage)
    matches = {m.key: m for m in stage.matches.select_related("team_a", "team_b", "sheet")}
    out = []
    total = len(bracket.rounds)
    for number, rnd in enumerate(bracket.rounds, 1):
        message, params = round_name(number, total)
        out.append((_(message) % params, [matches[m.id] for m in rnd if m.id in matches]))
    if bracket.third_place is not None and "3P" in matches:
        out.insert(len(out) - 1, (_("Match for third place"), [matches["3P"]]))
    return out


def mark_differences(form, two: dict) -> None:
    """A second entry unlike the first: the inputs that differ from the first entry marked on the form."""
    for key in sorted(two["keys"]):
        form.add_error(key if key in form.fields else "lus_a", _("Differs from the first entry."))


def game_winner(game: dict) -> str | None:
    """Who won a raw series game: as written when both teams reached the target, else the one with more lus."""
    if game.get("winner") or game.get("absent"):
        return game.get("winner") or ("b" if game["absent"] == "a" else "a")
    lus_a, lus_b = game.get("lus_a"), game.get("lus_b")
    if lus_a is None or lus_b is None or lus_a == lus_b:
        return None
    return "a" if lus_a > lus_b else "b"


class SeriesView(ScoreEntryMixin, EntryFlow, FormView):
    """Enter the next game of a best-of-N series."""

    template_name = "voms/series.html"
    form_class = SeriesGameForm

    def get_match(self):
        return get_object_or_404(Match.objects.select_related("team_a", "team_b", "stage"),
                                 stage__tournament=self.tournament, pk=self.kwargs["match"],
                                 stage__kind__in=[Stage.Kind.KNOCKOUT, Stage.Kind.SEMIFINAL_POOL])

    def base_games(self, match, sheet) -> list[dict]:
        """The games the next one follows: under double entry the first person goes on from their own entry;
        anyone else types the game again after the counted ones."""
        pending = pending_of(match=match)
        mine = pending is not None and pending.entered_by_id == self.request.user.pk
        return list(pending.entries if mine else sheet.entries if sheet else [])

    def get_initial(self):
        # the version shown and the number of the game typed: a form sent again, or a game entered
        # meanwhile by someone else, is then recognised instead of being added as one more game
        match = self.get_match()
        sheet = getattr(match, "sheet", None)
        return {"version": sheet.version if sheet else 0, "game": len(self.base_games(match, sheet)) + 1}

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "max_lus": services.rules_settings(self.tournament).max_lus}

    def get_context_data(self, **kwargs):
        match = self.get_match()
        sheet = getattr(match, "sheet", None)
        pending = pending_of(match=match)
        counted = len(sheet.entries) if sheet else 0
        context = super().get_context_data(**kwargs)
        if context["form"].is_bound and context["form"].errors:
            context["form"].focus_first_error()
        correction = kwargs.get("correction")
        if correction is None and sheet is not None and is_director(self.request.user, self.tournament):
            correction = SeriesCorrectionForm(prefix="fix", games=len(sheet.entries),
                                              max_lus=services.rules_settings(self.tournament).max_lus,
                                              initial={"version": sheet.version, "number": len(sheet.entries)})
        return {**context, "match": match, "sheet": sheet, "correction": correction,
                "problems": open_problems(self.tournament, match=match),
                "confirm_fields": CONFIRM_FIELDS,
                "revisions": sheet.revisions.select_related("by", "confirmed_by") if sheet else [],
                "games": sheet.derived["games"] if sheet else [],
                "pending": pending, "from_board": opened_from_board(self.request),
                "pending_mine": pending is not None and pending.entered_by_id == self.request.user.pk,
                # the games of a first entry that do not count yet, numbered as in the series
                "pending_games": [(number, {**game, "winner": game_winner(game)})
                                  for number, game in enumerate(pending.entries, start=1)][counted:] if pending else []}

    def post(self, request, *args, **kwargs):
        if request.POST.get("action") == "confirm":
            return self.confirm()
        if request.POST.get("action") == "correct":
            return self.correct()
        match = self.get_match()
        if getattr(match, "sheet", None) is not None and match.sheet.derived.get("finished"):
            messages.error(request, _("The series is decided: no game is added. A director corrects a game with the "
                                      "form below."))
            return redirect(url(self.tournament, "series", match.pk))
        return super().post(request, *args, **kwargs)

    def correct(self):
        """A director corrects one game of the series (reason, audited, as a pool slip)."""
        match = self.get_match()
        sheet = getattr(match, "sheet", None)
        if sheet is None or not is_director(self.request.user, self.tournament):
            raise PermissionDenied
        form = SeriesCorrectionForm(self.request.POST, prefix="fix", games=len(sheet.entries),
                                    max_lus=services.rules_settings(self.tournament).max_lus)
        if form.is_valid():
            d = form.cleaned_data
            game = services.slip_entry(lus_a=d["lus_a"], lus_b=d["lus_b"], winner=d["winner"] or None,
                                       confirm_low_winner=d["confirm_low_winner"],
                                       confirm_high_lus=d["confirm_high_lus"])
            try:
                services.correct_series_game(match, by=self.request.user, number=d["number"], game=game,
                                             reason=d["reason"], expected_version=d["version"])
            except DomainError as error:
                fail(form, error)
            else:
                messages.success(self.request, _("Game %(number)s corrected.") % {"number": d["number"]})
                return redirect(url(self.tournament, "series", match.pk))
        form.focus_first_error()
        return self.render_to_response(self.get_context_data(correction=form))

    # --- the entry protocol's hooks (scoring.results.views.EntryFlow) ------------------------------------

    def entry_fields(self):
        return slip_fields

    def confirm_first_entry(self, *, expected_version):
        """The Confirm button of a first entry of series games: a second person (or a deciding director)."""
        services.confirm_slip(self.get_match(), by=self.request.user, expected_version=expected_version)

    def board_part(self) -> str:
        return "ko"

    def confirmed_url(self) -> str:
        return url(self.tournament, "series", self.kwargs["match"])

    def confirm_refused_url(self) -> str:
        return self.confirmed_url()

    def show_stale(self, stale, entries):
        """Someone saved the series since this form was shown: both versions, nothing saved, the form afresh."""
        sheet = stale.sheet
        two = self.stale_versions(
            sheet.entries, entries,
            intro=_("The series was saved meanwhile by %(who)s; nothing was saved from your form. The games that "
                    "count are listed above: type the next game only if it was played.")
            % {"who": user_name(sheet.entered_by)},
            first_label=_("Saved meanwhile (version %(version)s)") % {"version": sheet.version})
        fresh = self.get_form_class()(initial=self.get_initial())
        return self.render_to_response(self.get_context_data(form=fresh, two=two, stale=True))

    def show_differs(self, differ, entries, compared):
        """A game typed unlike the first entry: both side by side, the differing inputs marked, nothing saved."""
        mark_differences(self.form, compared["two"])
        return self.render_to_response(self.get_context_data(form=self.form, **compared))

    def form_valid(self, form):
        match = self.get_match()
        sheet = getattr(match, "sheet", None)
        games = self.base_games(match, sheet)
        d = form.cleaned_data
        if d.get("game") and d["game"] <= len(games):
            games = games[:d["game"] - 1]  # the list grew since the form was shown: this game's own place
        games.append(services.slip_entry(lus_a=d["lus_a"], lus_b=d["lus_b"], winner=d["winner"] or None,
                                         confirm_low_winner=d["confirm_low_winner"],
                                         confirm_high_lus=d["confirm_high_lus"]))
        version = d.get("version")
        self.form = form
        try:
            saved = self.record(lambda **flow: services.record_series(
                match, by=self.request.user, games=games,
                expected_version=version if version is not None else sheet.version if sheet else None, **flow),
                games)
        except DomainError as error:
            fail(form, error)
            return self.form_invalid(form)
        if self.answered(saved):
            return saved
        if self.outcome(saved, had_first_entry=False) == FIRST_ENTRY:
            messages.success(self.request, _("Game %(number)s entered. It counts once a second person enters it "
                                             "again identically.") % {"number": len(games)})
            return redirect(url(self.tournament, "series", match.pk))
        messages.success(self.request,
                         decided_message(saved) or _("Game %(number)s recorded.") % {"number": len(games)})
        return redirect(url(self.tournament, "series", match.pk))
