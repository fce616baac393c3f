from .audit import AuditEntry
from .backups import PendingBackup
from .logins import LoginThrottle
from .participants import Participant, Team
from .replay import SentForm
from .season import Person, Season
from .structure import Draw, Match, Pool, PoolEntry, Round, Seat, Stage, Table
from .tournament import Role, Tournament, TournamentRole

__all__ = [
    "AuditEntry", "Draw", "LoginThrottle", "Match", "Participant", "PendingBackup", "Person", "Pool", "PoolEntry",
    "Role", "Round", "Season", "Seat", "SentForm", "Stage", "Table", "Team", "Tournament", "TournamentRole",
]
