"""`EntryFlow`: the sheet-entry protocol, once, for every page where a result is typed.

Every entry page (a Voms slip, a Voms series, a Schafkopf list, a table game's or a patience's sheet)
does the same around its own grid: it saves through its game's service with the decision buttons' keywords
and the form's replay key; a sheet saved meanwhile (`StaleVersion`) and a second entry unlike the first
(`EntriesDiffer`) come back as both versions side by side (`compare.two_versions`), the differing inputs
marked and, for a director who did not make the first entry, the buttons to decide which counts; the
Confirm button lets a first entry count and goes back where the page was opened from (the round's board,
or the page itself). A page supplies the hooks below; the protocol is here.

Hooks (a page overrides what it has):
- `entry_fields()`: how its entries read as labelled fields (`compare.Fields`; the keys are its inputs).
- `confirm_first_entry(expected_version=, report=)`: its game's confirm service for the page's place (`report`:
  a seat's or a team's report to count instead of the first entry, two agreeing reports count).
- `confirmed_message()`, `confirmed_url()`, `board_part()`: what confirming says and where it goes.
- `confirm_refused(error)`: a confirmation refused (default: the message, back to `confirm_refused_url()`).
- `show_stale(stale, entries)`: the page again after `StaleVersion`, with `stale_versions(...)`.
- `show_differs(differ, entries, compared)`: the page again after `EntriesDiffer`; `compared` holds
  `two` (both entries) and `can_decide`.
- `differs_intro`: the text under "The two entries differ" (None: the service's message).
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.http.response import HttpResponseBase
from django.shortcuts import redirect
from django.utils.translation import gettext as _

from scoring.board_views import board_url, opened_from_board
from tournament.permissions import is_director
from tournament.services.errors import DomainError
from tournament.views.replay import ReplayGuard

from .compare import Fields, two_versions
from .counting import differing_reports
from .double_entry import EntriesDiffer, decided_message, posted_decision
from .recording import StaleVersion
from .words import entered_by_label

#: what a save came to (`EntryFlow.outcome`)
FIRST_ENTRY, DECIDED, CONFIRMED, SAVED = "first_entry", "decided", "confirmed", "saved"


def posted_number(text: str | None) -> int | None:
    """A version a page's own hidden field posted, or None when there is none (or it cannot be read)."""
    text = str(text or "")
    return int(text) if text.isdigit() else None


class EntryFlow(ReplayGuard):
    """The sheet-entry protocol (save, saved meanwhile, entries differ, decide, confirm); see the module."""

    differs_intro: str | None = None

    # --- hooks ---------------------------------------------------------------------------------------

    def entry_fields(self) -> Fields:
        raise NotImplementedError

    def confirm_first_entry(self, *, expected_version: int | None, report: int | None = None):
        raise NotImplementedError

    def confirmed_message(self) -> str:
        return _("The sheet is confirmed and counts now.")

    def confirmed_url(self) -> str:
        return self.request.path

    def board_part(self) -> str | None:
        return None

    def confirm_refused_url(self) -> str:
        return self.request.path + ("?from=board" if opened_from_board(self.request) else "")

    def confirm_refused(self, error: DomainError) -> HttpResponseBase:
        messages.error(self.request, error.message)
        return redirect(self.confirm_refused_url())

    def show_stale(self, stale: StaleVersion, entries) -> HttpResponseBase:
        raise NotImplementedError

    def show_differs(self, differ: EntriesDiffer, entries, compared: dict) -> HttpResponseBase:
        raise NotImplementedError

    # --- the protocol ----------------------------------------------------------------------------------

    def record(self, save: Callable[..., object], entries, *, decision: bool = True):
        """Run `save` (the game's entry service for this page, taking `sent` and, with `decision`, the decision
        keywords): the saved sheet (or first entry), or the page again when it was saved meanwhile or differs
        from the first entry. Other refusals (`DomainError`) are the page's to show."""
        keywords = {"sent": self.sent, **(posted_decision(self.request.POST) if decision else {})}
        try:
            return save(**keywords)
        except StaleVersion as stale:
            return self.show_stale(stale, entries)
        except EntriesDiffer as differ:
            return self.show_differs(differ, entries, self.compared(differ))

    @staticmethod
    def answered(result) -> bool:
        """True when `record` answered with a page instead of a saved sheet."""
        return isinstance(result, HttpResponseBase)

    def confirm(self) -> HttpResponseBase:
        """The Confirm button of a first entry: a second person (or a director) lets it count as it stands."""
        try:
            self.confirm_first_entry(expected_version=posted_number(self.request.POST.get("pending_version")),
                                     report=posted_number(self.request.POST.get("report")))
        except DomainError as error:
            return self.confirm_refused(error)
        messages.success(self.request, self.confirmed_message())
        if opened_from_board(self.request):
            return redirect(board_url(self.tournament, self.board_part()))
        return redirect(self.confirmed_url())

    def outcome(self, saved, *, had_first_entry: bool) -> str:
        """What a save came to: a first entry awaiting a second person, a director's decision, a first entry
        confirmed by typing it again, or a plain save (an entry, games added, a correction)."""
        if not saved.counted:
            return FIRST_ENTRY
        if decided_message(saved):
            return DECIDED
        return CONFIRMED if had_first_entry else SAVED

    def versions(self, first, second, *, title: str, intro: str, first_label: str, second_label: str) -> dict:
        """Two versions of this page's entries, only where they differ (`templates/scoring/_two_versions.html`)."""
        return two_versions(first, second, self.entry_fields(), title=title, intro=intro, first_label=first_label,
                            second_label=second_label)

    def stale_versions(self, saved, mine, *, intro: str, first_label: str) -> dict:
        """The version saved meanwhile beside the one in the form."""
        return self.versions(saved, mine, title=_("Two versions"), intro=intro, first_label=first_label,
                             second_label=_("Your version"))

    def differing_reports(self, pending) -> list[dict]:
        """The reports of seats' (teams') links that differ from the first entry, each beside it
        (`templates/scoring/_reports.html`): the referee lets one of them count, or the first entry."""
        first = entered_by_label(pending) if pending is not None else ""
        shown = []
        for report in differing_reports(pending):
            holder = report.link.holder_label
            two = self.versions(pending.entries, report.entries, title=_("A different report from %(holder)s")
                                % {"holder": holder}, intro="", first_label=_("First entry (%(who)s)") % {"who": first},
                                second_label=_("Report of %(holder)s") % {"holder": holder})
            shown.append({"report": report, "holder": holder, "two": {**two, "id": f"report-{report.pk}"}})
        return shown

    def compared(self, differ: EntriesDiffer) -> dict:
        """Both entries side by side, and whether this user may decide which counts (a director who did not make
        the first entry)."""
        two = self.versions(differ.pending.entries, differ.entries, title=_("The two entries differ"),
                            intro=str(self.differs_intro) if self.differs_intro else differ.message,
                            first_label=_("First entry (%(who)s)") % {"who": entered_by_label(differ.pending)},
                            second_label=_("Your entry"))
        user = self.request.user
        return {"two": two, "can_decide": (is_director(user, self.tournament)
                                           and differ.pending.entered_by_id != user.pk)}
