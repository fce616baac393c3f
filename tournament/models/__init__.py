from .audit import AuditEntry
from .backups import PendingBackup, TournamentSnapshot
from .federation import Federation, FederationAdmin, FederationMember, FederationSeason
from .logins import LoginThrottle
from .organisation import MemberRole, Membership, Organisation
from .participants import Participant, Team
from .printjobs import PrintJob, PrintJobPart
from .replay import SentForm
from .season import Person, Season
from .structure import Draw, Match, Pool, PoolEntry, Round, Seat, Stage, Table
from .tokens import ApiToken, ClubServer, TokenScope
from .tournament import Role, Tournament, TournamentRole
from .transfer import ImportUpload

__all__ = [
    "ApiToken", "AuditEntry", "ClubServer", "Draw", "Federation", "FederationAdmin", "FederationMember",
    "FederationSeason", "ImportUpload", "LoginThrottle", "Match", "MemberRole", "Membership", "Organisation",
    "Participant", "PendingBackup", "Person", "Pool", "PoolEntry", "PrintJob", "PrintJobPart", "Role", "Round",
    "Season", "Seat", "SentForm", "Stage", "Table", "Team", "TokenScope", "Tournament", "TournamentRole",
    "TournamentSnapshot",
]
