from .links import LinkBrake, TableLink, TableProblem
from .photos import SheetPhoto
from .sheets import PendingSheet, ScoreSheet, SheetRevision

__all__ = ["LinkBrake", "PendingSheet", "ScoreSheet", "SheetPhoto", "SheetRevision", "TableLink", "TableProblem"]
