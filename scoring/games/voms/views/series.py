"""The page of a knockout (or semifinal round robin) match: its best-of-N series entered game by game,
confirmed, and corrected by a director."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.generic import FormView

from scoring.board_views import opened_from_board
from scoring.results.double_entry import decided_message, pending_of
from scoring.results.views import FIRST_ENTRY, EntryFlow
from scoring.results.words import revision_by_label, user_name
from tournament.models import Match, Stage
from tournament.permissions import ScoreEntryMixin, is_director
from tournament.services.errors import DomainError

from .. import queries
from ..entries import slip_entry
from ..forms import CONFIRM_FIELDS, SeriesCorrectionForm, SeriesGameForm, slip_fields
from ..services.knockout import correct_series_game, record_series
from ..services.slips import confirm_slip
from .common import fail, url
from .entry import mark_differences, open_problems


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
        return {**super().get_form_kwargs(), "max_lus": queries.rules_settings(self.tournament).max_lus}

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
                                              max_lus=queries.rules_settings(self.tournament).max_lus,
                                              initial={"version": sheet.version, "number": len(sheet.entries)})
        revisions = list(sheet.revisions.select_related("by", "confirmed_by", "source_link")) if sheet else []
        for revision in revisions:
            revision.who = revision_by_label(revision)
        return {**context, "match": match, "sheet": sheet, "correction": correction,
                "problems": open_problems(self.tournament, match=match),
                "confirm_fields": CONFIRM_FIELDS,
                "revisions": revisions,
                "games": sheet.derived["games"] if sheet else [],
                "pending": pending, "reports": self.differing_reports(pending),
                "from_board": opened_from_board(self.request),
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
                                    max_lus=queries.rules_settings(self.tournament).max_lus)
        if form.is_valid():
            d = form.cleaned_data
            game = slip_entry(lus_a=d["lus_a"], lus_b=d["lus_b"], winner=d["winner"] or None,
                                       confirm_low_winner=d["confirm_low_winner"],
                                       confirm_high_lus=d["confirm_high_lus"])
            try:
                correct_series_game(match, by=self.request.user, number=d["number"], game=game,
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

    def confirm_first_entry(self, *, expected_version, report=None):
        """The Confirm button of a first entry of series games: a second person (or a deciding director)."""
        confirm_slip(self.get_match(), by=self.request.user, expected_version=expected_version, report=report)

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
        games.append(slip_entry(lus_a=d["lus_a"], lus_b=d["lus_b"], winner=d["winner"] or None,
                                         confirm_low_winner=d["confirm_low_winner"],
                                         confirm_high_lus=d["confirm_high_lus"]))
        version = d.get("version")
        self.form = form
        try:
            saved = self.record(lambda **flow: record_series(
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


def game_winner(game: dict) -> str | None:
    """Who won a raw series game: as written when both teams reached the target, else the one with more lus."""
    if game.get("winner") or game.get("absent"):
        return game.get("winner") or ("b" if game["absent"] == "a" else "a")
    lus_a, lus_b = game.get("lus_a"), game.get("lus_b")
    if lus_a is None or lus_b is None or lus_a == lus_b:
        return None
    return "a" if lus_a > lus_b else "b"
