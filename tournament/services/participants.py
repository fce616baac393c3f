"""The registration desk, for every game: register, correct, delete before the draw, check in, withdraw.

A participant is a player (Schafkopf, the table games) or a team (Voms); both carry the desk's check-in
(`arrived`, `paid`, `paid_amount`). Every change is one function here: it checks the director, runs in a
transaction, writes the audit log (before/after) and raises `DomainError` with a translated message.
Names are stored once, on the participant or team; every page, printout and export reads them from there.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from django.db import transaction
from django.db.models import Max, Sum
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.games import game_of

from ..imports import ImportFileError, read_table, refuse_after_play
from ..models import Participant, Team
from ..permissions import require_director
from ..queries import draw_fixed, drawn
from .audit import log_action
from .errors import DomainError
from .replay import claim
from .text import limited_reason, same_name

MAX_NUMBER = 99999
PLAYER_FIELDS = ("first_name", "last_name", "club", "group")


class DuplicateName(DomainError):
    """The name is registered already: the desk asks the director to confirm a second registration."""

    def __init__(self, message, *, existing):
        super().__init__(message, field=None)
        self.existing = existing


@dataclass
class ImportReport:
    created: list[Participant] = field(default_factory=list)
    rejected: list[tuple[int, str]] = field(default_factory=list)
    #: rows that may be a mistake (a name twice, a team registered already under another name): nothing is
    #: imported until the director confirms them (`confirm_duplicates`)
    warnings: list[tuple[int, str]] = field(default_factory=list)
    #: teams registered (a team game's list): the message says teams, not only players
    teams: int = 0

    @property
    def held(self) -> bool:
        """Nothing imported: the warnings wait for the director's confirmation."""
        return bool(self.warnings) and not self.created

    @property
    def ok(self) -> bool:
        return not self.rejected and not self.held


def name_warnings(rows, tournament) -> list[tuple[int, str]]:
    """[(row number, full name)] of a list -> a warning for each name that is in the list twice (naming the
    first row) or registered already (naming the number): one person imported twice, unless two people share
    the name, which only the director knows."""
    registered = {}
    for number, first, last in tournament.participants.order_by("number").values_list(
            "number", "first_name", "last_name"):
        registered.setdefault(same_name(f"{first} {last}"), number)
    first_row: dict[str, int] = {}
    warnings = []
    for row_number, name in rows:
        key = same_name(name)
        if key in first_row:
            warnings.append((row_number, _("“%(name)s” is in the list twice (also row %(row)s).")
                             % {"name": " ".join(name.split()), "row": first_row[key]}))
        elif key in registered:
            warnings.append((row_number, _("“%(name)s” is registered already (number %(number)s).")
                             % {"name": " ".join(name.split()), "number": registered[key]}))
        first_row.setdefault(key, row_number)
    return warnings


#: what anyone but a director is told when changing the participants
NOT_DIRECTOR = gettext_lazy("Only a director of this tournament can change its participants.")


def next_number(tournament) -> int:
    return (tournament.participants.aggregate(m=Max("number"))["m"] or 0) + 1


def _parse_number(text: str) -> int | None:
    if not text:
        return None
    if not text.isdigit() or not 1 <= int(text) <= MAX_NUMBER:
        raise ValueError(text)
    return int(text)


def player_with_name(tournament, first_name: str, last_name: str, *, exclude=None) -> Participant | None:
    # The names are compared as plain values and only the one found is loaded: every registration asks this,
    # and model instances of the whole field for each one made a registration evening quadratic.
    wanted = same_name(f"{first_name} {last_name}")
    players = tournament.participants.all() if exclude is None else tournament.participants.exclude(pk=exclude.pk)
    names = players.order_by("number").values_list("pk", "first_name", "last_name")
    found = next((pk for pk, first, last in names if same_name(f"{first} {last}") == wanted), None)
    return None if found is None else Participant.objects.get(pk=found)


def team_with_name(tournament, name: str, *, exclude=None) -> Team | None:
    wanted = same_name(name)
    teams = tournament.teams.all() if exclude is None else tournament.teams.exclude(pk=exclude.pk)
    names = teams.values_list("pk", "name")
    found = next((pk for pk, team_name in names if same_name(team_name) == wanted), None)
    return None if found is None else Team.objects.get(pk=found)


def refuse_unconfirmed_duplicate_player(tournament, first_name, last_name, *, confirmed: bool, exclude=None):
    existing = player_with_name(tournament, first_name, last_name, exclude=exclude)
    if existing is not None and not confirmed:
        raise DuplicateName(
            _("%(name)s is registered already (number %(number)s). Register a second player of the same name?")
            % {"name": existing.name, "number": existing.number}, existing=existing)


def refuse_unconfirmed_duplicate_team(tournament, name, *, confirmed: bool, exclude=None):
    existing = team_with_name(tournament, name, exclude=exclude)
    if existing is not None and not confirmed:
        raise DuplicateName(
            _("There is a team called “%(name)s” already (number %(number)s). Register a second team of that name?")
            % {"name": existing.name, "number": existing.number}, existing=existing)


def add_participant(tournament, *, by, last_name, first_name="", club="", group="", number=None,
                    confirm_duplicate: bool = False, sent=None, person=None) -> Participant:
    """Register one player; a second player of the same name needs `confirm_duplicate`.

    The player links to the register entry `person` (picked at the desk), else to the register's entry of the
    same name and club, else to a new one (`tournament.services.register.person_for`).
    With `sent` (`tournament.services.replay`) a form sent twice registers once."""
    from .register import person_for

    require_director(by, tournament, NOT_DIRECTOR)
    last_name = last_name.strip()
    if not last_name:
        raise DomainError(_("A participant needs a last name."), field="last_name")
    refuse_unconfirmed_duplicate_player(tournament, first_name, last_name, confirmed=confirm_duplicate)
    with transaction.atomic():
        claim(sent, by=by, action="participant.add", what=f"{first_name.strip()} {last_name}".strip())
        if number is None:
            number = next_number(tournament)
        elif tournament.participants.filter(number=number).exists():
            raise DomainError(_("Participant number %(number)s is taken.") % {"number": number}, field="number")
        participant = Participant.objects.create(
            tournament=tournament, number=number, first_name=first_name.strip(), last_name=last_name,
            club=club.strip(), group=group.strip(),
            person=person_for(first_name, last_name, club, picked=person, tournament=tournament),
        )
        log_action("participant.add", by=by, tournament=tournament, obj=participant,
                   after={"number": number, "name": participant.name, "club": participant.club},
                   reason=_("second registration of the same name, confirmed") if confirm_duplicate else "")
    return participant


# --- teams (a side of one or two players: Voms) ---------------------------------------------------------


def new_player(tournament, first_name: str, last_name: str, *, number: int | None = None) -> Participant:
    """A player of a team (or one without a partner yet), under `number` or the next free one."""
    return Participant.objects.create(
        tournament=tournament, number=next_number(tournament) if number is None else number,
        first_name=first_name.strip(), last_name=last_name.strip(),
    )


def split_name(full: str) -> tuple[str, str]:
    """"Anna Maria Huber" -> ("Anna Maria", "Huber"): the last word is the last name."""
    parts = full.strip().rsplit(" ", 1)
    return (parts[0], parts[1]) if len(parts) == 2 else ("", parts[0])


def next_team_number(tournament) -> int:
    last = tournament.teams.order_by("-number").values_list("number", flat=True).first()
    return (last or 0) + 1


def refuse_team_after_play(tournament) -> None:
    """Once results are in, the pools are fixed: a team (or a player without a partner) registered now would play
    in no pool, so it is refused with what can be done instead."""
    if draw_fixed(tournament):
        raise DomainError(_(
            "Results have been entered, so the pools are fixed and a team can no longer be registered: it would "
            "play in no pool. A team can join only until the first result, when the pools are drawn again. A late "
            "player can take the place of a team's player: correct that player's name on the team's page."))


def register_team(tournament, *, by, name: str, players: list[str], seeded: bool = False,
                  confirm_duplicate: bool = False, sent=None, imported_from: str = "") -> Team:
    """A team of 1 or 2 players, given as full names ("First Last"); a second team of the same name needs
    `confirm_duplicate` (the desk asks). Refused once results are in (`refuse_team_after_play`).
    `sent`: see `tournament.services.replay`. `imported_from`: the list's file name, when an import registers
    the team (its rows are checked there; the audit says so)."""
    require_director(by, tournament, NOT_DIRECTOR)
    refuse_team_after_play(tournament)
    players = [" ".join(p.split()) for p in players if p and p.strip()]
    if not 1 <= len(players) <= 2:
        raise DomainError(_("A team has one or two players."), field="player1")
    name = " ".join(name.split()) or " & ".join(players)
    refuse_unconfirmed_duplicate_team(tournament, name, confirmed=confirm_duplicate)
    with transaction.atomic():
        claim(sent, by=by, action="team.add", what=name)
        team = Team.objects.create(tournament=tournament, number=next_team_number(tournament), name=name,
                                   seeded=seeded)
        first = next_number(tournament)  # the team's players get the next numbers in turn
        team.members.add(*(new_player(tournament, *split_name(p), number=first + n) for n, p in enumerate(players)))
        if imported_from:
            reason = _("imported from the list “%(file)s”") % {"file": imported_from}
        else:
            reason = _("second registration of the same name, confirmed") if confirm_duplicate else ""
        log_action("team.add", by=by, tournament=tournament, obj=team,
                   after={"name": name, "players": players, "seeded": seeded}, reason=reason)
    return team


def set_team_withdrawn(team: Team, withdrawn: bool, *, by) -> Team:
    """Withdraw a team (or reinstate it) before the pool draw, or while it is in no pool (registered after the
    draw); its players go with it."""
    tournament = team.tournament
    require_director(by, tournament, NOT_DIRECTOR)
    with transaction.atomic():
        if drawn(tournament) and team.pool_entries.exists():
            raise DomainError(_("The pools are drawn already: redo the draw after changing the teams."))
        team = Team.objects.select_for_update().get(pk=team.pk)
        if team.withdrawn == withdrawn:
            return team
        team.withdrawn = withdrawn
        team.save(update_fields=["withdrawn"])
        status = Participant.Status.WITHDRAWN if withdrawn else Participant.Status.ACTIVE
        team.members.update(status=status)
        log_action("team.withdraw" if withdrawn else "team.reinstate", by=by, tournament=tournament, obj=team,
                   before={"withdrawn": not withdrawn}, after={"withdrawn": withdrawn})
    return team


# --- correcting and deleting ---------------------------------------------------------------------------


def team_name_of(players) -> str:
    """The name a team gets when none is typed: its players' names."""
    return " & ".join(p.name for p in players)


def update_participant(participant: Participant, *, by, number=None, confirm_duplicate: bool = False,
                       **changes) -> Participant:
    """Correct a player's name, club, group or number, at any time.

    A team named after its players (no name of its own was typed) follows the new name, so no list shows
    the old one. A new number must be free; a fixed table follows the player to the new number. A corrected name
    or club reaches the register entry the desk made from the typo (`register.follow_desk_correction`).
    """
    tournament = participant.tournament
    require_director(by, tournament, NOT_DIRECTOR)
    changes = {name: " ".join(str(value).split()) for name, value in changes.items() if name in PLAYER_FIELDS}
    if "last_name" in changes and not changes["last_name"]:
        raise DomainError(_("A participant needs a last name."), field="last_name")
    new_first = changes.get("first_name", participant.first_name)
    new_last = changes.get("last_name", participant.last_name)
    if same_name(f"{new_first} {new_last}") != same_name(participant.name):
        refuse_unconfirmed_duplicate_player(tournament, new_first, new_last, confirmed=confirm_duplicate,
                                            exclude=participant)
    with transaction.atomic():
        participant = Participant.objects.select_for_update().get(pk=participant.pk)
        if number is not None and number != participant.number:
            if not 1 <= number <= MAX_NUMBER:
                raise DomainError(_("A participant number is between 1 and %(max)s.") % {"max": MAX_NUMBER},
                                  field="number")
            if tournament.participants.filter(number=number).exists():
                raise DomainError(_("Participant number %(number)s is taken.") % {"number": number},
                                  field="number")
            changes["number"] = number
        changes = {name: value for name, value in changes.items() if getattr(participant, name) != value}
        if not changes:
            return participant
        teams = [(team, team_name_of(team.members.all())) for team in participant.teams.all()]
        before = {name: getattr(participant, name) for name in changes}
        for name, value in changes.items():
            setattr(participant, name, value)
        participant.save(update_fields=list(changes))
        if "number" in changes:
            _move_fixed_table(tournament, before["number"], number)
        log_action("participant.update", by=by, tournament=tournament, obj=participant, before=before,
                   after=changes)
        if {"first_name", "last_name", "club"} & changes.keys():
            from .register import follow_desk_correction

            follow_desk_correction(participant, {name: before.get(name, getattr(participant, name))
                                                 for name in ("first_name", "last_name", "club")}, by=by)
        for team, old_auto_name in teams:
            if team.name == old_auto_name:
                _rename_team(team, team_name_of(team.members.all()), by=by)
    return participant


def _move_fixed_table(tournament, old: int, new: int) -> None:
    # the seating's fixed tables are kept by participant number in the tournament's settings
    fixed = dict((tournament.settings or {}).get("fixed_tables") or {})
    if str(old) in fixed:
        fixed[str(new)] = fixed.pop(str(old))
        tournament.settings = {**tournament.settings, "fixed_tables": fixed}
        tournament.save(update_fields=["settings", "updated"])


def _rename_team(team: Team, name: str, *, by) -> None:
    before = {"name": team.name}
    team.name = name
    team.save(update_fields=["name"])
    log_action("team.update", by=by, tournament=team.tournament, obj=team, before=before, after={"name": name})


def update_team(team: Team, *, by, name: str, seeded: bool | None = None, confirm_duplicate: bool = False) -> Team:
    """Correct a team's name (or whether it is seeded), at any time; lists and printouts read the new name."""
    tournament = team.tournament
    require_director(by, tournament, NOT_DIRECTOR)
    name = " ".join(name.split())
    if not name:
        raise DomainError(_("A team needs a name."), field="name")
    if same_name(name) != same_name(team.name):
        refuse_unconfirmed_duplicate_team(tournament, name, confirmed=confirm_duplicate, exclude=team)
    with transaction.atomic():
        team = Team.objects.select_for_update().get(pk=team.pk)
        if seeded is not None and seeded != team.seeded:
            if drawn(tournament):
                raise DomainError(_("The pools are drawn: whether a team is seeded counts only in a new draw."),
                                  field="seeded")
            log_action("team.update", by=by, tournament=tournament, obj=team, before={"seeded": team.seeded},
                       after={"seeded": seeded})
            team.seeded = seeded
            team.save(update_fields=["seeded"])
        if name != team.name:
            _rename_team(team, name, by=by)
    return team


def _refuse_delete_after_draw(tournament) -> None:
    if drawn(tournament):
        raise DomainError(_("The draw is made: a mistaken entry can no longer be deleted, only withdrawn."))


def _snapshot(participant: Participant) -> dict:
    return {"number": participant.number, "first_name": participant.first_name,
            "last_name": participant.last_name, "club": participant.club, "group": participant.group}


def delete_participant(participant: Participant, *, by, reason: str = "") -> None:
    """Delete a mistaken registration; only before the draw (afterwards the player is withdrawn)."""
    tournament = participant.tournament
    require_director(by, tournament, NOT_DIRECTOR)
    with transaction.atomic():
        _refuse_delete_after_draw(tournament)
        teams = list(participant.teams.all())
        if teams:
            raise DomainError(_("%(name)s plays in team “%(team)s”: delete the team instead.")
                              % {"name": participant.name, "team": teams[0].name})
        log_action("participant.delete", by=by, tournament=tournament, obj=participant,
                   before=_snapshot(participant), reason=reason)
        participant.delete()


def delete_team(team: Team, *, by, reason: str = "") -> None:
    """Delete a mistaken team registration and its players (unless they also play elsewhere); only before the draw."""
    tournament = team.tournament
    require_director(by, tournament, NOT_DIRECTOR)
    with transaction.atomic():
        _refuse_delete_after_draw(tournament)
        members = list(team.members.all())
        log_action("team.delete", by=by, tournament=tournament, obj=team,
                   before={"number": team.number, "name": team.name, "players": [_snapshot(p) for p in members],
                           "seeded": team.seeded}, reason=reason)
        team.delete()
        for player in members:
            if not player.teams.exists():
                player.delete()


# --- check-in ------------------------------------------------------------------------------------------


def entrants(tournament):
    """Who checks in at the desk: the teams of a team game, else the players; withdrawn ones included."""
    if game_of(tournament).participants == "team":
        return tournament.teams.prefetch_related("members").order_by("number")
    return tournament.participants.order_by("number")


def entrant(tournament, pk):
    return entrants(tournament).get(pk=pk)


def is_withdrawn(entry) -> bool:
    if isinstance(entry, Team):
        return entry.withdrawn
    return entry.status != Participant.Status.ACTIVE


def fee_of(tournament) -> Decimal | None:
    """The entry fee per entrant, or None where the tournament takes none."""
    return tournament.entry_fee if tournament.entry_fee else None


def _checkin_state(entry) -> dict:
    return {"arrived": entry.arrived, "paid": entry.paid, "paid_amount": entry.paid_amount}


def _log_checkin(action, entry, before, *, by) -> None:
    log_action(action, by=by, tournament=entry.tournament, obj=entry, before=before, after=_checkin_state(entry))


def mark_arrived(entry, *, by, arrived: bool = True):
    """The player or team is here (or, with `arrived=False`, was marked by mistake)."""
    require_director(by, entry.tournament, NOT_DIRECTOR)
    with transaction.atomic():
        entry = type(entry).objects.select_for_update().get(pk=entry.pk)
        if is_withdrawn(entry) and arrived:
            raise DomainError(_("%(name)s is withdrawn: reinstate them before checking them in.")
                              % {"name": entry.name})
        if entry.arrived != arrived:
            before = _checkin_state(entry)
            entry.arrived = arrived
            entry.save(update_fields=["arrived"])
            _log_checkin("checkin.arrived" if arrived else "checkin.not_arrived", entry, before, by=by)
    return entry


def mark_paid(entry, *, by, amount: Decimal | None = None, paid: bool = True):
    """Record the entry fee as paid (the fee, or `amount` when it differs), or take a payment back.

    Paying also marks the entrant as arrived: nobody pays at the desk for someone who is not there.
    """
    tournament = entry.tournament
    require_director(by, tournament, NOT_DIRECTOR)
    fee = fee_of(tournament)
    if paid and amount is not None and (amount < 0 or amount >= Decimal("1000000")):
        raise DomainError(_("Type an amount of money, 0 or more."), field="amount")
    with transaction.atomic():
        entry = type(entry).objects.select_for_update().get(pk=entry.pk)
        if is_withdrawn(entry) and paid:
            raise DomainError(_("%(name)s is withdrawn: reinstate them before taking a payment.")
                              % {"name": entry.name})
        before = _checkin_state(entry)
        entry.paid = paid
        entry.paid_amount = (amount if amount is not None else fee) if paid else None
        if paid:
            entry.arrived = True
        if before != _checkin_state(entry):
            entry.save(update_fields=["arrived", "paid", "paid_amount"])
            _log_checkin("checkin.paid" if paid else "checkin.not_paid", entry, before, by=by)
    return entry


@dataclass(frozen=True)
class CheckInCounts:
    registered: int
    arrived: int
    #: entrants who paid, withdrawn ones included: their fee stays in the takings (it is not refunded)
    paid: int
    takings: Decimal
    #: of `paid`, the entrants withdrawn since
    paid_withdrawn: int = 0

    @property
    def started(self) -> bool:
        return self.arrived > 0 or self.paid > self.paid_withdrawn

    @property
    def no_shows(self) -> int:
        return self.registered - self.arrived if self.started else 0


def checkin_counts(tournament) -> CheckInCounts:
    """The desk's counters: registered and arrived over the entrants still in the tournament; paid over every
    payment, as the takings are (a withdrawn entrant's fee is not refunded), with how many of them withdrew."""
    everyone = list(entrants(tournament))
    active = [e for e in everyone if not is_withdrawn(e)]
    return CheckInCounts(
        registered=len(active),
        arrived=sum(e.arrived for e in active),
        paid=sum(e.paid for e in everyone),
        takings=takings(tournament),
        paid_withdrawn=sum(e.paid for e in everyone if is_withdrawn(e)),
    )


def takings(tournament) -> Decimal:
    """What was paid at the desk (withdrawn entrants' payments included: the fee is not refunded)."""
    model_entries = tournament.teams if game_of(tournament).participants == "team" else tournament.participants
    total = model_entries.filter(paid=True).aggregate(total=Sum("paid_amount"))["total"]
    return (total or Decimal("0")).quantize(Decimal("0.01"))


def payments_recorded(tournament) -> bool:
    model_entries = tournament.teams if game_of(tournament).participants == "team" else tournament.participants
    return model_entries.filter(paid=True).exists()


def no_shows(tournament) -> list:
    """Registered and not withdrawn, but not arrived — once check-in has started (else nobody is missing)."""
    counts = checkin_counts(tournament)
    if not counts.started:
        return []
    return [e for e in entrants(tournament) if not is_withdrawn(e) and not e.arrived]


def withdraw_no_shows(tournament, *, by) -> list:
    """Withdraw everyone who has not arrived, in one audited step, before the draw seats anyone."""
    require_director(by, tournament, NOT_DIRECTOR)
    with transaction.atomic():
        if drawn(tournament):
            raise DomainError(_("The draw is made already: withdraw who is missing one by one, then redo the draw."))
        missing = no_shows(tournament)
        if not missing:
            raise DomainError(_("Nobody is missing: everyone registered has arrived, or check-in has not started."))
        for entry in missing:
            if isinstance(entry, Team):
                entry.withdrawn = True
                entry.save(update_fields=["withdrawn"])
                entry.members.update(status=Participant.Status.WITHDRAWN, status_reason=_("did not arrive"))
            else:
                entry.status, entry.status_reason = Participant.Status.WITHDRAWN, _("did not arrive")
                entry.save(update_fields=["status", "status_reason"])
        log_action("checkin.withdraw_no_shows", by=by, tournament=tournament, obj=tournament,
                   after={"withdrawn": [f"{e.number} {e.name}" for e in missing]})
    return missing


def set_participant_status(participant, status: str, *, by, reason: str = "") -> Participant:
    tournament = participant.tournament
    require_director(by, tournament, NOT_DIRECTOR)
    reason = limited_reason(reason)
    if status == Participant.Status.EXCLUDED and not reason.strip():
        raise DomainError(_("Say why the player is excluded."), field="reason")
    with transaction.atomic():
        before = {"status": participant.status, "reason": participant.status_reason}
        participant.status, participant.status_reason = status, reason.strip()
        participant.save(update_fields=["status", "status_reason"])
        log_action(f"participant.{status}", by=by, tournament=tournament, obj=participant, before=before,
                   after={"status": status, "reason": participant.status_reason}, reason=reason)
    return participant


def import_participants(tournament, filename: str, data: bytes, *, by, sent=None,
                        confirm_duplicates: bool = False) -> ImportReport:
    """Import players from a list; if any row is rejected, nothing is imported and the report says why.
    A name twice in the list, or registered already, holds the import back with a warning until the director
    confirms it (`confirm_duplicates`): two people may share a name, one person is not imported twice unasked."""
    require_director(by, tournament, NOT_DIRECTOR)
    report = ImportReport()
    try:
        refuse_after_play(tournament)
        parsed = read_table(filename, data, required=("last_name",))
    except ImportFileError as error:
        report.rejected.append((0, str(error)))
        return report
    report.rejected.extend(parsed.rejected)
    taken = set(tournament.participants.values_list("number", flat=True))
    candidates = []
    for row_number, row in parsed.rows:
        if not row.get("last_name"):
            report.rejected.append((row_number, _("The last name is missing.")))
            continue
        try:
            number = _parse_number(row.get("number", ""))
        except ValueError:
            report.rejected.append(
                (row_number, _("“%(value)s” is not a participant number (1 to %(max)s).")
                 % {"value": row["number"], "max": MAX_NUMBER})
            )
            continue
        if number is not None and number in taken:
            report.rejected.append((row_number, _("Participant number %(number)s is taken.") % {"number": number}))
            continue
        if number is not None:
            taken.add(number)
        candidates.append((number, row))
    if report.rejected:
        return report
    report.warnings = name_warnings(
        [(row_number, f"{row.get('first_name', '')} {row['last_name']}") for row_number, row in parsed.rows],
        tournament)
    if report.warnings and not confirm_duplicates:
        return report
    from .register import persons_for

    with transaction.atomic():
        claim(sent, by=by, action="participant.import", what=filename)
        auto = max(taken | {0}) + 1
        # the register's entries and the participants in a few queries, whatever the length of the list
        persons = persons_for([(row.get("first_name", ""), row["last_name"], row.get("club", ""))
                               for _number, row in candidates], tournament)
        participants = []
        for (number, row), person in zip(candidates, persons, strict=True):
            if number is None:
                number, auto = auto, auto + 1
            participants.append(Participant(
                tournament=tournament, number=number, first_name=row.get("first_name", ""),
                last_name=row["last_name"], club=row.get("club", ""), group=row.get("group", ""), person=person))
        report.created.extend(Participant.objects.bulk_create(participants))
        log_action("participant.import", by=by, tournament=tournament, obj=tournament,
                   after={"file": filename, "created": len(report.created)},
                   reason=_("the warnings about names in the list, confirmed") if report.warnings else "")
    return report
