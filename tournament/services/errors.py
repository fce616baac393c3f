class DomainError(Exception):
    """An operation the rules or the tournament's state do not allow.

    `message` is already translated (built with gettext); views show it as is.
    """

    def __init__(self, message, *, field: str | None = None):
        self.message = message
        self.field = field
        super().__init__(str(message))
