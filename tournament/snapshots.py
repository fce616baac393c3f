"""A server's automatic backup after a round: a snapshot of that tournament, its tournament file
(tournament/transfer.py), kept in the database (`TournamentSnapshot`), docs/server.md.

On a server (ROUND_SNAPSHOTS, on with DATABASE_URL) several app servers share one database and several clubs one
server, so the laptop's backup after a round — a file of the whole database in the answering server's folder, made
in the request that completed the round — is none of a server's business: it is per tournament, in the database
(every server sees it), and made outside the request. The round's commit leaves the snapshot owed (a
`PendingBackup` row, tournament/backup.py); right after the commit the serving process makes it in a background
thread, and a snapshot still owed (the process died first) is made by the next process that looks (every serving
process once a minute, `manage.py backup --pending`). Whole-database backups are the database's own tools'
(a scheduled pg_dump, WAL archiving: docs/server.md).

A snapshot is read in one transaction (REPEATABLE READ on PostgreSQL), so it is the tournament as one moment left
it; the newest BACKUP_KEEP of each tournament are kept. Restoring one is importing its file
(`manage.py snapshots --save ID FILE`, then the import page or `manage.py import_tournament`).
"""

from __future__ import annotations

import gzip
import logging
from collections import defaultdict

from django.conf import settings
from django.db import connection, transaction

from .models import PendingBackup, Tournament, TournamentSnapshot
from .transfer import export_tournament

logger = logging.getLogger(__name__)


def take_snapshot(tournament_id: int, *, round_number: int | None = None) -> TournamentSnapshot | None:
    """Store the tournament's file as it is now; None when the tournament is gone."""
    with transaction.atomic():
        if connection.vendor == "postgresql" and connection.in_atomic_block and not connection.savepoint_ids:
            # the first statement of this transaction: every table read as of one moment
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        tournament = Tournament.objects.filter(pk=tournament_id).first()
        if tournament is None:
            return None
        content = gzip.compress(export_tournament(tournament))
    snapshot = TournamentSnapshot.objects.create(tournament_id=tournament.pk, tournament_slug=tournament.slug,
                                                 round_number=round_number, content=content)
    prune_snapshots(tournament.pk)
    return snapshot


def prune_snapshots(tournament_id: int, keep: int | None = None) -> int:
    """Delete all but the newest `keep` (BACKUP_KEEP) snapshots of this tournament; returns how many went."""
    keep = settings.BACKUP_KEEP if keep is None else keep
    kept = TournamentSnapshot.objects.filter(tournament_id=tournament_id).order_by("-made_at", "-id")
    doomed = list(kept.values_list("pk", flat=True)[keep:])
    return TournamentSnapshot.objects.filter(pk__in=doomed).delete()[0] if doomed else 0


def snapshot_owed(claimed: list[int]) -> list[TournamentSnapshot]:
    """Make the snapshots of the owed rounds `claimed` (already claimed by this process): one per tournament, as it
    is now (it holds every round owed), then they are no longer owed. A snapshot that fails stays owed (its claim
    let go) and is tried again at the next check; one failing never stops another tournament's."""
    rounds: dict[int, list[PendingBackup]] = defaultdict(list)
    for owed in PendingBackup.objects.filter(pk__in=claimed):
        rounds[owed.tournament_id].append(owed)
    made = []
    for tournament_id, owed in rounds.items():
        pks = [o.pk for o in owed]
        try:
            snapshot = take_snapshot(tournament_id, round_number=max(o.round_number for o in owed))
        except Exception:  # noqa: BLE001 (a snapshot must never stop the others; tried again at the next check)
            logger.exception("Snapshot of tournament %s failed", owed[0].tournament_slug)
            PendingBackup.objects.filter(pk__in=pks).update(claimed_at=None)
            continue
        PendingBackup.objects.filter(pk__in=pks).delete()
        if snapshot is not None:
            logger.info("Snapshot of %s after round %s", snapshot.tournament_slug, snapshot.round_number)
            made.append(snapshot)
    return made


def snapshot_file(snapshot: TournamentSnapshot) -> bytes:
    """The tournament file a snapshot holds (import it to restore)."""
    return gzip.decompress(bytes(snapshot.content))
