from .sheets import ScoreSheet, SheetRevision

__all__ = ["ScoreSheet", "SheetRevision"]
