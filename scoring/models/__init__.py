from .links import LinkBrake, LinkReport, TableLink, TableProblem
from .photos import SheetPhoto
from .sheets import PendingSheet, ScoreSheet, SheetRevision

__all__ = ["LinkBrake", "LinkReport", "PendingSheet", "ScoreSheet", "SheetPhoto", "SheetRevision", "TableLink",
           "TableProblem"]
