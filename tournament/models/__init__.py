from .audit import AuditEntry
from .backups import PendingBackup
from .logins import LoginThrottle
from .participants import Participant, Team
from .replay import SentForm
from .structure import Draw, Match, Pool, PoolEntry, Round, Seat, Stage, Table
from .tournament import Role, Tournament, TournamentRole

__all__ = [
    "AuditEntry", "Draw", "LoginThrottle", "Match", "Participant", "PendingBackup", "Pool", "PoolEntry", "Role",
    "Round", "Seat", "SentForm", "Stage", "Table", "Team", "Tournament", "TournamentRole",
]
