"""How far the results are: results entered against results expected, for any game.

One helper for every standings page, printout, export, public page and the status of the tournament:
a ranking is final only once every expected result is in; before that it is labelled
"Provisional — after 8 of 18 score lists" (the unit in the game's words: score lists, slips, sheets, deals).

A result is a counted `ScoreSheet` whose game says it is finished (`derived["finished"]`, absent for
games whose sheets are whole when saved, such as Schafkopf's lists). Expected are:
- every table of the seated rounds (Schafkopf, the table games);
- every pool match between two teams, and every match of the knockout stages (Voms), known or not yet
  known who plays it: a final still to be played is a result still missing.
First entries awaiting confirmation (double entry) are counted apart: they are not results yet.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from django.db.models import Exists, Q, TextField
from django.db.models.functions import Cast
from django.utils.functional import lazy
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.games import game_of
from scoring.models import PendingSheet, ScoreSheet
from tournament.models import Match, Stage, Table

#: the unit words, singular and plural, used in the provisional heading
UNITS = ("lists", "slips", "sheets", "deals")


@dataclass(frozen=True)
class ResultProgress:
    entered: int
    expected: int
    #: first entries awaiting a second person's confirmation (double entry)
    awaiting: int = 0
    unit: str = "sheets"

    @property
    def complete(self) -> bool:
        """Every expected result is in (and there is something to expect)."""
        return self.expected > 0 and self.entered >= self.expected

    @property
    def provisional(self) -> bool:
        return not self.complete

    @property
    def missing(self) -> int:
        return max(self.expected - self.entered, 0)

    def after_text(self) -> str:
        """"after 8 of 18 score lists", in the language in force."""
        params = {"entered": self.entered, "expected": self.expected}
        if self.unit == "lists":
            return ngettext("after %(entered)s of %(expected)s score list",
                            "after %(entered)s of %(expected)s score lists", self.expected) % params
        if self.unit == "slips":
            return ngettext("after %(entered)s of %(expected)s slip",
                            "after %(entered)s of %(expected)s slips", self.expected) % params
        if self.unit == "deals":
            return ngettext("after %(entered)s of %(expected)s deal",
                            "after %(entered)s of %(expected)s deals", self.expected) % params
        return ngettext("after %(entered)s of %(expected)s sheet",
                        "after %(entered)s of %(expected)s sheets", self.expected) % params

    def heading(self) -> str:
        """The ranking's heading: "Final ranking" once complete, else "Provisional — after 8 of 18 …"."""
        if self.complete:
            return _("Final ranking")
        return _("Provisional — %(after)s") % {"after": self.after_text()}

    def after_round_heading(self, round_number: int) -> str:
        """The heading of the standings after an earlier round: provisional until that round's results are in."""
        if self.complete:
            return _("Standings after round %(round)s") % {"round": round_number}
        return _("Standings after round %(round)s — provisional, %(after)s") % {
            "round": round_number, "after": self.after_text()}

    def __str__(self) -> str:
        return self.heading()


def _round_heading(progress: ResultProgress, round_number: int) -> str:
    """One round's results as entered: "Round 2", provisional while lists of it are missing."""
    if progress.complete:
        return _("Round %(number)s") % {"number": round_number}
    return _("Round %(round)s — provisional, %(after)s") % {"round": round_number, "after": progress.after_text()}


#: a round's heading, translated when shown (a printout renders in the tournament's language)
lazy_round_heading = lazy(_round_heading, str)


def _heading(progress: ResultProgress, after_round: int | None) -> str:
    return progress.heading() if after_round is None else progress.after_round_heading(after_round)


#: `heading`/`after_round_heading` translated when shown: printouts render in the tournament's language
lazy_heading = lazy(_heading, str)


def is_finished(derived) -> bool:
    return bool(derived.get("finished", True)) if isinstance(derived, dict) else True


def result_progress(tournament, *, after_round: int | None = None) -> ResultProgress:
    """Results entered and expected in `tournament` (the seated rounds up to `after_round`, or all): the one
    helper every standings page, document, export and the tournament's status read."""
    own = game_of(tournament).progress(tournament, after_round=after_round)
    if own is not None:
        return own
    return counted_progress(tournament, after_round=after_round)


def is_finished_text(derived_text: str | None) -> bool:
    """`is_finished` of a sheet's derived values read as JSON text: only a text that mentions "finished" is
    decoded (a Schafkopf list's values never do, and decoding every list on every save grew with the evening)."""
    if derived_text is None or '"finished"' not in derived_text:
        return True
    return is_finished(json.loads(derived_text))


def expected_places(tournament):
    """The tables and matches that expect a result: every table of the seated rounds that has seats, every
    knockout match, and every pool match between two teams."""
    tables = Table.objects.filter(round__stage__tournament=tournament, round__stage__kind=Stage.Kind.ROUNDS,
                                  seats__isnull=False).distinct()
    matches = Match.objects.filter(stage__tournament=tournament).exclude(
        stage__kind=Stage.Kind.POOLS, team_a__isnull=True).exclude(stage__kind=Stage.Kind.POOLS, team_b__isnull=True)
    return tables, matches


def counted_progress(tournament, *, after_round: int | None = None) -> ResultProgress:
    """The counted sheets that are finished against the tables and matches that expect one."""
    tables, matches = expected_places(tournament)
    if after_round is not None:
        tables = tables.filter(round__number__lte=after_round)
        matches = matches.filter(round__number__lte=after_round)
    table_ids = set(tables.values_list("pk", flat=True))
    match_ids = set(matches.values_list("pk", flat=True))
    entered = 0
    for table_id, match_id, derived_text in ScoreSheet.objects.filter(tournament=tournament).values_list(
            "table_id", "match_id", Cast("derived", TextField())):
        if (table_id in table_ids or match_id in match_ids) and is_finished_text(derived_text):
            entered += 1
    awaiting = sum(1 for table_id, match_id in PendingSheet.objects.filter(tournament=tournament).values_list(
        "table_id", "match_id") if table_id in table_ids or match_id in match_ids)
    return ResultProgress(entered=entered, expected=len(table_ids) + len(match_ids), awaiting=awaiting,
                          unit=game_of(tournament).result_unit)


def missing_result_condition(tournament) -> Q | None:
    """A condition on the tournament's row (EXISTS subqueries) that holds when a result is certainly still
    missing, or None when only counting can tell. For a game whose results are the counted sheets
    (`counted_progress`): a table or match that expects a result and has no sheet at all. A game that counts
    otherwise (its `progress` hook, e.g. Voms' forfeits without a sheet) gives it through its `progress_open`
    hook, else None. Lets `sync_status` settle "still running" in its one query instead of counting every sheet
    on every save."""
    game = game_of(tournament)
    if game.offers("progress"):
        return game.progress_open(tournament)
    tables, matches = expected_places(tournament)
    return Q(Exists(tables.filter(sheet__isnull=True))) | Q(Exists(matches.filter(sheet__isnull=True)))

