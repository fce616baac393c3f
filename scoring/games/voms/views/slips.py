"""The referee table's pages for a pool game's slip: enter (table number, lus A, lus B, Enter), confirm a first
entry, and a director's correction."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.generic import FormView

from scoring.board_views import opened_from_board
from scoring.models import PendingSheet
from scoring.results.counting import differing_reports
from scoring.results.double_entry import decided_message, pending_of
from scoring.results.views import CONFIRMED, DECIDED, FIRST_ENTRY, EntryFlow
from scoring.results.words import entered_by_label, revision_by_label, user_name
from tournament.models import Match, Team
from tournament.permissions import DirectorRequiredMixin, ScoreEntryMixin, is_director
from tournament.services.errors import DomainError

from .. import queries
from ..forms import CONFIRM_FIELDS, CorrectionForm, SlipForm, slip_fields
from ..services.slips import confirm_slip, record_slip
from ..text import show_points, with_note
from .common import fail, url
from .entry import mark_differences, open_problems


class SlipEntryView(ScoreEntryMixin, EntryFlow, FormView):
    """The referee table: table number, lus A, lus B, Enter. Current round first."""

    template_name = "voms/enter.html"
    form_class = SlipForm

    def stage(self):
        return queries.pools_stage(self.tournament)

    def get_initial(self):
        stage = self.stage()
        rnd = queries.current_round(stage) if stage else None
        asked = self.request.GET.get("round", "")
        return {"round": asked if asked.isdigit() and len(asked) < 5 else (rnd.number if rnd else 1)}

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "max_lus": queries.rules_settings(self.tournament).max_lus}

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        form = context["form"]
        if form.is_bound and form.errors:
            form.focus_first_error()
        stage = self.stage()
        lookup, recent, missing, current = {}, [], [], None
        if stage:
            state = queries.pool_state(self.tournament, stage)
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
                m.name_a = with_note(str(m.team_a), state.marks, m.team_a_id)
                m.name_b = with_note(str(m.team_b), state.marks, m.team_b_id)
                m.note = slip_note(m.sheet.derived["games"][0], state.result(m.pk))
            current = queries.current_round(stage)
            missing = still_missing(stage, state, current)
        pending = self.pending_slips(stage)
        # opened from the round's board: the focus goes to that slip's Confirm, and confirming returns there
        asked = self.request.GET.get("match", "")
        focus = int(asked) if opened_from_board(self.request) and asked.isdigit() else None
        if focus is not None and any(row["match"].pk == focus and not row["mine"] for row in pending):
            for field in form.fields.values():
                field.widget.attrs.pop("autofocus", None)
        context.update(problems=open_problems(self.tournament), lookup=lookup, recent=recent, stage=stage,
                       target=queries.rules_settings(self.tournament).target,
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
                 "mine": p.entered_by_id == self.request.user.pk,
                 # the teams' reports that differ from it (two agreeing reports count): the referee picks one
                 "reports": [{"report": report, "holder": report.link.holder_label,
                              "fields": slip_fields(report.entries)[0][1]} for report in differing_reports(p)]}
                for p in rows]

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

    def confirm_first_entry(self, *, expected_version, report=None):
        confirm_slip(self.match, by=self.request.user, expected_version=expected_version, report=report)

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
            sheet = self.record(lambda **flow: record_slip(
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


def slip_note(game: dict, result) -> str:
    """What a slip's lus alone do not say: a forfeit (9:0 for an absent team, not a kam), or a game a later
    disqualification decided (the typed lus stay on the slip, the game counts 9:0 for the opponent, or void)."""
    if result is not None and result.disqualified:
        return _("void") if result.outcome == "void" else _("counts 9:0 for the opponent")
    if game.get("kind") == "forfeit":
        return _("absent: %(side)s") % {"side": "A" if game["winner"] == "b" else "B"}
    return ""


def preview(tournament, match: Match, state: queries.PoolState, director: bool) -> dict:
    """What the entry page shows under the form for a typed round and table (voms/enter.js)."""
    entry = {"a": with_note(str(match.team_a), state.marks, match.team_a_id),
             "b": with_note(str(match.team_b), state.marks, match.team_b_id),
             "pool": _("Pool %(pool)s") % {"pool": match.pool.name} if match.pool else "", "done": False}
    result = state.result(match.pk)
    sheet = getattr(match, "sheet", None)
    if result is not None and result.disqualified:
        teams = {"a": match.team_a, "b": match.team_b}
        entry["status"] = " · ".join(
            with_note(str(teams[side]), state.marks, teams[side].pk) for side in result.disqualified)
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
    derivation = queries.pool_state(stage.tournament, stage).derivation
    if any(slot.round == typed for slot in derivation.missing()):
        return typed
    following = derivation.first_open_round()
    return following if following is not None else typed


def still_missing(stage, state: queries.PoolState, current) -> list[Match]:
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
        return {**super().get_form_kwargs(), "max_lus": queries.rules_settings(self.tournament).max_lus}

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
        result = queries.pool_state(self.tournament, match.stage).result(match.pk)
        revisions = list(match.sheet.revisions.select_related("by", "confirmed_by", "source_link"))
        for revision in revisions:
            revision.who = revision_by_label(revision)
        return {**context, "match": match, "revisions": revisions,
                "confirm_fields": CONFIRM_FIELDS,
                "overridden": result is not None and bool(result.disqualified)}

    def form_valid(self, form):
        match = self.get_match()
        self.form = form
        try:
            sheet = self.record(lambda **flow: record_slip(
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
