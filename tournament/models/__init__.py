from .audit import AuditEntry
from .tournament import Role, Tournament, TournamentRole

__all__ = ["AuditEntry", "Role", "Tournament", "TournamentRole"]
