"""One tournament as a JSON document: export it here, import it on another machine (docs/tournament-json.md).

Which rows belong to a tournament is discovered from the models, not listed: a model belongs when
it has a foreign key to `Tournament` or to a model that belongs, so a game that adds models is
covered without touching this module. Rows carry per-model local ids 1..n in primary-key order
instead of database keys, users are named by user name, and no export time is written: exporting
an imported tournament gives the same bytes again.

A tournament and its season carry an identity (`uid`) in the file. An import creates a new tournament in one
transaction (new keys, links remapped) keeping the file's identity, and refuses a file whose identity is a
tournament here already unless asked for a new copy (a new identity); replacing the content of the tournament of
that identity is `tournament.transfer_update`. The tournament joins the season the file names (by its identity,
made here with the file's name, game and scoring when this server has none) where the importer may add evenings
to it. A bad file is refused with a translated message, saving nothing. A file is
untrusted: every row is validated like a form (choices, lengths, validators), the game's settings as
its settings page would accept them, and what results are worth (`ScoreSheet.derived`) is recomputed
from the entries by the game's rules, never read from the file. The roles the file gives other users
are kept only when the importer chooses them (`check_tournament_file` lists them first).
"""

from __future__ import annotations

import datetime
import json
import math
import uuid
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cache, reduce
from operator import or_
from typing import Any

from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ImproperlyConfigured, ValidationError
from django.db import DatabaseError, IntegrityError, models, transaction
from django.utils.translation import gettext as _

from scoring.games import game_of
from scoring.results.recompute import recompute_sheets

from .models import FederationSeason, Participant, Person, Role, Season, Tournament, TournamentRole
from .permissions import can_create_tournaments, is_director
from .services.audit import log_action
from .services.errors import DomainError
from .services.federation import join_federation_season, link_entry, resolve
from .services.seasons import add_evening, create_season
from .services.tournaments import check_game
from .tenancy import members_of, organisation_of

FORMAT = "tournament-manager/tournament"
#: version 2: the tournament's identity (`uid`) and its season's
VERSION = 2
#: the versions this app reads (a version-1 file gets a new identity)
READ_VERSIONS = frozenset({1, 2})
#: the tournament's own local id; every link to the tournament holds it
TOURNAMENT_ID = 1
#: first path segments of director pages that a tournament's slug must not shadow
RESERVED_SLUGS = frozenset({"new", "import"})


class TransferError(DomainError):
    """A tournament file that cannot be imported; the message is translated and names the problem."""


# --- which models belong to a tournament ----------------------------------------------------------


def _links(model) -> list[models.Field]:
    """The model's own foreign keys and one-to-one keys."""
    return [f for f in model._meta.concrete_fields if f.is_relation and (f.many_to_one or f.one_to_one)]


def _m2m_fields(model) -> list[models.ManyToManyField]:
    # A hand-made through model (Pool.teams via PoolEntry) belongs by its own keys and is exported
    # as rows; only automatic link tables are written as lists on the owning row.
    return [f for f in model._meta.local_many_to_many if f.remote_field.through._meta.auto_created]


#: links that stay on this machine and are not written: a season is this installation's series of tournaments
#: (the file names it by its identity, as it names the federation's season); the club is the importer's: an
#: imported tournament, its audit entries and register entries belong to it
LOCAL_LINKS = frozenset({("tournament.tournament", "season"), ("tournament.tournament", "organisation"),
                         ("tournament.tournament", "federation_season"), ("tournament.auditentry", "organisation"),
                         ("tournament.auditentry", "federation")})
#: fields that stay on this machine: never written, and ignored where an older file has them. A table link's
#: nonce gives its token with this server's secret key (and the hash finds it), so the file must not carry them;
#: its brake counts (`scoring.results.counting`) are this server's too. An imported link gets a token of its
#: own (`new_token_for`): the copy's links are shown and printed again there, the original's open nothing.
LOCAL_FIELDS = frozenset({("scoring.tablelink", "nonce"), ("scoring.tablelink", "token_hash"),
                          ("scoring.tablelink", "window_start"), ("scoring.tablelink", "window_count")})
#: models of a tournament that stay on this machine, never written to the tournament file, its snapshots or its
#: exports: the photos of the paper sheets (large, and what they show is in the sheets already), and print jobs (a
#: file made from the tournament, made again wherever it is imported; tournament/printjobs.py)
LOCAL_MODELS = frozenset({"scoring.sheetphoto", "tournament.printjob", "tournament.printjobpart"})


@dataclass
class ModelPlan:
    model: type[models.Model]
    #: links to models of the tournament (remapped through local ids)
    inner: list[models.Field] = field(default_factory=list)
    #: links to users, written as user names
    users: list[models.Field] = field(default_factory=list)
    #: links to the player register, written as the person's name and club (never the private contact) and
    #: matched by name and club on import, the importer choosing where that is unsure (`found_people`)
    persons: list[models.Field] = field(default_factory=list)
    plain: list[models.Field] = field(default_factory=list)
    m2m: list[models.ManyToManyField] = field(default_factory=list)
    #: ORM lookups from this model to its tournament, the most direct first
    paths: list[str] = field(default_factory=list)

    @property
    def label(self) -> str:
        return self.model._meta.label_lower


@cache
def tournament_models() -> tuple[ModelPlan, ...]:
    """Every model of a tournament, the tournament first, each after the models it links to."""
    members = {Tournament}
    candidates = [m for m in apps.get_models()
                  if not (m._meta.proxy or not m._meta.managed or m._meta.label_lower in LOCAL_MODELS)]
    grown = True
    while grown:
        grown = False
        for model in candidates:
            if model not in members and any(f.related_model in members for f in _links(model)):
                members.add(model)
                grown = True
    plans: dict[type, ModelPlan] = {}
    for model in _dependency_order(members):
        plans[model] = _plan(model, members, plans)
    return tuple(plans.values())


def _dependency_order(members: set) -> list:
    """Kahn's algorithm, ties broken by label so the file's model order is stable."""
    needs = {m: {f.related_model for f in _links(m) if f.related_model in members} - {m} for m in members}
    order: list = []
    while needs:
        ready = sorted((m for m, deps in needs.items() if not deps), key=lambda m: m._meta.label_lower)
        if not ready:
            raise RuntimeError(f"Circular links between tournament models: {sorted(map(str, needs))}")
        model = ready[0]
        order.append(model)
        del needs[model]
        for deps in needs.values():
            deps.discard(model)
    return order


def _plan(model, members: set, done: dict) -> ModelPlan:
    plan = ModelPlan(model=model, m2m=_m2m_fields(model))
    for f in model._meta.concrete_fields:
        if f.primary_key or (model._meta.label_lower, f.name) in LOCAL_FIELDS:
            continue
        if not f.is_relation:
            plan.plain.append(f)
        elif f.related_model in members:
            plan.inner.append(f)
        elif f.related_model is get_user_model():
            plan.users.append(f)
        elif f.related_model is Person:
            plan.persons.append(f)
        elif (model._meta.label_lower, f.name) in LOCAL_LINKS:
            continue
        else:
            _unsupported(f)
    for f in plan.m2m:
        if f.related_model not in members:
            _unsupported(f)
    if model is not Tournament:
        paths = []
        for f in plan.inner:
            if f.related_model is Tournament:
                paths.append((f.null, 1, f.name))
            elif f.related_model is not model:
                target = done[f.related_model]
                paths.append((f.null, target.paths[0].count("__") + 2, f"{f.name}__{target.paths[0]}"))
        # non-null links first: they reach the tournament for every row
        plan.paths = [path for *_, path in sorted(paths)]
    return plan


def _unsupported(f) -> None:
    # Only links inside the tournament and to users have a meaning on another machine; a new kind
    # of link needs a rule here (and a format version) before tournaments can be moved.
    raise ImproperlyConfigured(f"The tournament file format cannot carry the link {f.model.__name__}.{f.name}.")


def rows_of(plan: ModelPlan, tournament: Tournament) -> models.QuerySet:
    if plan.model is Tournament:
        return Tournament.objects.filter(pk=tournament.pk)
    # every path counts: a row hangs on its tournament by any of its links
    condition = reduce(or_, (models.Q(**{path: tournament}) for path in plan.paths))
    return plan.model._base_manager.filter(condition).order_by("pk")


# --- export ---------------------------------------------------------------------------------------


def _user_model():
    return get_user_model()


def _canonical_json(value: Any) -> Any:
    # PostgreSQL's jsonb reorders object keys; sorted keys keep the file identical on both databases.
    return json.loads(json.dumps(value, sort_keys=True))


def _plain_value(f: models.Field, obj) -> Any:
    value = f.value_from_object(obj)
    if value is None:
        return None
    if isinstance(f, models.JSONField):
        return _canonical_json(value)
    if isinstance(value, datetime.datetime):
        return value.astimezone(datetime.UTC).isoformat() if value.tzinfo else value.isoformat()
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, bool | int | float | str):
        return value
    return f.value_to_string(obj)  # UUIDs, durations, bytes: Django's own text form


class _Exporter:
    def __init__(self, tournament: Tournament):
        self.tournament = tournament
        self.local_ids: dict[type, dict[Any, int]] = {}
        user = _user_model()
        self.usernames = dict(user._default_manager.values_list("pk", user.USERNAME_FIELD))

    def document(self) -> dict:
        self.relink = json_links_of(self.tournament)
        tables = []
        for plan in tournament_models():
            objects = list(rows_of(plan, self.tournament).prefetch_related(*(f.name for f in plan.m2m))
                           .select_related(*(f"{f.name}__member" for f in plan.persons)))
            self.local_ids[plan.model] = {obj.pk: n for n, obj in enumerate(objects, start=1)}
            tables.append((plan, objects))
        rows = {plan.label: [self.row(plan, obj) for obj in objects] for plan, objects in tables}
        (tournament_row,) = rows.pop(Tournament._meta.label_lower)
        del tournament_row["id"]
        document = {
            "format": FORMAT,
            "version": VERSION,
            "tournament": tournament_row,
            # as stored (like every row): not the season of the object handed in, which may be older
            "season": season_identity(Season.objects.filter(tournaments__pk=self.tournament.pk).first()),
            "models": [{"model": label, "rows": model_rows} for label, model_rows in rows.items()],
        }
        league = FederationSeason.objects.filter(tournaments__pk=self.tournament.pk).first()
        if league is not None:  # only then: a laptop's file stays as it was
            document["federation_season"] = {"uid": str(league.uid), "name": league.name}
        return document

    def row(self, plan: ModelPlan, obj) -> dict:
        row: dict[str, Any] = {"id": self.local_ids[plan.model][obj.pk]}
        for f in plan.model._meta.concrete_fields:
            if f in plan.inner:
                target = getattr(obj, f.attname)
                row[f.name] = None if target is None else self.local_ids[f.related_model][target]
            elif f in plan.users:
                user = getattr(obj, f.attname)
                row[f.name] = None if user is None else self.usernames[user]
            elif f in plan.persons:
                person = getattr(obj, f.name)
                row[f.name] = None if person is None else person_identity(person)
            elif f in plan.plain:
                row[f.name] = _plain_value(f, obj)
                if isinstance(f, models.JSONField) and row[f.name] is not None:
                    row[f.name] = self.relink(plan.label, f.name, row[f.name], self.local_id)
        for f in plan.m2m:
            row[f.name] = sorted(self.local_ids[f.related_model][other.pk] for other in getattr(obj, f.name).all())
        return row


    def local_id(self, model, key) -> int:
        return self.local_ids[model][key]


def json_links_of(tournament: Tournament):
    """The game's `json_links` hook (keys inside JSON fields), or one that leaves every value as it is."""
    if not tournament.game:
        return lambda label, field, value, convert: value
    return game_of(tournament).json_links


#: what the file says of the tournament's season: enough to find it again, or to make it where there is none
SEASON_FIELDS = ("uid", "name", "game", "scoring", "place_points", "best_of", "min_evenings")


def season_identity(season: Season | None) -> dict | None:
    if season is None:
        return None
    return {name: _plain_value(Season._meta.get_field(name), season) for name in SEASON_FIELDS}


def person_identity(person: Person) -> dict:
    """A register entry as the file names it: name and club, and its federation member number where it has one
    (never its contact)."""
    identity = {"first_name": person.first_name, "last_name": person.last_name, "club": person.club}
    if person.member_id is not None:
        identity["member"] = person.member.number
    return identity


def export_document(tournament: Tournament) -> dict:
    return _Exporter(tournament).document()


def dump_document(document: dict) -> bytes:
    """The document as UTF-8 JSON with one row per line: readable, and diffs show changed rows."""

    def one_line(value):
        return json.dumps(value, ensure_ascii=False)

    lines = ["{"]
    for key in ("format", "version", "tournament", "season"):
        lines.append(f"  {one_line(key)}: {one_line(document.get(key))},")
    if "federation_season" in document:
        lines.append(f'  "federation_season": {one_line(document["federation_season"])},')
    lines.append('  "models": [')
    for n, table in enumerate(document["models"]):
        rows = ",\n".join(f"      {one_line(row)}" for row in table["rows"])
        body = f"\n{rows}\n    ]" if rows else "]"
        comma = "," if n < len(document["models"]) - 1 else ""
        lines.append(f'    {{"model": {one_line(table["model"])}, "rows": [{body}}}{comma}')
    lines.append("  ]")
    lines.append("}")
    return ("\n".join(lines) + "\n").encode("utf-8")


def export_tournament(tournament: Tournament) -> bytes:
    return dump_document(export_document(tournament))


def export_filename(tournament: Tournament) -> str:
    return f"{tournament.slug}.tournament.json"


# --- import ---------------------------------------------------------------------------------------

#: integers in a file have at most this many digits: every number this app stores fits in 64 bits
MAX_INT_DIGITS = 18
#: fields computed on import from the rest of the file, never read from it (the game's recompute path)
RECOMPUTED = {("scoring.scoresheet", "derived")}


def _integer_range(f: models.Field) -> tuple[int | None, int | None]:
    """What every supported database stores in this integer column (SQLite alone would take anything)."""
    from django.db.backends.base.operations import BaseDatabaseOperations

    return BaseDatabaseOperations.integer_field_ranges.get(f.get_internal_type(), (None, None))


def _json_type_ok(f: models.Field, value: Any) -> bool:
    """A file value has the JSON type the exporter writes for this field (no number where text belongs)."""
    if value is None or isinstance(f, models.JSONField):
        return True
    if isinstance(f, models.BooleanField):
        return isinstance(value, bool)
    if isinstance(f, models.IntegerField):
        return isinstance(value, int) and not isinstance(value, bool)
    if isinstance(f, models.FloatField):
        return isinstance(value, int | float) and not isinstance(value, bool)
    return isinstance(value, str)


def max_import_bytes() -> int:
    return settings.TOURNAMENT_IMPORT_MAX_BYTES


class _BadNumber(ValueError):
    pass


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise _BadNumber(text)
    return int(text)


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e999
        raise _BadNumber(text)
    return value


def _refuse_constant(name: str):  # NaN, Infinity, -Infinity: not JSON, though Python would read them
    raise _BadNumber(name)


def parse_document(data: bytes) -> dict:
    """Check size, JSON, format and version; return the document."""
    if len(data) > max_import_bytes():
        raise TransferError(
            _("The file is larger than %(limit)s MB.") % {"limit": max_import_bytes() // (1024 * 1024)}
        )
    try:
        document = json.loads(data.decode("utf-8"), parse_int=_parse_int, parse_float=_parse_float,
                              parse_constant=_refuse_constant)
    except UnicodeDecodeError:
        raise TransferError(_("The file is not a text file in UTF-8.")) from None
    except RecursionError:  # brackets nested thousands deep: no file of this app looks like that
        raise TransferError(_("The file is not valid JSON (nested too deeply).")) from None
    except json.JSONDecodeError as error:
        raise TransferError(
            _("The file is not valid JSON (line %(line)s, column %(column)s: %(error)s).")
            % {"line": error.lineno, "column": error.colno, "error": error.msg}
        ) from None
    except _BadNumber as error:
        raise TransferError(
            _("The file holds a number this app cannot store: %(number)s") % {"number": _shorten(str(error))}
        ) from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise TransferError(_("This is not a tournament file of this app (the format name is missing or wrong)."))
    if document.get("version") not in READ_VERSIONS:
        raise TransferError(
            _("This tournament file has format version %(found)s; this app reads version %(expected)s.")
            % {"found": _shorten(str(document.get("version"))), "expected": VERSION}
        )
    if not isinstance(document.get("tournament"), dict) or not isinstance(document.get("models"), list):
        raise TransferError(_("The file has no tournament or no list of models."))
    return document


def _shorten(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else f"{text[:limit]}…"


def _rows_by_model(document: dict) -> dict[str, list[dict]]:
    known = {plan.label for plan in tournament_models()}
    rows: dict[str, list[dict]] = {Tournament._meta.label_lower: [{**document["tournament"], "id": TOURNAMENT_ID}]}
    for table in document["models"]:
        label = table.get("model") if isinstance(table, dict) else None
        if label not in known or label in rows:
            raise TransferError(
                _("The file contains an unknown or repeated kind of rows: %(model)s")
                % {"model": _shorten(str(label))}
            )
        if not isinstance(table.get("rows"), list) or not all(isinstance(row, dict) for row in table["rows"]):
            raise TransferError(_("The rows of %(model)s are not a list of objects.") % {"model": label})
        rows[label] = table["rows"]
    return rows


@dataclass(frozen=True)
class FoundRole:
    """A role the file gives a user: kept only when the importer chooses so."""

    username: str
    role: str
    #: a user of that name exists on this server (a role of an unknown user is always dropped)
    known: bool

    @property
    def role_label(self) -> str:
        return str(Role(self.role).label) if self.role in Role.values else self.role


@dataclass
class Preview:
    """A file checked by a full trial import: what it holds, and the roles the importer may keep."""

    name: str
    game: str
    roles: list[FoundRole]
    #: the file's people whose register entry here is unsure: the importer chooses
    people: list[FoundPerson] = field(default_factory=list)
    #: the tournament of this server with the file's identity (`same_tournament`), if any
    existing: Tournament | None = None
    #: the importer directs `existing`: he may replace its content with the file (`transfer_update`)
    may_update: bool = False
    #: what importing does with the season the file names (`join_season`); None: it names none
    season_note: str | None = None


# --- the player register: people are matched by name and club -----------------------------------------


IDENTITY_FIELDS = ("first_name", "last_name", "club")


def parse_identity(value: Any) -> dict | None:
    """A person's identity from the file ({"first_name", "last_name", "club"}, maybe a "member" number, read by
    `link_members`), or None when it is not one."""
    if not isinstance(value, dict) or set(value) - {"member"} != set(IDENTITY_FIELDS):
        return None
    identity = {}
    for name in IDENTITY_FIELDS:
        text = value[name]
        if not isinstance(text, str) or len(text) > Person._meta.get_field(name).max_length:
            return None
        identity[name] = " ".join(text.split())
    return identity if identity["last_name"] else None


def identity_key(identity: dict) -> str:
    return "|".join(identity[name].casefold() for name in IDENTITY_FIELDS)


@dataclass(frozen=True)
class RegisterMatch:
    #: the one entry of that name and club, when there is exactly one
    sure: int | None
    #: entries that may be the person: several of that name and club, or that name in another club
    candidates: tuple[tuple[int, str], ...] = ()


def register_match(identity: dict, organisation) -> RegisterMatch:
    """The entries of the club's register that may be this person of a file."""
    from .services.register import same_person
    from .services.text import same_name

    exact = same_person(identity["first_name"], identity["last_name"], identity["club"], organisation=organisation)
    if len(exact) == 1:
        return RegisterMatch(exact[0].pk)
    if exact:
        return RegisterMatch(None, tuple((p.pk, str(p)) for p in exact))
    name = same_name(f"{identity['first_name']} {identity['last_name']}")
    others = [p for p in Person.objects.of(organisation).filter(last_name__iexact=identity["last_name"])
              if same_name(p.name) == name]
    return RegisterMatch(None, tuple((p.pk, str(p)) for p in others))


@dataclass(frozen=True)
class FoundPerson:
    """A person of the file whose entry in this register is unsure: the importer picks one, or a new entry."""

    key: str
    label: str
    candidates: tuple[tuple[int, str], ...]


def found_people(document: dict, organisation) -> list[FoundPerson]:
    found: dict[str, FoundPerson] = {}
    for plan in tournament_models():
        for f in plan.persons:
            for row in _rows_by_model(document).get(plan.label, []):
                identity = parse_identity(row.get(f.name))
                if identity is None or identity_key(identity) in found:
                    continue
                match = register_match(identity, organisation)
                if match.sure is None and match.candidates:
                    label = " ".join(filter(None, (identity["first_name"], identity["last_name"])))
                    if identity["club"]:
                        label += f" ({identity['club']})"
                    found[identity_key(identity)] = FoundPerson(identity_key(identity), label, match.candidates)
    return sorted(found.values(), key=lambda p: p.label.casefold())


def found_roles(document: dict, *, by) -> list[FoundRole]:
    """The roles in the file, the importer's own left out (the importer always directs the import); a role is
    known where its user is a member of the importer's club (only they may hold one of its tournaments)."""
    user = _user_model()
    rows = _rows_by_model(document).get(TournamentRole._meta.label_lower, [])
    named = [(row.get("user"), row.get("role")) for row in rows if isinstance(row.get("user"), str)]
    club = organisation_of(by)
    members = members_of(club) if club is not None else user._default_manager.none()
    known = set(members.filter(**{f"{user.USERNAME_FIELD}__in": [n for n, _r in named]})
                .values_list(user.USERNAME_FIELD, flat=True))
    return [FoundRole(name, str(role), name in known) for name, role in sorted(named, key=lambda r: str(r[0]))
            if name != by.get_username()]


class _Skip(Exception):
    """The row cannot exist here: its user is missing, and it would have been deleted with that user."""


class _Importer:
    def __init__(self, by, keep_roles: Collection[str], people: Mapping[str, int | None] | None = None, *,
                 into: Tournament | None = None, kept_links: Mapping[str, tuple[str, str]] | None = None):
        self.by = by
        #: the tournament whose content the file replaces (`transfer_update`): it keeps its key, identity, short
        #: name, season and roles; None: a new tournament
        self.into = into
        #: the replaced tournament's table links by their file row (`link_key`): a link the file holds unchanged
        #: keeps its token, so the codes printed here still open it
        self.kept_links = dict(kept_links or {})
        #: the importer's club: the tournament's, its audit entries' and its new register entries'
        self.organisation = organisation_of(by)
        #: the importer's answers where the register match is unsure: identity key -> register entry (None: new)
        self.people = dict(people or {})
        self.person_pks: dict[str, int] = {}
        # the importer's own row is kept in its place (and made director): a round trip gives the same file; other
        # roles only for the club's members
        chosen = set()
        if keep_roles and self.organisation is not None:
            name = _user_model().USERNAME_FIELD
            chosen = set(members_of(self.organisation).filter(**{f"{name}__in": list(keep_roles)})
                         .values_list(name, flat=True))
        self.keep_roles = frozenset(chosen) | {by.get_username()}
        self.new_pk: dict[type, dict[int, Any]] = {}
        #: many-to-many lists, added once every row exists (their targets may come later in the file)
        self.pending_m2m: list[tuple[ModelPlan, dict, models.ManyToManyField, Any]] = []
        self.users: dict[str, Any] = {}

    def run(self, document: dict) -> Tournament:
        rows = _rows_by_model(document)
        self.load_users(rows)
        for plan in tournament_models():
            self.new_pk[plan.model] = {}
            skipped: set = set()
            for row in rows.get(plan.label, []):
                self.create(plan, row, skipped)
        self.add_m2m()
        tournament = Tournament.objects.get(pk=self.new_pk[Tournament][TOURNAMENT_ID])
        self.relink_json(tournament)
        self.check_game(tournament)
        if self.into is None:
            self.make_director(tournament)
        return tournament

    def load_users(self, rows: dict[str, list[dict]]) -> None:
        user = _user_model()
        names = {
            row.get(f.name)
            for plan in tournament_models()
            for row in rows.get(plan.label, [])
            for f in plan.users
            if isinstance(row.get(f.name), str)
        }
        lookup = {f"{user.USERNAME_FIELD}__in": names}
        self.users = {getattr(u, user.USERNAME_FIELD): u.pk for u in user._default_manager.filter(**lookup)}

    def create(self, plan: ModelPlan, row: dict, skipped: set) -> None:
        local_id = row.get("id")
        if not isinstance(local_id, int) or isinstance(local_id, bool) or local_id in self.new_pk[plan.model] \
                or local_id in skipped:
            raise TransferError(_("%(model)s: a row has a missing or repeated id.") % {"model": plan.label})
        known = {"id"} | {f.name for f in plan.model._meta.concrete_fields} | {f.name for f in plan.m2m}
        unknown = sorted(set(row) - known)
        if unknown:
            raise TransferError(
                _("%(model)s row %(id)s has unknown fields: %(fields)s")
                % {"model": plan.label, "id": local_id, "fields": _shorten(", ".join(unknown))}
            )
        # the club is given at once: the field's default (a laptop's one club) does not exist on a server of clubs
        obj = plan.model(**({"organisation": self.organisation} if (plan.label, "organisation") in LOCAL_LINKS
                            else {}))
        try:
            for f in plan.plain:
                if (plan.label, f.name) in RECOMPUTED:
                    continue
                if f.name in row:  # a field the file does not know keeps the model's default
                    setattr(obj, f.attname, self.plain(plan, row, f))
            for f in plan.inner:
                setattr(obj, f.attname, self.inner(plan, row, f))
            for f in plan.users:
                setattr(obj, f.attname, self.user(row, f))
            for f in plan.persons:
                setattr(obj, f.attname, self.person(plan, row, f))
        except _Skip:
            skipped.add(local_id)
            return
        if plan.model is Tournament and self.into is not None:
            obj.pk, obj.uid, obj.slug, obj.season_id = (self.into.pk, self.into.uid, self.into.slug,
                                                         self.into.season_id)
            obj.federation_season_id = self.into.federation_season_id
            obj._state.adding = False  # its own row: the unique checks leave it out
        elif plan.model is Tournament:
            obj.slug = free_slug(obj.slug or "tournament", self.organisation)
            if Tournament.objects.filter(uid=obj.uid).exists():
                obj.uid = uuid.uuid4()  # a new copy (the caller refuses it unless asked): an identity of its own
        if plan.label == "scoring.tablelink":
            kept = self.kept_links.pop(link_key(row), None)
            if kept is not None:
                obj.nonce, obj.token_hash = kept
            else:
                # a table link's token opens one tournament only: the copy's link gets a token of its own (the
                # original's printed codes never open the copy; its hash stays unique), whatever an older file held
                from scoring.results.links import new_token_for

                new_token_for(obj)
        self.validate(plan, row, obj)
        if plan.model is TournamentRole and (self.into is not None or row.get("user") not in self.keep_roles):
            # roles are access: only those the importer chose to keep; an update keeps the roles given here
            skipped.add(local_id)
            return
        # raw: keep the file's timestamps instead of auto_now/auto_now_add stamping "now"
        if plan.model is Tournament and self.into is not None:
            obj.save_base(raw=True, force_update=True)
        else:
            obj.save_base(raw=True, force_insert=True)
        self.new_pk[plan.model][local_id] = obj.pk
        self.pending_m2m += [(plan, row, f, obj.pk) for f in plan.m2m]

    def validate(self, plan: ModelPlan, row: dict, obj) -> None:
        """Every field against the model's choices, lengths and validators (links are checked by `target`)."""
        links = [f.name for f in (*plan.inner, *plan.users, *plan.persons)]
        links += [name for label, name in RECOMPUTED if label == plan.label]
        refused: dict[str, list[str]] = {}
        try:
            obj.full_clean(exclude=links, validate_unique=plan.model is Tournament)
        except ValidationError as error:
            refused = error.message_dict
        if plan.model is Tournament and "game" not in refused:
            try:
                check_game(obj.game)
            except ValidationError as error:
                refused |= error.message_dict
        if refused:
            problems = "; ".join(f"{name}: {' '.join(messages)}" for name, messages in sorted(refused.items()))
            raise TransferError(
                _("%(model)s row %(id)s: %(problems)s") % {"model": plan.label, "id": row["id"], "problems": problems}
            ) from None

    def where(self, plan: ModelPlan, row: dict, f) -> dict:
        return {"model": plan.label, "id": row["id"], "field": f.name}

    def plain(self, plan: ModelPlan, row: dict, f: models.Field) -> Any:
        try:
            if not _json_type_ok(f, row[f.name]):
                raise ValidationError(_("The value has the wrong type."))
            value = f.to_python(row[f.name])
            if value is None and not f.null:
                raise ValidationError(_("A value is required."))
            if isinstance(value, str) and f.max_length and len(value) > f.max_length:  # TextField has no validator
                raise ValidationError(_("The text is longer than %(max)s characters.") % {"max": f.max_length})
            low, high = _integer_range(f) if isinstance(f, models.IntegerField) else (None, None)
            if value is not None and low is not None and not low <= value <= high:
                raise ValidationError(_("The number is out of range."))
        except ValidationError as error:
            raise TransferError(
                _("%(model)s row %(id)s, field %(field)s: %(error)s")
                % {**self.where(plan, row, f), "error": " ".join(error.messages)}
            ) from None
        return value

    def inner(self, plan: ModelPlan, row: dict, f: models.Field) -> Any:
        ref = row.get(f.name)
        if ref is None:
            if not f.null:
                raise TransferError(_("%(model)s row %(id)s, field %(field)s: a value is required.")
                                    % self.where(plan, row, f))
            return None
        return self.target(plan, row, f, ref)

    def target(self, plan: ModelPlan, row: dict, f, ref) -> Any:
        """The new key of row `ref` of the model `f` links to.

        Models are created in dependency order, so the target exists unless the file lacks it (a
        link to a later row of the same model would need a second pass; no model has one).
        """
        try:
            return self.new_pk[f.related_model][ref]
        except (KeyError, TypeError):
            raise TransferError(
                _("%(model)s row %(id)s refers to %(target)s row %(ref)s, which is not in the file.")
                % {"model": plan.label, "id": row["id"], "target": f.related_model._meta.label_lower,
                   "ref": _shorten(str(ref))}
            ) from None

    def refs(self, plan: ModelPlan, row: dict, f) -> list:
        refs = row.get(f.name, [])
        if not isinstance(refs, list):
            raise TransferError(_("%(model)s row %(id)s, field %(field)s: a list is expected.")
                                % self.where(plan, row, f))
        if len(set(map(str, refs))) != len(refs):
            raise TransferError(_("%(model)s row %(id)s, field %(field)s: a row is named twice.")
                                % self.where(plan, row, f))
        return refs

    def user(self, row: dict, f: models.Field) -> Any:
        name = row.get(f.name)
        if name is None:
            return None
        if isinstance(name, str) and name in self.users:
            return self.users[name]
        # No such user here: as if the user had been deleted, except where a user is required,
        # which becomes the importing director (the tournament's creator, for one).
        if f.null:
            return None
        if f.remote_field.on_delete is models.CASCADE:
            raise _Skip
        return self.by.pk

    def person(self, plan: ModelPlan, row: dict, f) -> int | None:
        """The register entry of a participant: the importer's choice, the one entry of that name and club,
        or a new entry (also where the importer was not asked: the file was checked before the register changed).
        """
        value = row.get(f.name)
        if value is None:
            return None
        identity = parse_identity(value)
        if identity is None:
            raise TransferError(_("%(model)s row %(id)s, field %(field)s: a name and club are expected.")
                                % self.where(plan, row, f))
        key = identity_key(identity)
        if key not in self.person_pks:
            chosen = self.people.get(key)
            match = register_match(identity, self.organisation)
            if chosen is not None and Person.objects.of(self.organisation).filter(pk=chosen).exists():
                self.person_pks[key] = chosen
            elif key not in self.people and match.sure is not None:
                self.person_pks[key] = match.sure
            else:
                self.person_pks[key] = Person.objects.create(organisation=self.organisation, **identity).pk
        return self.person_pks[key]

    def add_m2m(self) -> None:
        for plan, row, f, owner_pk in self.pending_m2m:
            targets = [self.target(plan, row, f, ref) for ref in self.refs(plan, row, f)]
            through = f.remote_field.through
            source = through._meta.get_field(f.m2m_field_name()).attname
            target = through._meta.get_field(f.m2m_reverse_field_name()).attname
            through._default_manager.bulk_create([through(**{source: owner_pk, target: pk}) for pk in targets])

    def relink_json(self, tournament: Tournament) -> None:
        """The file's local ids inside JSON fields (the game's `json_links`) become this database's keys."""
        relink = json_links_of(tournament)
        for plan in tournament_models():
            fields = [f for f in plan.plain if isinstance(f, models.JSONField)]
            for obj in (rows_of(plan, tournament) if fields else ()):
                for f in fields:
                    value = getattr(obj, f.attname)
                    if value is None:
                        continue

                    def convert(model, ref, plan=plan, f=f, obj=obj):
                        try:
                            return self.new_pk[model][ref]
                        except (KeyError, TypeError):
                            raise TransferError(
                                _("%(model)s row %(id)s, field %(field)s refers to %(target)s row %(ref)s, "
                                  "which is not in the file.")
                                % {"model": plan.label, "id": self.local_of(plan.model, obj.pk), "field": f.name,
                                   "target": model._meta.label_lower, "ref": _shorten(str(ref))}
                            ) from None

                    try:
                        new = relink(plan.label, f.name, value, convert)
                    except ValidationError as error:
                        raise TransferError(
                            _("%(model)s row %(id)s, field %(field)s: %(error)s")
                            % {"model": plan.label, "id": self.local_of(plan.model, obj.pk), "field": f.name,
                               "error": " ".join(error.messages)}
                        ) from None
                    if new != value:
                        setattr(obj, f.attname, new)
                        obj.save_base(raw=True, update_fields=[f.attname])

    def local_of(self, model, pk) -> Any:
        return next((local for local, new in self.new_pk[model].items() if new == pk), pk)

    def check_game(self, tournament: Tournament) -> None:
        """The game's settings as its settings page would accept them; every result recomputed by its rules."""
        try:
            game_of(tournament).check_settings(tournament)
        except ValidationError as error:
            raise TransferError(
                _("The tournament's game settings are refused: %(error)s") % {"error": " ".join(error.messages)}
            ) from None
        try:
            recompute_sheets(tournament)
        except DomainError as error:
            raise TransferError(error.message) from None

    def make_director(self, tournament: Tournament) -> None:
        role, _created = TournamentRole.objects.get_or_create(
            tournament=tournament, user=self.by, defaults={"role": Role.DIRECTOR}
        )
        if role.role != Role.DIRECTOR:
            role.role = Role.DIRECTOR
            role.save(update_fields=["role"])


def link_key(row: dict) -> str:
    """A table link's row in a file without its local id: equal for the same link of the same tournament file."""
    return json.dumps({name: value for name, value in row.items() if name != "id"}, sort_keys=True)


def file_uid(document: dict) -> uuid.UUID | None:
    """The identity the file gives its tournament; None for a file without one (version 1) or a malformed one
    (the import refuses that with the field's message)."""
    try:
        return uuid.UUID(str(document["tournament"]["uid"]))
    except (KeyError, TypeError, ValueError):
        return None


def same_tournament(document: dict, organisation) -> Tournament | None:
    """The tournament of the importer's club that has the file's identity, if any. Another club's tournament
    is not looked at (a club does not learn what another holds): the file then becomes a new tournament with an
    identity of its own."""
    uid = file_uid(document)
    if uid is None:
        return None
    here = Tournament.objects.all() if organisation is None else Tournament.objects.of(organisation)
    return here.filter(uid=uid).first()


def free_slug(wanted: str, organisation) -> str:
    """The file's slug if it is free in the club, else the first free `<slug>-2`, `-3`, …: never another's. Another
    club's tournament of the same slug is no obstacle (the addresses carry the club); without a club (the
    installation's only one is taken at saving) every tournament counts."""
    base = wanted[:70]
    taken = Tournament.objects.all() if organisation is None else Tournament.objects.of(organisation)
    slug, n = base, 2
    while slug in RESERVED_SLUGS or taken.filter(slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    return slug


class _TrialDone(Exception):
    """Ends a trial import: its transaction is rolled back."""


def import_document(document: dict, *, by, keep_roles: Collection[str], people=None,
                    into: Tournament | None = None, kept_links=None) -> Tournament:
    """The file's rows in one transaction (a new tournament, or the content of `into`); a refusal saves nothing."""
    try:
        with transaction.atomic():
            tournament = _Importer(by, keep_roles, people, into=into, kept_links=kept_links).run(document)
    except IntegrityError as error:
        raise TransferError(
            _("The file holds rows that contradict each other (%(error)s).") % {"error": _shorten(str(error), 200)}
        ) from None
    except (ValidationError, DatabaseError, ValueError, TypeError, OverflowError) as error:
        raise TransferError(_("The file could not be imported: %(error)s") % {"error": _shorten(str(error), 200)}) \
            from None
    return tournament


def check_tournament_file(data: bytes, *, by) -> Preview:
    """Check a file by importing it in a transaction that is then rolled back; return what it holds.

    Raises `TransferError` exactly as `import_tournament` would, so a file that passes imports (as a new copy,
    when its tournament is here already: `Preview.existing`).
    """
    if not can_create_tournaments(by):
        raise TransferError(_("You are not allowed to create tournaments."))
    document = parse_document(data)
    preview = None
    try:
        with transaction.atomic():
            tournament = import_document(document, by=by, keep_roles=())
            preview = Preview(name=tournament.name, game=str(game_of(tournament).name),
                              roles=found_roles(document, by=by), season_note=join_season(tournament, document, by=by))
            raise _TrialDone
    except _TrialDone:
        pass
    # asked outside the trial: its new register entries are gone again
    preview.people = found_people(document, organisation_of(by))
    preview.existing = same_tournament(document, organisation_of(by))
    preview.may_update = preview.existing is not None and is_director(by, preview.existing)
    return preview


def already_here(existing: Tournament, *, by) -> str:
    """Why a file of a tournament that is here already is not imported as it is."""
    if is_director(by, existing):
        return _("This file is the tournament “%(name)s”, which is on this server already: update it with the "
                 "file, or import the file as a new tournament.") % {"name": existing.name}
    return _("This file is a tournament that is on this server already, and you do not direct it: it can only be "
             "imported as a new tournament, a copy of its own.")


def import_tournament(data: bytes, *, by, keep_roles: Collection[str] = (),
                      people: Mapping[str, int | None] | None = None, as_new: bool = False,
                      notes: list[str] | None = None) -> Tournament:
    """Create a new tournament from a file made by `export_tournament`; `by` becomes its director.

    The roles the file gives other users are dropped unless their user names are in `keep_roles` (on a
    server shared by clubs, a role is access to the tournament: the importer decides who keeps one).
    The file's players link to this register's entries: `people` holds the importer's answers where
    `found_people` found the match unsure (identity key -> entry, None: a new entry).
    A file whose tournament is here already (its identity) is refused unless `as_new`: then the copy gets an
    identity of its own. What became of the file's season is appended to `notes`.
    """
    if not can_create_tournaments(by):
        raise TransferError(_("You are not allowed to create tournaments."))
    document = parse_document(data)
    existing = same_tournament(document, organisation_of(by))
    with transaction.atomic():
        tournament = import_document(document, by=by, keep_roles=keep_roles, people=people)
        if existing is not None and not as_new:  # after the import's checks: a bad file hears what is wrong
            raise TransferError(already_here(existing, by=by))
        note = join_season(tournament, document, by=by)
        federation_notes = join_federation(tournament, document, by=by)
        # Logged outside the tournament: the file stays the same after a round trip.
        log_action(
            "tournament.import", by=by, obj=tournament,
            after={"slug": tournament.slug, "slug_in_file": _shorten(str(document["tournament"].get("slug")), 80),
                   "roles_kept": sorted(set(keep_roles) & {r.username for r in found_roles(document, by=by)}),
                   "new_identity": existing is not None},
        )
    if notes is not None:
        notes.extend(([note] if note is not None else []) + federation_notes)
    return tournament


# --- the season the file names --------------------------------------------------------------------------


def file_season(document: dict, *, by) -> Season | None:
    """The season the file names, unsaved and checked like a form; None when it names none."""
    spec = document.get("season")
    if spec is None:
        return None
    if not isinstance(spec, dict) or not set(spec) <= set(SEASON_FIELDS) or "uid" not in spec:
        raise TransferError(_("The file's season is not a season of this app."))
    season = Season(created_by=by, slug="season")
    refused: dict[str, list[str]] = {}
    for name, value in spec.items():
        f = Season._meta.get_field(name)
        try:
            if not _json_type_ok(f, value):
                raise ValidationError(_("The value has the wrong type."))
            setattr(season, f.attname, f.to_python(value))
        except ValidationError as error:
            refused[name] = error.messages
    if not refused:
        try:
            season.full_clean(exclude=["slug", "created_by", "organisation"], validate_unique=False)
        except ValidationError as error:
            refused = error.message_dict
    if refused:
        problems = "; ".join(f"{name}: {' '.join(messages)}" for name, messages in sorted(refused.items()))
        raise TransferError(_("The file's season is refused: %(problems)s") % {"problems": problems})
    return season


def join_season(tournament: Tournament, document: dict, *, by) -> str | None:
    """Make the tournament an evening of the season the file names: the season of that identity here, made here
    (with the file's name, game and scoring; the importer its director) where there is none. Returns what became
    of it for the importer to read (joined, or not and why); None when the file names no season. A tournament
    in a season already (an update) stays in it."""
    wanted = file_season(document, by=by)
    if wanted is None:
        return None
    if tournament.season_id is not None:
        return _("The tournament stays an evening of the season “%(season)s”.") % {"season": tournament.season.name}
    # the importer's club's season of that identity; another club's is not looked at (nor revealed)
    season = Season.objects.of(tournament.organisation_id).filter(uid=wanted.uid).first()
    try:
        with transaction.atomic():
            if season is None:
                season = create_season(by=by, name=wanted.name, game=wanted.game, scoring=wanted.scoring,
                                       place_points=wanted.place_points, best_of=wanted.best_of,
                                       min_evenings=wanted.min_evenings, language=tournament.language)
                if not Season.objects.filter(uid=wanted.uid).exists():  # else another club's: a new identity
                    season.uid = wanted.uid
                    season.save(update_fields=["uid"])
            tournament.season = add_evening(season, tournament, by=by).season
    except DomainError as error:
        return _("The tournament was not added to the season “%(season)s”: %(reason)s") % {
            "season": wanted.name, "reason": error.message}
    return _("The tournament is an evening of the season “%(season)s”.") % {"season": season.name}


# --- the federation: member numbers and the federation's season the file names ----------------------------------


def member_numbers(document: dict) -> dict[int, int]:
    """{participant number: member number} of the file's players whose register entry has a member number."""
    numbers = {}
    for row in _rows_by_model(document).get(Participant._meta.label_lower, []):
        person, number = row.get("person"), row.get("number")
        member = person.get("member") if isinstance(person, dict) else None
        if isinstance(member, int) and not isinstance(member, bool) and 0 < member < 2**31 \
                and isinstance(number, int):
            numbers[number] = member
    return numbers


def join_federation(tournament: Tournament, document: dict, *, by) -> list[str]:
    """Link the imported players' register entries to the members of the numbers the file gives, and let the
    tournament count in the federation's season the file names, both within the importer's club's federation.
    Returns what the importer reads: the numbers this federation does not know (those players are imported
    unlinked), a federation season not found. A club of no federation (a laptop) links nothing and says nothing."""
    federation = tournament.organisation.federation
    if federation is None:
        return []
    notes, unknown = [], []
    for participant in tournament.participants.filter(number__in=list(numbers := member_numbers(document)),
                                                      person__isnull=False).select_related("person"):
        number = numbers[participant.number]
        member = resolve(federation, number)
        if member is None:
            unknown.append(f"{number} ({participant.name})")
        elif participant.person.member_id is None:
            link_entry(participant.person, member.number, by=by)
    if unknown:
        notes.append(_("These member numbers are not known to %(federation)s; the players were imported without "
                       "a member number: %(numbers)s") % {"federation": federation.name, "numbers": ", ".join(unknown)})
    spec = document.get("federation_season")
    if isinstance(spec, dict) and tournament.federation_season_id is None:
        league = FederationSeason.objects.filter(federation=federation, uid=_uid_or_none(spec.get("uid")),
                                                 game=tournament.game).first()
        if league is None:
            notes.append(_("The federation season “%(season)s” the file names is not one of %(federation)s: the "
                           "tournament counts in no federation season.")
                         % {"season": _shorten(str(spec.get("name")), 80), "federation": federation.name})
        else:
            tournament.federation_season = join_federation_season(tournament, league, by=by).federation_season
            notes.append(_("The tournament counts in the federation season “%(season)s”.") % {"season": league.name})
    return notes


def _uid_or_none(value) -> uuid.UUID | None:
    try:
        return uuid.UUID(str(value))
    except ValueError:
        return None
