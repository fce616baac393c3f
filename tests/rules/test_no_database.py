"""The guard of tests/rules/conftest.py: a test of this folder that uses a database is found (the PostgreSQL run
leaves the folder out, so such a test would never run there)."""

from pathlib import Path

import pytest

from tests.rules.conftest import HERE, database_tests


class Item:
    def __init__(self, path: Path, *, mark: bool = False, fixtures=()):
        self.path, self.nodeid, self.fixturenames = path, f"{path.name}::test", list(fixtures)
        self._mark = pytest.mark.django_db.mark if mark else None

    def get_closest_marker(self, name):
        return self._mark if name == "django_db" else None


def test_a_rules_test_with_a_database_is_found_by_its_mark_or_its_fixtures():
    here = HERE / "test_x.py"
    items = [Item(here), Item(here, mark=True), Item(here, fixtures=["settings", "db"]),
             Item(here, fixtures=["live_server"]), Item(HERE.parent / "voms" / "test_y.py", mark=True)]
    assert database_tests(items) == ["test_x.py::test"] * 3


def test_no_rules_test_uses_a_database(request):
    found = database_tests(request.session.items)
    assert not found, f"tests/rules is for the rules without a database (the PostgreSQL run leaves it out): {found}"
