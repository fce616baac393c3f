"""Serving the app: the hall choice and the restart (app-runtime writes this module; this is its interface only).

`set_hall(on)` stores the choice in DATA_DIR / "hall.json", `hall_wanted()` reads it, `request_restart()` asks the
running server to restart (returns at once). The hall page (tournament/views/hall.py) calls them.
"""


def set_hall(on: bool) -> None:
    raise NotImplementedError("config.serving.set_hall: provided by the serving supervisor (app-runtime)")


def hall_wanted() -> bool:
    raise NotImplementedError("config.serving.hall_wanted: provided by the serving supervisor (app-runtime)")


def request_restart() -> None:
    raise NotImplementedError("config.serving.request_restart: provided by the serving supervisor (app-runtime)")
