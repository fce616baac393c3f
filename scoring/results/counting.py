"""When a result counts: the one place that turns what was typed or sent into the sheet that counts.

A result counts (is a `ScoreSheet`, read by standings, documents and the public pages) when:

- **typed at the referee table, without double entry**: at once (`recording.record_sheet`).
- **typed under double entry** (a tournament setting): once a second person types the same again
  (`double_entry.double_entry` → `count_first_entry`), or confirms the first entry as it stands
  (`confirm_pending`), or a director decides between two different entries (`sheet.decided`).
- **sent by a table from its private link (a phone)** (`record_table_entry`): it waits as a first entry
  (`PendingSheet` with `source_link`), even without double entry, until the referee table confirms it
  (`confirm_pending`) or types the list blind and the same (`double_entry.double_entry`); a referee entry
  already waiting that the table's list agrees with counts at once. A tournament with `link_entries_count`
  lets a table's list count at once (still logged, still correctable by a director). Once the sheet counts,
  a table may only add games or hands after the counted ones while its game is not finished; corrections
  are the referee table's. A finished or archived tournament's links record nothing
  (`links.closed_reason`).
- **two agreeing reports** (a tournament setting, `agreeing_reports_count`): each seat of a table (each team of
  a Voms match) has its own link (`TableLink.holder`), and what it sends is that holder's report
  (`LinkReport`, one per holder: sending again replaces it; one phone is never two reports). When the reports
  of two different holders of the same sheet are the same (the same mode and entries, on the same version of
  the sheet), the sheet counts at once, by the same `count_first_entry` as a referee's confirmation (versions,
  audit "counted: two agreeing reports from seats 1 and 3", the game's after-sheet hook). Until then the first
  report waits as the first entry; a report that differs from it waits beside it, and the referee table sees
  both (`differing_reports`) and confirms one of them (`confirm_pending` with `report`), types the list, or
  waits for a third seat to agree with one. A withdrawn link's report agrees with nothing.

A counted result is never silently replaced: every version is a `SheetRevision`, every step an audit entry.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from scoring.models import LinkReport, PendingSheet, ScoreSheet, SheetRevision, TableLink
from scoring.models.links import team_side
from tournament.permissions import can_enter_results
from tournament.services.audit import log_action
from tournament.services.errors import DomainError
from tournament.services.tournaments import sync_status

from .checks import Derive, derive_or_refuse
from .links import refuse_closed
from .places import PlaceQuery, lock_place, place_object, place_of
from .words import entered_by_label, user_name


def count_first_entry(tournament, place: dict, pending: PendingSheet, sheet, *, derived, by, action: str,
                      before=None, reason: str = "", decided_by=None, decision: str = "") -> ScoreSheet:
    """Turn the first entry into the counted sheet (new, or the old one extended) and remove it.

    `by` confirmed it (None: the table's link, or a director's own entry that counts by their decision,
    `decided_by`); `decision` says which of two different entries a director let count."""
    first_by = pending.entered_by
    if sheet is None:
        sheet = ScoreSheet.objects.create(tournament=tournament, entries=pending.entries, derived=derived,
                                          mode=pending.mode, entered_by=first_by, **place)
    else:
        before = before or {"mode": sheet.mode, "entries": sheet.entries}
        sheet.entries, sheet.derived, sheet.mode = pending.entries, derived, pending.mode
        sheet.version += 1
        sheet.save()
    SheetRevision.objects.create(sheet=sheet, version=sheet.version, kind=SheetRevision.Kind.ENTRY,
                                 entries=pending.entries, by=first_by, confirmed_by=by, reason=reason,
                                 source_link=pending.source_link)
    after = {"mode": pending.mode, "entries": pending.entries, "entered_by": entered_by_label(pending)}
    if by is not None:
        after["confirmed_by"] = user_name(by)
    if decision:  # a director's decision between two entries: which one counts, in words on the audit page
        after["decision"] = sheet.decision = decision
    log_action(action, by=decided_by or by, tournament=tournament, obj=place_object(place),
               before=before, after=after, reason=reason)
    if pending.pk is not None:
        PendingSheet.objects.filter(pk=pending.pk).delete()
    LinkReport.objects.filter(**place).delete()  # the seats' reports are settled with it
    return sheet


def check_first_entry(pending, outdated: bool, by) -> None:
    """Letting the first entry count needs one that still stands and was made by someone else."""
    if pending is None:
        raise DomainError(_("There is no first entry to confirm; it may have been confirmed meanwhile."))
    if outdated:
        raise DomainError(_("The sheet was corrected after this entry was made: the entry has to be made again."))
    if pending.entered_by_id == by.pk:
        raise DomainError(_("You entered this sheet yourself: a second person has to confirm it."))


def confirm_pending(*, tournament, derive: Derive, by, match=None, table=None,
                    expected_version: int | None = None, report: int | None = None) -> ScoreSheet:
    """A second person (or a director) confirms the first entry as it stands: it counts from now on. `report`:
    the id of a holder's report that differs from the first entry, to count instead (two agreeing reports)."""
    if not can_enter_results(by, tournament):
        raise DomainError(_("You are not allowed to enter results in this tournament."))
    with transaction.atomic():
        place = place_of(match, table)
        lock_place(place)
        pending = PendingSheet.objects.select_for_update().filter(**place).first()
        if pending is None:
            raise DomainError(_("There is no first entry to confirm; it may have been confirmed meanwhile."))
        if pending.entered_by_id == by.pk:
            raise DomainError(_("You entered this sheet yourself: a second person has to confirm it."))
        if expected_version is not None and expected_version != pending.version:
            raise DomainError(_("The first entry was changed meanwhile: look at it again before confirming."))
        sheet = ScoreSheet.objects.select_for_update().filter(**place).first()
        if (sheet.version if sheet else 0) != pending.base_version:
            raise DomainError(_("The sheet was corrected after this entry was made: the entry has to be made again."))
        if report is not None:
            _take_report(pending, place, report)
        derived = derive_or_refuse(derive, pending.entries, pending.mode)
        sheet = count_first_entry(tournament, place, pending, sheet, derived=derived, by=by,
                                  action="sheet.confirmed")
        sync_status(tournament, by=by)
        return sheet


def record_table_entry(link: TableLink, *, entries, mode: str, derive: Derive) -> ScoreSheet | PendingSheet:
    """Store what the table sent: a first entry awaiting confirmation, or (`link_entries_count`) the counted sheet.

    Sending the same again changes nothing. Once the sheet counts, only an identical one is accepted (as the
    one already recorded), or, while its game is not finished (`derived["finished"]` is False: a Voms series,
    a table game's hands so far), one that adds games or hands after the counted ones. Anything else is
    refused: corrections are the referee table's.
    """
    tournament = link.tournament
    derived = derive_or_refuse(derive, entries, mode)
    with transaction.atomic():
        place = link.place
        lock_place(place)
        refuse_closed(link)
        sheet = ScoreSheet.objects.select_for_update().filter(**place).first()
        if sheet is not None:
            if sheet.mode == mode and sheet.entries == entries:
                return sheet
            if not _adds_to(sheet, entries, mode):
                raise DomainError(_("Your table's list has been recorded already and counts. If something is "
                                    "wrong, bring the paper list to the referee table."))
        base = sheet.version if sheet is not None else 0
        pending = PendingSheet.objects.select_for_update().filter(**place).first()
        if pending is not None and pending.base_version != base:
            pending.delete()  # made on a sheet corrected since: outdated, the table's list replaces it
            pending = None
        if pending is not None and pending.mode == mode and pending.entries == entries:
            if pending.source_link_id is None:  # a second, independent entry that agrees: it counts
                return count_first_entry(tournament, place, pending, sheet, derived=derived, by=None,
                                         action="sheet.confirmed", reason=_("Confirmed by the table's link"))
            if link.holder is None:
                return pending  # sent twice: nothing changes
        if pending is not None and pending.source_link_id is None:
            raise DomainError(_("The referee table has entered a different list for your table. Bring the "
                                "paper list to the referee table."))
        if link.holder is not None:
            return _report(tournament, place, link, pending, sheet, entries=entries, mode=mode, derived=derived,
                           base=base)
        if tournament.link_entries_count:
            if pending is not None:
                pending.delete()
            return _count_from_link(tournament, place, sheet, link, entries=entries, mode=mode, derived=derived)
        return _store_from_link(tournament, place, link, pending, entries=entries, mode=mode, base=base)


# --- two agreeing reports --------------------------------------------------------------------------------------


def _report(tournament, place: dict, link: TableLink, pending, sheet, *, entries, mode, derived, base: int):
    """A seat's (a team's) report: kept as its holder's; the sheet counts when another holder's agrees."""
    LinkReport.objects.filter(**place).exclude(base_version=base).delete()  # made on a sheet corrected since
    mine = LinkReport.objects.select_for_update().filter(**place, holder=link.holder).first()
    if mine is not None and pending is not None and (mine.link_id, mine.mode, mine.entries) == (link.pk, mode,
                                                                                                entries):
        return pending  # the holder sent the same again: nothing changes (had it agreed, it would count already)
    LinkReport.objects.update_or_create(**place, holder=link.holder, defaults={
        "tournament": tournament, "link": link, "mode": mode, "entries": entries, "base_version": base})
    agreeing = next((other for other in _open_reports(place).exclude(holder=link.holder).filter(mode=mode)
                     if other.entries == entries), None)
    if agreeing is None:
        if pending is not None and _holder_of(pending) != link.holder:
            # another holder's report waits as the first entry: this one waits beside it, for the referee
            log_action("sheet.first_entry", by=None, tournament=tournament, obj=link.target,
                       after={"mode": mode, "entries": entries, "from_link": link.hint, "holder": link.holder_label})
            return pending
        return _store_from_link(tournament, place, link, pending, entries=entries, mode=mode, base=base)
    if pending is None:
        pending = PendingSheet(tournament=tournament, base_version=base, **place)
    pending.entries, pending.mode, pending.entered_by, pending.source_link = entries, mode, None, agreeing.link
    holders = sorted([agreeing.holder, link.holder])
    if link.table_id is not None:
        reason = _("counted: two agreeing reports from seats %(first)s and %(second)s") % {
            "first": holders[0], "second": holders[1]}
    else:  # a Voms team as its slip names it: A, B
        reason = _("counted: two agreeing reports from teams %(first)s and %(second)s") % {
            "first": team_side(holders[0]), "second": team_side(holders[1])}
    return count_first_entry(tournament, place, pending, sheet, derived=derived, by=None, action="sheet.confirmed",
                             reason=reason)


def _open_reports(place: dict):
    """The reports of a place whose links are still open (a withdrawn link's report agrees with nothing)."""
    return LinkReport.objects.filter(link__revoked_at__isnull=True, **place).select_related("link")


def _holder_of(pending: PendingSheet) -> int | None:
    link = pending.source_link if pending.source_link_id is not None else None
    return link.holder if link is not None else None


def _take_report(pending: PendingSheet, place: dict, report_id: int) -> None:
    """The referee lets a holder's report count instead of the first entry: it becomes the entry confirmed."""
    report = _open_reports(place).filter(pk=report_id, base_version=pending.base_version).first()
    if report is None:
        raise DomainError(_("This report is no longer there: it may have been replaced or withdrawn meanwhile."))
    pending.entries, pending.mode, pending.source_link = report.entries, report.mode, report.link


def differing_reports(pending: PendingSheet | None) -> list[LinkReport]:
    """The reports waiting beside a first entry sent from a seat's (a team's) link that differ from it: the
    referee table sees each beside the first entry and may let it count instead."""
    if pending is None or pending.source_link_id is None:
        return []
    place = {"table": pending.table_id} if pending.table_id is not None else {"match": pending.match_id}
    return [report for report in _OPEN_REPORTS.all(place) if report.base_version == pending.base_version
            if (report.mode, report.entries) != (pending.mode, pending.entries)]


def sent_from(link: TableLink) -> PendingSheet | LinkReport | None:
    """What a link's phone sent that waits (its `entries`, `mode`, `updated_at`): a table's link the first entry
    it sent, a seat's (a team's) link its holder's report; None when nothing it sent waits."""
    place = {"table": link.table_id} if link.table_id is not None else {"match": link.match_id}
    if link.holder is not None:
        return next((report for report in _REPORTS.all(place) if report.holder == link.holder), None)
    pending = _PENDING_BARE.first(place)
    return pending if pending is not None and pending.source_link_id is not None else None


#: asked on every phone page and list page: compiled once (tournament/prepared.py)
_OPEN_REPORTS = PlaceQuery(LinkReport, lambda place: _open_reports(place).order_by("holder"))
_REPORTS = PlaceQuery(LinkReport, lambda place: LinkReport.objects.filter(**place).order_by("holder"))
_PENDING_BARE = PlaceQuery(PendingSheet, lambda place: PendingSheet.objects.filter(**place).order_by("pk")[:1])


def compared_by_referee(link: TableLink) -> bool:
    """Whether a seat's (a team's) report waits beside another holder's that differs: the referee table compares."""
    if link.holder is None:
        return False
    reports = list(_open_reports(link.place))
    mine = next((report for report in reports if report.holder == link.holder), None)
    return mine is not None and any((other.mode, other.entries, other.base_version)
                                    != (mine.mode, mine.entries, mine.base_version)
                                    for other in reports if other.holder != link.holder)


def _adds_to(sheet: ScoreSheet, entries, mode: str) -> bool:
    """The table sends more games (or hands) after those that count, of a game that is not finished yet."""
    old = sheet.entries
    return (sheet.derived.get("finished") is False and mode == sheet.mode and isinstance(entries, list)
            and len(entries) > len(old) and entries[: len(old)] == old)


def _store_from_link(tournament, place: dict, link, pending, *, entries, mode, base: int) -> PendingSheet:
    before = None
    if pending is None:
        pending = PendingSheet(tournament=tournament, **place)
    else:
        before = {"mode": pending.mode, "entries": pending.entries}
        pending.version += 1
    pending.entries, pending.mode, pending.base_version = entries, mode, base
    pending.entered_by, pending.source_link = None, link
    pending.save()
    log_action("sheet.first_entry", by=None, tournament=tournament, obj=link.target, before=before,
               after={"mode": mode, "entries": entries, "from_link": link.hint})
    return pending


def _count_from_link(tournament, place: dict, sheet, link, *, entries, mode, derived) -> ScoreSheet:
    before = None
    if sheet is None:
        sheet = ScoreSheet.objects.create(tournament=tournament, entries=entries, derived=derived, mode=mode,
                                          entered_by=None, **place)
    else:
        before = {"mode": sheet.mode, "entries": sheet.entries}
        sheet.entries, sheet.derived, sheet.mode = entries, derived, mode
        sheet.version += 1
        sheet.save()
    SheetRevision.objects.create(sheet=sheet, version=sheet.version, kind=SheetRevision.Kind.ENTRY,
                                 entries=entries, by=None, source_link=link,
                                 reason=_("Sent by the table from its link; counts at once (tournament setting)"))
    log_action("sheet.entry", by=None, tournament=tournament, obj=link.target, before=before,
               after={"mode": mode, "entries": entries, "from_link": link.hint})
    return sheet
