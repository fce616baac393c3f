"""Does every pinned run-time requirement, and everything it pulls in, have a binary wheel for each system a
director installs the app on (docs/install.md)? Asks the package index, installs nothing; prints a table and exits
1 on a gap (2 when the index could not be asked).

    .venv/bin/python tools/check_wheels.py [--python 3.11 3.12 3.13] [--jobs 8] [--verbose]

The pins are the wheel's dependencies, base and extras alike (hatch_build.py reads them from requirements.txt).
For each system and Python, one `pip install --dry-run --only-binary=:all: --platform ... --report` resolves
them all with their dependencies, wheels only, fetching only the wheels' metadata (no download, no build): a
resolution that succeeds names a wheel file for every package. pip evaluates environment markers for the machine
it runs on, so the dependencies are followed again here with the target system's markers (a Windows-only
dependency is resolved too). A failed resolution is asked again pin by pin to name every gap. pip's HTTP cache is
shared by all calls.
"""

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
import tomllib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hatch_build import runtime_requirements  # noqa: E402


def manylinux(arch: str, glibc: int = 28) -> list[str]:
    """The manylinux tags a glibc 2.`glibc` system takes (pip expands no manylinux_2_x tag by itself)."""
    tags = [f"manylinux_2_{minor}_{arch}" for minor in range(glibc, 16, -1)]
    return [*tags, f"manylinux2014_{arch}"]


@dataclass(frozen=True)
class System:
    name: str
    platforms: tuple[str, ...]
    markers: dict = field(hash=False)


#: The floors are what the pins allow: pikepdf has wheels for Intel Macs from macOS 13 and for Apple silicon from
#: macOS 14 only (no release has both macOS 11 and Python 3.13); Linux from glibc 2.28 (Debian 10, Ubuntu 20.04).
SYSTEMS = [
    System("Windows x64", ("win_amd64",),
           {"sys_platform": "win32", "platform_system": "Windows", "os_name": "nt", "platform_machine": "AMD64"}),
    System("macOS arm64 14+", ("macosx_14_0_arm64",),
           {"sys_platform": "darwin", "platform_system": "Darwin", "os_name": "posix", "platform_machine": "arm64"}),
    System("macOS x86_64 13+", ("macosx_13_0_x86_64",),
           {"sys_platform": "darwin", "platform_system": "Darwin", "os_name": "posix", "platform_machine": "x86_64"}),
    System("Linux x86_64", tuple(manylinux("x86_64")),
           {"sys_platform": "linux", "platform_system": "Linux", "os_name": "posix", "platform_machine": "x86_64"}),
    System("Linux aarch64", tuple(manylinux("aarch64")),
           {"sys_platform": "linux", "platform_system": "Linux", "os_name": "posix", "platform_machine": "aarch64"}),
]
PYTHONS = ["3.11", "3.12", "3.13"]


@dataclass
class Outcome:
    system: System
    python: str
    wheels: dict[str, str] = field(default_factory=dict)  # package name: "version  wheel file"
    gaps: list[str] = field(default_factory=list)
    error: str = ""


def pinned() -> list[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    extras = config["tool"]["hatch"]["metadata"]["hooks"]["custom"].get("extras", {})
    base, optional = runtime_requirements(ROOT, extras)
    return base + [line for lines in optional.values() for line in lines]


def pip_resolve(requirements: list[str], system: System, python: str, *, deps: bool = True):
    """(report or None, pip's error text): pip's choice of wheels for `requirements` on `system`."""
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "report.json"
        command = [sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed", "--quiet",
                   "--disable-pip-version-check", "--only-binary=:all:", "--implementation", "cp",
                   "--python-version", python, "--report", str(report)]
        for platform in system.platforms:
            command += ["--platform", platform]
        if not deps:
            command.append("--no-deps")
        done = subprocess.run([*command, *requirements], capture_output=True, text=True)
        if done.returncode:
            return None, done.stderr
        return json.loads(report.read_text()), ""


def marker_environment(system: System, python: str) -> dict:
    return {**system.markers, "python_version": python, "python_full_version": f"{python}.0",
            "implementation_name": "cpython", "platform_python_implementation": "CPython",
            "platform_release": "", "platform_version": "", "extra": ""}


def unresolved(report: dict, roots: list[str], environment: dict) -> tuple[dict[str, str], list[str]]:
    """Follows the dependencies from `roots` with the target's markers: ({name: wheel} reached, requirements
    the report lacks)."""
    chosen = {canonicalize_name(item["metadata"]["name"]): item for item in report["install"]}
    todo = [requirement for requirement in map(Requirement, roots)
            if requirement.marker is None or requirement.marker.evaluate(environment)]  # a pin for other systems
    reached, missing = {}, []
    seen = set()
    while todo:
        requirement = todo.pop()
        name = canonicalize_name(requirement.name)
        key = (name, frozenset(requirement.extras))
        if key in seen:
            continue
        seen.add(key)
        item = chosen.get(name)
        if item is None:
            requirement.marker = None
            missing.append(str(requirement))
            continue
        reached[name] = f"{item['metadata']['version']}  {item['download_info']['url'].rsplit('/', 1)[-1]}"
        for line in item["metadata"].get("requires_dist", []):
            dependency = Requirement(line)
            extras = requirement.extras or {""}
            if dependency.marker is None or any(dependency.marker.evaluate({**environment, "extra": extra})
                                                for extra in extras):
                todo.append(dependency)
    return reached, missing


def check(system: System, python: str, roots: list[str]) -> Outcome:
    outcome = Outcome(system, python)
    environment = marker_environment(system, python)
    requirements = list(roots)
    for _round in range(4):
        report, error = pip_resolve(requirements, system, python)
        if report is None:
            outcome.gaps = name_gaps(requirements, system, python, error)
            return outcome
        outcome.wheels, missing = unresolved(report, requirements, environment)
        if not missing:
            return outcome
        requirements += missing  # dependencies of the target system only: resolve them as well
    outcome.error = f"dependencies still unresolved: {', '.join(missing)}"
    return outcome


def name_gaps(requirements: list[str], system: System, python: str, error: str) -> list[str]:
    """Each requirement without a wheel, asked one by one; failing that, what pip's error names."""
    with ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(lambda line: pip_resolve([line], system, python, deps=False)[0], requirements))
    gaps = [line for line, report in zip(requirements, answers, strict=True) if report is None]
    if gaps:
        return gaps
    named = re.findall(r"No matching distribution found for (\S+)", error)
    return named or [error.strip().splitlines()[-1] if error.strip() else "unknown"]


def index_reachable() -> str:
    """'' if the index answers (a wheel every system has), else pip's error."""
    any_system = System("any", ("any",), {})
    report, error = pip_resolve(["packaging"], any_system, PYTHONS[0], deps=False)
    return "" if report else error


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--python", nargs="+", default=PYTHONS, help="Python versions (default: %(default)s)")
    parser.add_argument("--jobs", type=int, default=8, help="pip processes at once (default: %(default)s)")
    parser.add_argument("--verbose", action="store_true", help="list every package's wheel file")
    options = parser.parse_args(argv)

    started = time.monotonic()
    roots = pinned()
    jobs = [(system, python) for system in SYSTEMS for python in options.python]
    with ThreadPoolExecutor(options.jobs) as pool:
        outcomes = list(pool.map(lambda job: check(*job, roots), jobs))
    failed = [outcome for outcome in outcomes if outcome.gaps or outcome.error]
    if failed and all(not outcome.wheels for outcome in outcomes):
        problem = index_reachable()
        if problem:
            print(f"The package index could not be asked:\n{problem}", file=sys.stderr)
            return 2

    print(f"{len(roots)} pinned requirements (requirements.txt), wheels only:")
    print(f"{'system':<18} {'python':<7} {'packages':>8}  missing wheels")
    for outcome in outcomes:
        gaps = ", ".join(outcome.gaps) or outcome.error or "-"
        count = len(outcome.wheels) if not outcome.gaps else "?"
        print(f"{outcome.system.name:<18} {outcome.python:<7} {count:>8}  {gaps}")
        if options.verbose:
            for name, wheel in sorted(outcome.wheels.items()):
                print(f"    {name:<24} {wheel}")
    print(f"{len(outcomes) - len(failed)} of {len(outcomes)} systems and Pythons have every wheel "
          f"({time.monotonic() - started:.0f} s)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
