"""The import fences bite: `lint-imports` with the project's contracts (.importlinter, run by `make test`) fails
on a copy of the code with forbidden imports planted, naming each broken contract, and passes on the same copy
without them. No database; the code is copied, never changed in place."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(settings.BASE_DIR)
PACKAGES = ("tournament", "scoring", "documents", "config")
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"

#: file -> the line planted at its end, and the contract that must then be broken
PLANTED = {
    "scoring/rules/voms.py": ("from django.db import models", "Rules and draws are plain Python"),
    "tournament/models/tournament.py": ("from scoring.games import get_game", "The models import no game registry"),
    "scoring/games/voms/tabs.py": ("from scoring.games.schafkopf import config", "The games do not import each other"),
    "scoring/games/schafkopf/services.py": ("from . import views", "Schafkopf's layers"),
    "scoring/results/links.py": ("from . import counting", "The results flow's layers"),
}


def copy_of_the_code(target: Path) -> None:
    for package in PACKAGES:
        shutil.copytree(ROOT / package, target / package,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "migrations", "templates", "static"))
    shutil.copy(ROOT / ".importlinter", target / ".importlinter")


def lint(folder: Path) -> subprocess.CompletedProcess:
    # wide lines: a contract's name is never wrapped
    return subprocess.run([str(LINT_IMPORTS), "--no-cache"], cwd=folder, capture_output=True, text=True,
                          timeout=300, env={**os.environ, "COLUMNS": "400"})


@pytest.fixture(scope="module")
def copied(tmp_path_factory):
    folder = tmp_path_factory.mktemp("fences")
    copy_of_the_code(folder)
    return folder


def test_the_contracts_hold_on_the_copy(copied):
    result = lint(copied)
    assert result.returncode == 0, result.stdout + result.stderr
    assert " BROKEN" not in result.stdout


def test_each_planted_import_breaks_its_contract(copied):
    for file, (line, _contract) in PLANTED.items():
        with open(copied / file, "a", encoding="utf-8") as source:
            source.write(f"\n{line}  # planted\n")
    result = lint(copied)
    assert result.returncode == 1, result.stdout + result.stderr
    broken = [line for line in result.stdout.splitlines() if line.endswith(" BROKEN")]
    for _line, contract in PLANTED.values():
        assert any(line.startswith(contract) for line in broken), (contract, broken)
    assert len(broken) == len(PLANTED), broken
