"""Build hooks of the distribution (pyproject.toml, hatchling): its run-time dependencies, and the compiled
translation catalogues in the wheel.

- Dependencies: requirements.txt is the one list of run-time pins (a clone installs it whole, `make run`); the wheel
  depends on the same pins, read here at build time so the two never drift apart. The names that
  `[tool.hatch.metadata.hooks.custom] extras` lists go to an optional extra instead (`server`: what a server with
  PostgreSQL and several processes needs, and a laptop does not).
- Catalogues: the wheel carries locale/<language>/LC_MESSAGES/*.mo inside the package (tournament_manager/locale),
  compiled here from the .po files with polib, so neither the build nor the installed app needs GNU gettext's
  msgfmt (Windows and macOS have none). Only translated entries go in, as with msgfmt: no fuzzy, no obsolete ones.
"""

import shutil
import tempfile
from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface
from hatchling.metadata.plugin.interface import MetadataHookInterface
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

#: where the catalogues go inside the wheel (config/settings.py finds them there when installed)
WHEEL_LOCALE = "tournament_manager/locale"


def pinned_requirements(path: Path) -> list[str]:
    """The requirement lines of a requirements file, without comments, blank lines or pip options."""
    lines = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.split(" #", 1)[0].strip()
        if not line or line.startswith(("#", "-")):
            continue
        Requirement(line)  # a line pip would take but a wheel's metadata would not fails the build here
        lines.append(line)
    return lines


def split_extras(requirements: list[str], extras: dict[str, list[str]]) -> tuple[list[str], dict[str, list[str]]]:
    """The base dependencies and the optional extras: each extra takes the requirements its names name."""
    by_name = {canonicalize_name(Requirement(line).name): line for line in requirements}
    optional = {}
    for extra, names in extras.items():
        missing = [name for name in names if canonicalize_name(name) not in by_name]
        if missing:
            raise ValueError(f"extra {extra!r} names {', '.join(missing)}, which requirements.txt does not pin")
        optional[extra] = [by_name.pop(canonicalize_name(name)) for name in names]
    return list(by_name.values()), optional


def runtime_requirements(root: Path, extras: dict[str, list[str]]) -> tuple[list[str], dict[str, list[str]]]:
    return split_extras(pinned_requirements(root / "requirements.txt"), extras)


def compile_catalogue(po_file: Path, mo_file: Path) -> None:
    import polib

    mo_file.parent.mkdir(parents=True, exist_ok=True)
    polib.pofile(str(po_file)).save_as_mofile(str(mo_file))


def compiled_catalogues(locale_dir: Path, out_dir: Path) -> dict[str, str]:
    """Compiles every locale/<language>/LC_MESSAGES/<domain>.po into `out_dir`; {compiled file: path in wheel}."""
    placed = {}
    for po_file in sorted(locale_dir.glob("*/LC_MESSAGES/*.po")):
        relative = po_file.relative_to(locale_dir).with_suffix(".mo")
        compile_catalogue(po_file, out_dir / relative)
        placed[str(out_dir / relative)] = f"{WHEEL_LOCALE}/{relative.as_posix()}"
    if not placed:
        raise FileNotFoundError(f"no translation catalogues (*.po) under {locale_dir}")
    return placed


class RequirementsMetadataHook(MetadataHookInterface):
    def update(self, metadata: dict) -> None:
        base, optional = runtime_requirements(Path(self.root), self.config.get("extras", {}))
        metadata["dependencies"] = base
        metadata["optional-dependencies"] = optional


class CataloguesBuildHook(BuildHookInterface):
    def initialize(self, version: str, build_data: dict) -> None:
        self._out = Path(tempfile.mkdtemp(prefix="tournament-manager-mo-"))
        build_data["force_include"].update(compiled_catalogues(Path(self.root) / "locale", self._out))

    def finalize(self, version: str, build_data: dict, artifact_path: str) -> None:
        shutil.rmtree(self._out, ignore_errors=True)
