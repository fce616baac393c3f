from .links import LinkBrake, TableLink, TableProblem
from .sheets import PendingSheet, ScoreSheet, SheetRevision

__all__ = ["LinkBrake", "PendingSheet", "ScoreSheet", "SheetRevision", "TableLink", "TableProblem"]
