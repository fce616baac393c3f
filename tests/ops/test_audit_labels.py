"""Every action key the code writes into the audit log has words for the director (tournament/audit_labels.py).

The keys are found in the source: each `log_action(...)` call's first argument, a string, an `a if c else b`
of strings, or an f-string / a name made of a parameter (its values from the calls of that function and its
default) or of a model's choices (ENUMS below). A call whose key cannot be worked out fails the test with its
place, so a new kind of call is looked at rather than missed."""

from __future__ import annotations

import ast
import itertools
from pathlib import Path

import pytest
from django.conf import settings

from scoring.models import SheetRevision
from scoring.seated.game import audit_prefixes
from tournament.audit_labels import ACTION_LABELS, FORMER_ACTIONS, action_labels
from tournament.models import Participant

ROOT = Path(settings.BASE_DIR)
SOURCES = [p for folder in ("tournament", "scoring") for p in sorted((ROOT / folder).rglob("*.py"))
           if "migrations" not in p.parts]

#: (file, variable) -> the values a name in an f-string key takes, where they come from a model's choices
ENUMS = {
    ("tournament/services/participants.py", "status"): Participant.Status.values,
    ("scoring/results/recording.py", "kind"): SheetRevision.Kind.values,
    ("scoring/services/sheets.py", "kind"): SheetRevision.Kind.values,
    # the seated layer's actions carry the game's prefix ("schafkopf.substitute")
    ("scoring/seated/services.py", "prefix"): audit_prefixes(),
}


class Unresolved(Exception):
    pass


def trees():
    return {str(p.relative_to(ROOT)): ast.parse(p.read_text(), filename=str(p)) for p in SOURCES}


def _called(node: ast.Call) -> str | None:
    return node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)


def _functions(tree):
    return [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]


class Keys:
    def __init__(self):
        self.trees = trees()

    def argument_values(self, function: str, parameter: str, position: int, default) -> set[str]:
        """The values every call of `function` (anywhere) passes for `parameter`, and its default."""
        values = set() if default is None else self.resolve(default, "", None)
        for file, tree in self.trees.items():
            for call in (n for n in ast.walk(tree) if isinstance(n, ast.Call) and _called(n) == function):
                given = [k.value for k in call.keywords if k.arg == parameter]
                if not given and len(call.args) > position:
                    given = [call.args[position]]
                for node in given:
                    values |= self.resolve(node, file, self.enclosing(file, call))
        return values

    def enclosing(self, file: str, node) -> ast.FunctionDef | None:
        inner = [f for f in _functions(self.trees[file]) if f.lineno <= node.lineno <= (f.end_lineno or f.lineno)]
        return max(inner, key=lambda f: f.lineno, default=None)

    def name_values(self, name: str, file: str, function) -> set[str]:
        if (file, name) in ENUMS:
            return set(ENUMS[file, name])
        if function is not None:
            args = function.args
            positional = args.posonlyargs + args.args
            defaults = dict(zip([a.arg for a in positional][::-1], args.defaults[::-1], strict=False))
            defaults |= {a.arg: d for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is not None}
            names = [a.arg for a in positional]
            if name in names or name in [a.arg for a in args.kwonlyargs]:
                position = names.index(name) if name in names else 10**6
                values = self.argument_values(function.name, name, position, defaults.get(name))
                if values:
                    return values
        raise Unresolved(f"{file}:{getattr(function, 'name', '?')}: the key's part {name!r}")

    def resolve(self, node, file: str, function) -> set[str]:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return {node.value}
        if isinstance(node, ast.IfExp):
            return self.resolve(node.body, file, function) | self.resolve(node.orelse, file, function)
        if isinstance(node, ast.Name):
            return self.name_values(node.id, file, function)
        if isinstance(node, ast.JoinedStr):
            parts = []
            for value in node.values:
                if isinstance(value, ast.FormattedValue):
                    parts.append(sorted(self.resolve(value.value, file, function)))
                else:
                    parts.append([value.value])
            return {"".join(p) for p in itertools.product(*parts)}
        raise Unresolved(f"{file}:{node.lineno}: {ast.unparse(node)}")

    def written(self) -> dict[str, str]:
        """Every key a log_action call in the source can write -> where (the first place; `self.files`: all)."""
        found = {}
        self.files: dict[str, set[str]] = {}
        for file, tree in self.trees.items():
            for call in (n for n in ast.walk(tree) if isinstance(n, ast.Call) and _called(n) == "log_action"):
                given = [k.value for k in call.keywords if k.arg == "action"] or call.args[:1]
                for key in self.resolve(given[0], file, self.enclosing(file, call)):
                    found.setdefault(key, f"{file}:{call.lineno}")
                    self.files.setdefault(key, set()).add(file)
        return found


@pytest.fixture(scope="module")
def scan():
    keys = Keys()
    keys.found = keys.written()
    return keys


@pytest.fixture(scope="module")
def written(scan):
    return scan.found


def test_the_scan_finds_the_computed_keys(written):
    """The scan sees through f-strings and passed-on parameters (it must, or it proves nothing)."""
    for key in ("participant.add", "tournament.archive", "tournament.unarchive", "clock.start", "clock.slot",
                "seating.draw", "seating.redraw", "schafkopf.substitute", "tablegames.settings",
                "sheet.correction", "sheet.confirmed", "sheet.decided", "checkin.not_paid", "participant.excluded"):
        assert key in written, key
    assert len(written) >= 60


def test_every_written_action_key_has_a_label(written):
    missing = {key: where for key, where in written.items() if key not in action_labels()}
    assert not missing, f"audit action keys without a label in tournament/audit_labels.py or their game: {missing}"


def test_no_label_for_a_key_nobody_writes(written):
    """Apart from the former keys, labelled for the entries stored under them."""
    assert set(action_labels()) - set(written) == FORMER_ACTIONS


def test_a_games_own_keys_are_written_by_that_game_alone(scan):
    """A game's audit words (`Game.audit_words`) are for the keys only its own package writes (or a shared
    service writes with the game's key in front); the shared ones are in tournament/audit_labels.py."""
    from scoring.games import all_games

    for game in all_games():
        package = f"scoring/games/{type(game).__module__.split('.')[2]}/"
        for key in set(game.audit_words()) - FORMER_ACTIONS:
            assert key not in ACTION_LABELS, key
            elsewhere = {file for file in scan.files.get(key, ()) if not file.startswith(package)}
            assert not elsewhere or key.startswith(f"{game.key}."), (game.key, key, elsewhere)


def test_a_call_whose_key_cannot_be_worked_out_fails_the_scan():
    keys = Keys()
    keys.trees = {"x.py": ast.parse("def f(thing):\n    log_action(thing.key, by=None)\n")}
    with pytest.raises(Unresolved):
        keys.written()
    keys.trees = {"x.py": ast.parse("def f(kind):\n    log_action(f'a.{kind}', by=None)\n")}
    with pytest.raises(Unresolved):
        keys.written()
    keys.trees = {"x.py": ast.parse("def f(kind='b'):\n    log_action(f'a.{kind}', by=None)\n"
                                    "def g():\n    f(kind='c')\n    f('d')\n")}
    assert set(keys.written()) == {"a.b", "a.c", "a.d"}


def _field_keys(value, found: set[str], parent: str = "") -> None:
    """The keys of every dict inside a before/after value (numbers are seats or tables, and the keys of a draw's
    "pools" the pools' names: not fields)."""
    if isinstance(value, dict):
        for key, inner in value.items():
            if not str(key).isdigit() and parent != "pools":
                found.add(str(key))
            _field_keys(inner, found, str(key))
    elif isinstance(value, list):
        for inner in value:
            _field_keys(inner, found, parent)


@pytest.mark.django_db
def test_every_field_a_played_evening_logs_has_a_name_in_words(make_director):
    """Every game's demo with its results (settings, draw, sheets of every kind): each field name in the log's
    before/after has a label, so the German or Danish page shows no English key ("Game type", "Tout initials").
    Pool names (a Voms draw's "A", "B") are names, not fields."""
    from scoring.games import all_games
    from tests.web.test_permission_walk import demo_options
    from tournament.audit_labels import FIELD_LABELS, value_label
    from tournament.models import AuditEntry

    director = make_director("boss")
    for game in all_games():
        if game.offers("demo"):
            game.demo(director, **{**demo_options(game), "results": True})
    found: set[str] = set()
    modes = set()
    for before, after in AuditEntry.objects.values_list("before", "after"):
        for value in (before, after):
            _field_keys(value, found)
            if isinstance(value, dict) and "mode" in value:
                modes.add(value["mode"])
    assert len(found) > 60, sorted(found)
    assert not sorted(found - set(FIELD_LABELS)), sorted(found - set(FIELD_LABELS))
    assert modes >= {"games", "hands", "results"}
    assert all(value_label("mode", mode) != mode for mode in modes), modes
