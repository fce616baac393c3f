from .audit import AuditEntry
from .participants import Participant, Team
from .replay import SentForm
from .structure import Draw, Match, Pool, PoolEntry, Round, Seat, Stage, Table
from .tournament import Role, Tournament, TournamentRole

__all__ = [
    "AuditEntry", "Draw", "Match", "Participant", "Pool", "PoolEntry", "Role", "Round", "Seat", "SentForm", "Stage",
    "Table", "Team", "Tournament", "TournamentRole",
]
