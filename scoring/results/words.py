"""Who entered what, in words: for messages, the entry pages and the audit log."""

from __future__ import annotations

from django.utils.translation import gettext as _


def user_name(user) -> str:
    if user is None:
        return _("a deleted user")
    return user.get_full_name() or user.get_username()


def entered_by_label(pending) -> str:
    """Who made a first entry: a user, or the table itself through its private link."""
    if getattr(pending, "source_link_id", None):
        holder = pending.source_link.holder_label
        return _("%(holder)s, from its link") % {"holder": holder} if holder else _("the table, from its link")
    return user_name(pending.entered_by)


def revision_by_label(revision) -> str:
    """Who made a version of a counted sheet (`SheetRevision`): a user, or the table (a seat, a team) through its link
    (the version then has no user)."""
    return entered_by_label(revision) if revision.source_link_id else user_name(revision.by)


def started_by_label(sheet) -> str:
    """Who started a sheet that counts: a user, or the table itself when its first version came from its link
    (the sheet then has no user)."""
    first = sheet.revisions.order_by("version").first()
    if first is not None and first.source_link_id:
        return _("the table, from its link")
    return user_name(sheet.entered_by)
