"""Private table links: issuing, revoking and reissuing them, finding one by its token.

A link opens one place's sheet: a table of a seated game's round (Schafkopf, the table games), or a Voms
match (a pool game's slip, a knockout series). `TableLink.place` names it as `scoring.results.places` does.

A token is 32 bytes (256 bits) from HMAC-SHA256 of a random nonce under the server's secret key, written
base64url. The database keeps the nonce and the SHA-256 of the token: the lookup is by that hash (so
nothing is compared character by character) and the stored hash is checked once more with
`hmac.compare_digest`. A token appears in logs only as its hint (the hash's first 8 characters).

What a table sends and when it counts: `scoring.results.counting`; the problems it signals:
`scoring.results.problems`. How often a link and an address may send, and how many unknown tokens an
address may try: `scoring.results.brakes`.

Once the tournament is finished or archived its links are closed (`closed_reason`): they show the result and
record nothing (no list, no problem). The links stay as they are: a tournament running again (a knockout built
after the pools, a round added) or taken out of the archive opens them again.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Callable

from django.db import transaction
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _

from scoring.models import TableLink
from tournament.models import Match, Seat, Table, Tournament
from tournament.permissions import require_director
from tournament.prepared import Prepared
from tournament.services.audit import log_action
from tournament.services.errors import DomainError

from .places import lock_place

_SALT = "scoring.tablelink"


class LinkRefused(DomainError):
    """The link does not open this entry (unknown, revoked, another table's), or it sent too often."""


def token_of(link: TableLink) -> str:
    """The link's token, derived again from its nonce (the database alone cannot)."""
    digest = salted_hmac(_SALT, link.nonce, algorithm="sha256").digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def hash_of(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def hint_of(token: str) -> str:
    """What logs and messages may show of a token: a short hash, never the token."""
    return hash_of(token)[:8]


def current_token(link: TableLink) -> str | None:
    """The token to show or print, or None when the secret key changed since it was issued (reissue it)."""
    token = token_of(link)
    return token if hmac.compare_digest(hash_of(token), link.token_hash) else None


def find_link(token: str) -> TableLink | None:
    """The link of this token (revoked ones too: the caller says why it is refused), or None."""
    if not isinstance(token, str) or not 20 <= len(token) <= 64:
        return None
    wanted = hash_of(token)
    link = _BY_TOKEN.first(token_hash=wanted)
    if link is None or not hmac.compare_digest(link.token_hash, wanted):
        return None
    return link


#: asked by every phone page and send: compiled once (tournament/prepared.py)
_BY_TOKEN = Prepared(TableLink, lambda token_hash: TableLink.objects.filter(token_hash=token_hash).select_related(
    "table__round__stage", "match__stage", "match__round", "match__pool", "tournament").order_by("pk")[:1],
    token_hash=str)


def open_link(token: str, *, unknown: Callable[[], None] | None = None) -> TableLink:
    """The active link of this token, or `LinkRefused` with a message the table understands. `unknown()` is
    called first when no link has this token (the brake on guessing counts it)."""
    link = find_link(token)
    if link is None:
        if unknown is not None:
            unknown()
        raise LinkRefused(_("This link is not valid. Ask the referee table for your table's link."))
    if not link.active:
        raise withdrawn()
    return link


def withdrawn() -> LinkRefused:
    """The refusal of a link the director withdrew (or replaced by a new one)."""
    return LinkRefused(_("This link has been withdrawn by the tournament director. Ask the referee table for your "
                         "table's new link."))


def closed_reason(tournament) -> str:
    """Why the tournament's links record nothing any more, or "" while they do (the tournament as given)."""
    if tournament.archived:
        return _("This tournament is archived: its table links show the results and record nothing any more. If "
                 "something is wrong, tell the tournament director.")
    if tournament.status == Tournament.Status.FINISHED:
        return _("This tournament is finished: its table links show the results and record nothing any more. If "
                 "something is wrong, tell the referee table.")
    return ""


def refuse_closed(link: TableLink) -> None:
    """Refuse what a link sends once it has been withdrawn, or its tournament is finished or archived: read anew
    in one query inside the caller's transaction (the link's copy was loaded before it)."""
    state = (TableLink.objects.filter(pk=link.pk).order_by()
             .values("revoked_at", "tournament__status", "tournament__archived").first())
    if state is None or state["revoked_at"] is not None:
        raise withdrawn()
    reason = closed_reason(Tournament(status=state["tournament__status"], archived=state["tournament__archived"]))
    if reason:
        raise LinkRefused(reason)


def new_token_for(link: TableLink) -> None:
    """Give the (unsaved) link a new random nonce and the hash of the token derived from it."""
    link.nonce = secrets.token_hex(16)
    link.token_hash = hash_of(token_of(link))


def _new_link(tournament, *, by, table: Table | None = None, match: Match | None = None,
              holder: int | None = None) -> TableLink:
    link = TableLink(tournament=tournament, table=table, match=match, holder=holder, issued_by=by)
    new_token_for(link)
    link.save()
    return link


def _missing(places, open_links, holders) -> list[tuple]:
    """(place, holder) of every link still to issue: one per place, or with `agreeing_reports_count` one per
    holder of the place (`holders(place)`: its seats' numbers, or a match's two teams)."""
    return [(place, holder) for place in places for holder in holders(place)
            if (place.pk, holder) not in open_links]


def issue_links(round_, *, by) -> list[TableLink]:
    """A link for every table of the round that has none open (with `agreeing_reports_count`: for every seat of
    every table); returns the new ones."""
    tournament = round_.stage.tournament
    require_director(by, tournament)
    with transaction.atomic():
        tables = list(Table.objects.select_for_update().filter(round=round_).order_by("number"))
        open_ = set(TableLink.objects.filter(table__round=round_, revoked_at__isnull=True)
                    .values_list("table_id", "holder"))
        seats: dict[int, list[int | None]] = {}
        for table_id, number in Seat.objects.filter(table__round=round_).order_by("number") \
                .values_list("table_id", "number"):
            seats.setdefault(table_id, []).append(number)

        def holders(table) -> list[int | None]:
            return seats.get(table.pk, []) if tournament.agreeing_reports_count else [None]

        made = [_new_link(tournament, table=table, holder=holder, by=by)
                for table, holder in _missing(tables, open_, holders)]
        if made:
            log_action("tablelink.issue", by=by, tournament=tournament, obj=round_,
                       after={"tables": [_numbered(link) for link in made],
                              "links": [link.hint for link in made]})
    return made


def _numbered(link: TableLink):
    """A new link's table in the audit: its number, and the seat's ("3.2": table 3, seat 2) for a seat's link."""
    return link.table.number if link.holder is None else f"{link.table.number}.{link.holder}"


def issue_match_links(tournament, matches, *, by) -> list[TableLink]:
    """Voms: a link for every given match between two teams (a slip, a series) that has none open (with
    `agreeing_reports_count`: one for each of its two teams); returns the new ones. A knockout match whose teams
    are not known yet gets its links too: its page says so until then."""
    require_director(by, tournament)
    with transaction.atomic():
        wanted = [m.pk for m in matches]
        locked = list(Match.objects.select_for_update().filter(pk__in=wanted, stage__tournament=tournament)
                      .exclude(pool__isnull=False, team_b__isnull=True).order_by("pk"))
        open_ = set(TableLink.objects.filter(match__in=locked, revoked_at__isnull=True)
                    .values_list("match_id", "holder"))
        teams = [1, 2] if tournament.agreeing_reports_count else [None]
        made = [_new_link(tournament, match=match, holder=holder, by=by)
                for match, holder in _missing(locked, open_, lambda match: teams)]
        if made:
            log_action("tablelink.issue", by=by, tournament=tournament, obj=tournament,
                       after={"matches": [str(link.match) + (f" ({link.holder_label})" if link.holder else "")
                                          for link in made],
                              "links": [link.hint for link in made]})
    return made


def revoke_link(link: TableLink, *, by, reason: str = "") -> TableLink:
    """Withdraw a link: from now on it opens nothing and sends nothing."""
    tournament = link.tournament
    require_director(by, tournament)
    with transaction.atomic():
        locked = TableLink.objects.select_for_update().get(pk=link.pk)
        if locked.revoked_at is not None:
            raise DomainError(_("This link has been withdrawn already."))
        locked.revoked_at, locked.revoked_by = timezone.now(), by
        locked.save(update_fields=["revoked_at", "revoked_by"])
        log_action("tablelink.revoke", by=by, tournament=tournament, obj=locked.target,
                   before={"link": locked.hint}, reason=reason)
    return locked


def reissue_link(link: TableLink, *, by, reason: str = "") -> TableLink:
    """Withdraw a link (if still open) and give the table a new one (a lost or photographed printout)."""
    tournament = link.tournament
    require_director(by, tournament)
    with transaction.atomic():
        lock_place(link.place)
        old = TableLink.objects.select_for_update().get(pk=link.pk)
        if old.revoked_at is None:
            old.revoked_at, old.revoked_by = timezone.now(), by
            old.save(update_fields=["revoked_at", "revoked_by"])
        same_place = ({"table_id": old.table_id} if old.table_id is not None else {"match_id": old.match_id})
        if TableLink.objects.filter(revoked_at__isnull=True, holder=old.holder, **same_place).exists():
            raise DomainError(_("This table has a newer link already."))
        new = _new_link(tournament, table=old.table, match=old.match, holder=old.holder, by=by)
        log_action("tablelink.reissue", by=by, tournament=tournament, obj=old.target,
                   before={"link": old.hint}, after={"link": new.hint}, reason=reason)
    return new
