from .links import TableLink, TableProblem
from .sheets import PendingSheet, ScoreSheet, SheetRevision

__all__ = ["PendingSheet", "ScoreSheet", "SheetRevision", "TableLink", "TableProblem"]
