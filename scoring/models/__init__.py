from .links import LinkBrake, LinkReport, TableLink, TableProblem
from .sheets import PendingSheet, ScoreSheet, SheetRevision

__all__ = ["LinkBrake", "LinkReport", "PendingSheet", "ScoreSheet", "SheetRevision", "TableLink", "TableProblem"]
