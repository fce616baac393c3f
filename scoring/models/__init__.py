from .links import TableLink
from .sheets import PendingSheet, ScoreSheet, SheetRevision

__all__ = ["PendingSheet", "ScoreSheet", "SheetRevision", "TableLink"]
