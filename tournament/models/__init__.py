from .audit import AuditEntry
from .backups import PendingBackup, TournamentSnapshot
from .federation import Federation, FederationAdmin, FederationMember, FederationSeason
from .logins import LoginThrottle
from .organisation import MemberRole, Membership, Organisation
from .participants import Participant, Team
from .replay import SentForm
from .season import Person, Season
from .structure import Draw, Match, Pool, PoolEntry, Round, Seat, Stage, Table
from .tournament import Role, Tournament, TournamentRole
from .transfer import ImportUpload

__all__ = [
    "AuditEntry", "Draw", "Federation", "FederationAdmin", "FederationMember", "FederationSeason",
    "ImportUpload", "LoginThrottle", "Match", "MemberRole", "Membership", "Organisation",
    "Participant", "PendingBackup", "Person", "Pool", "PoolEntry", "Role", "Round", "Season", "Seat", "SentForm",
    "Stage", "Table", "Team", "Tournament", "TournamentRole", "TournamentSnapshot",
]
