"""Querysets compiled to SQL once per process, then run with new values (issue 27: the hall laptop's CPU).

Turning a queryset into SQL (joins, lookups, the select list, the ordering) costs Django about twenty times the CPU
SQLite needs to run a short query. The requests of the evening's busiest hour (a phone's page and send, the referee's
list and Confirm, every director page's tournament and role) ask the same few questions with other values each
time, so each such question is written once as a function of its values:

    table_of_round = Prepared(Table, lambda round_id, number: Table.objects.filter(round_id=round_id, number=number))
    table = table_of_round.first(round_id=7, number=3)

The queryset is built once with stand-in values (marks no real value has), compiled for the database it reads
from, and every call puts the values where the marks were and runs the same SQL through Django's own iterator: the
rows come back as model instances (with their select_related rows and annotations) or as `values()` rows, exactly
as the queryset would give them. Values are whole numbers or strings, which every database takes as they are, and
are compared for equality (a lookup such as `contains` that changes its value is refused when compiled).
"""

from __future__ import annotations

import copy
import inspect
from collections.abc import Callable

from django.core.exceptions import ImproperlyConfigured
from django.db import connections, router
from django.db.models import Model, QuerySet

#: stand-ins, two sets: strings no short name, token or address has, and whole numbers that fit every integer
#: field (Django answers a lookup out of a field's range with "nothing" before any SQL is made)
_TEXT_MARKS = ("\x00prepared-{}\x00", "\x00prepared-{}-again\x00")
_NUMBER_MARKS = (30_011, 31_019)
#: the largest whole number a database column holds (values are compared for equality: a bigger one is no row's),
#: and of the columns whose values psycopg is given wrapped by their size (PostgreSQL binding parameters on the
#: server would refuse a bigger one)
_BIGGEST = 2**63 - 1
_LARGEST = {"Int2": 2**15 - 1, "Int4": 2**31 - 1, "Int8": _BIGGEST}


class Prepared:
    """One question of the hall, compiled once per process and database."""

    def __init__(self, model: type[Model], build: Callable[..., QuerySet], **kinds: type):
        """`build(**values)` makes the queryset; `kinds` names each value's type (int or str); by default the
        function's parameters are whole numbers. Parameters with a default are no values: they keep it."""
        self.model, self.build = model, build
        names = [name for name, parameter in inspect.signature(build).parameters.items()
                 if parameter.default is parameter.empty]  # one with a default is fixed when the function is made
        self.kinds = {name: kinds.get(name, int) for name in names}
        unknown = set(kinds) - set(names)
        if unknown:
            raise ImproperlyConfigured(f"Prepared: no parameter {sorted(unknown)} in the queryset's function")
        self._compiled: dict[str, tuple] = {}

    def _marks(self, which: int) -> dict:
        return {name: (_TEXT_MARKS[which].format(number) if kind is str else _NUMBER_MARKS[which] + number)
                for number, (name, kind) in enumerate(self.kinds.items())}

    def _compile(self, alias: str) -> tuple:
        # Compiled twice, with two sets of stand-ins: a value's places are those where the two differ as the
        # stand-ins do, so that a constant of the query that happens to equal a stand-in is never taken for one.
        compiled = []
        for which in (0, 1):
            marks = self._marks(which)
            queryset = self.build(**marks)
            compiler = queryset.query.get_compiler(using=alias)
            sql, params = compiler.as_sql()
            compiled.append((marks, queryset, compiler, sql, tuple(params)))
        (marks, queryset, compiler, sql, params), (again, _, _, sql_again, params_again) = compiled
        if sql != sql_again or len(params) != len(params_again):
            raise ImproperlyConfigured("Prepared: the SQL depends on the values, not only its parameters")
        places = {}
        for name, mark in marks.items():
            places[name] = [index for index, (value, other) in enumerate(zip(params, params_again, strict=True))
                            if isinstance(value, type(mark)) and value == mark and other == again[name]]
            if not places[name]:
                raise ImproperlyConfigured(f"Prepared: the value {name!r} does not reach the SQL as it is given")
        self._compiled[alias] = compiled = (queryset, compiler, sql, params, places)
        return compiled

    def all(self, **values) -> list:
        """The rows, as the queryset would give them."""
        if values.keys() != self.kinds.keys():
            raise TypeError(f"Prepared: values {sorted(self.kinds)} expected, {sorted(values)} given")
        alias = router.db_for_read(self.model)
        queryset, compiler, sql, params, places = self._compiled.get(alias) or self._compile(alias)
        params = list(params)
        for name, value in values.items():
            kind = self.kinds[name]
            if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
                raise TypeError(f"Prepared: {name} must be {kind.__name__}, not {type(value).__name__}")
            for index in places[name]:
                wrapper = type(params[index])  # as the database's adapter had it (PostgreSQL: Int2 for a small one)
                if kind is int and not -_LARGEST.get(wrapper.__name__, _BIGGEST) <= value <= _LARGEST.get(
                        wrapper.__name__, _BIGGEST):
                    return []  # no row's value, as Django answers a lookup out of the field's range (an address's)
                params[index] = wrapper(value)
        ready = copy.copy(compiler)  # the compiled select list and converters, for this thread's connection
        ready.connection = connections[alias]
        ready.as_sql = lambda *args, **kwargs: (sql, tuple(params))
        clone = queryset._chain()  # never handed out: a queryset made from it would run the same SQL
        clone.query.get_compiler = lambda *args, **kwargs: ready
        return list(clone)

    def first(self, **values):
        """The first row in the queryset's own order, or None (slice it [:1] in `build` to read one row only;
        unlike QuerySet.first() no order is added)."""
        found = self.all(**values)
        return found[0] if found else None
