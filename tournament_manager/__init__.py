"""The tournament manager as an application: the console command `tournament-manager` (cli.py). Installed from the
wheel, this package also holds the templates, static files and translations (settings.RESOURCE_DIR)."""

from importlib.metadata import PackageNotFoundError, version
from pathlib import Path


def _version() -> str:
    """The installed distribution's version; in a clone, the one in pyproject.toml beside this package."""
    try:
        return version("tournament-manager")
    except PackageNotFoundError:
        pass
    import tomllib

    try:
        project = tomllib.loads((Path(__file__).resolve().parent.parent / "pyproject.toml").read_text())
        return str(project["project"]["version"])
    except (OSError, KeyError, ValueError):
        return "0+unknown"


__version__ = _version()
