"""A club's player register: people who play in many of its tournaments (tournament/models/season.py).

Each club keeps its own register (`Person.objects.of(club)`): every lookup here is of one club's entries, a
tournament's participants link to entries of the tournament's club, and a merge joins two entries of one club.
A tournament's participant links to a `Person`: the one the desk picked from the suggestions, else the one
person of the same name and club, else a new entry. The club's directors keep the register: correct an entry,
merge two entries that are the same person (audited: nothing is lost, the participations move to the entry kept),
and fill a new tournament with an earlier one's players in one step.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from scoring.games import game_of

from ..imports import ImportFileError, refuse_after_play
from ..models import Participant, Person, Tournament
from ..permissions import is_director
from ..queries import drawn
from ..tenancy import directs_in, organisation_of
from .audit import log_action
from .errors import DomainError
from .text import same_name

PERSON_FIELDS = ("first_name", "last_name", "club", "contact")
SUGGESTIONS = 10


def _require_register_keeper(by, organisation) -> None:
    if not directs_in(by, organisation):
        raise DomainError(_("Only a director can change the player register."))


def _tidy(text: str) -> str:
    return " ".join(str(text).split())


def same_person(first_name: str, last_name: str, club: str, *, organisation) -> list[Person]:
    """The club's register entries of this name and (home) club (case and spacing do not count)."""
    name, wanted_club = same_name(f"{first_name} {last_name}"), same_name(club)
    # compared as plain values, only the entries found loaded: a new player (the usual case) loads none
    candidates = Person.objects.of(organisation).filter(last_name__iexact=_tidy(last_name)).values_list(
        "pk", "first_name", "last_name", "club")
    found = [pk for pk, first, last, its_club in candidates
             if same_name(f"{first} {last}") == name and same_name(its_club) == wanted_club]
    return list(Person.objects.filter(pk__in=found)) if found else []


def suggest(query: str, *, organisation, limit: int = SUGGESTIONS) -> list[Person]:
    """The club's register entries whose name (or club) holds every word typed, for the desk's suggestion list."""
    words = same_name(query).split()[:4]
    if not words or len(query) > 200:
        return []
    condition = Q()
    for word in words:
        condition &= Q(first_name__icontains=word) | Q(last_name__icontains=word) | Q(club__icontains=word)
    return list(Person.objects.of(organisation).filter(condition)
                .order_by("last_name", "first_name", "club", "pk")[:limit])


def person_for(first_name: str, last_name: str, club: str = "", *, picked: Person | None = None,
               tournament: Tournament) -> Person:
    """The entry of the club's register a new participant of `tournament` links to: the picked one, else the one of
    that name and club who does not play in it yet, else a new entry. Two entries of that name and club: the first
    is taken (the register page merges them)."""
    if picked is not None:
        if picked.organisation_id != tournament.organisation_id:
            raise DomainError(_("There is no register entry with this number."), field="last_name")
        already = tournament.participants.filter(person=picked).first()
        if already is not None:
            raise DomainError(_("%(name)s from the register is registered already (number %(number)s).")
                              % {"name": picked.name, "number": already.number}, field="last_name")
        return picked
    found = same_person(first_name, last_name, club, organisation=tournament.organisation_id)
    if found:
        playing = set(tournament.participants.filter(person__in=found).values_list("person_id", flat=True))
        found = [p for p in found if p.pk not in playing]
    if found:
        return found[0]
    return Person.objects.create(organisation_id=tournament.organisation_id, first_name=_tidy(first_name),
                                 last_name=_tidy(last_name), club=_tidy(club))


def persons_for(names: list[tuple[str, str, str]], tournament: Tournament) -> list[Person]:
    """`person_for(first, last, club, tournament=tournament)` of each (first, last, club) in turn, as if each
    participant were created before the next one is looked up (a name twice in the list gets the register's
    entry once, then a new one), in a fixed number of queries: for an import of a whole field. One query reads the
    register's names (compared as `same_person` does: the last name case-insensitively, then name and club as the
    desk compares them), one loads the entries found, one the ones playing in `tournament`, one creates the rest."""
    def key(first: str, last: str, club: str) -> tuple[str, str, str]:
        return same_name(f"{first} {last}"), same_name(club), _tidy(last).upper()

    keys = [key(*name) for name in names]
    wanted = set(keys)
    register = Person.objects.of(tournament.organisation_id)
    found = [pk for pk, first, last, club in register.values_list("pk", "first_name", "last_name", "club")
             if (same_name(f"{first} {last}"), same_name(club), last.upper()) in wanted]
    available: dict[tuple[str, str, str], list[Person]] = {}
    if found:
        playing = set(tournament.participants.filter(person__in=found).values_list("person_id", flat=True))
        for person in Person.objects.filter(pk__in=found):  # in the register's order, as same_person gives them
            if person.pk not in playing:
                available.setdefault(key(person.first_name, person.last_name, person.club), []).append(person)
    persons: list[Person | None] = []
    new: list[Person] = []
    for (first, last, club), row_key in zip(names, keys, strict=True):
        if available.get(row_key):
            persons.append(available[row_key].pop(0))
        else:
            person = Person(organisation_id=tournament.organisation_id, first_name=_tidy(first),
                            last_name=_tidy(last), club=_tidy(club))
            new.append(person)
            persons.append(person)
    Person.objects.bulk_create(new)
    return persons


def link_to_register(tournament: Tournament) -> int:
    """Link every participant of the tournament that has no register entry yet; returns how many were linked.

    Called when a tournament joins a season, so that players registered before the register existed count."""
    linked = 0
    with transaction.atomic():
        for participant in tournament.participants.filter(person__isnull=True).order_by("number"):
            participant.person = person_for(participant.first_name, participant.last_name, participant.club,
                                            tournament=tournament)
            participant.save(update_fields=["person"])
            linked += 1
    return linked


def create_person(*, by, organisation=None, first_name: str = "", last_name: str, club: str = "",
                  contact: str = "") -> Person:
    """A new entry of the register of `organisation` (default: the club `by` works for)."""
    if organisation is None:
        organisation = organisation_of(by)
    _require_register_keeper(by, organisation)
    values = {"first_name": _tidy(first_name), "last_name": _tidy(last_name), "club": _tidy(club),
              "contact": _tidy(contact)}
    if not values["last_name"]:
        raise DomainError(_("A person needs a last name."), field="last_name")
    with transaction.atomic():
        person = Person.objects.create(organisation=organisation, **values)
        log_action("person.add", by=by, obj=person, after={k: v for k, v in values.items() if k != "contact"})
    return person


def update_person(person: Person, *, by, **changes) -> Person:
    """Correct a register entry. The tournaments' participants keep the names they were registered with."""
    _require_register_keeper(by, person.organisation_id)
    changes = {name: _tidy(value) for name, value in changes.items() if name in PERSON_FIELDS}
    if "last_name" in changes and not changes["last_name"]:
        raise DomainError(_("A person needs a last name."), field="last_name")
    with transaction.atomic():
        person = Person.objects.select_for_update().get(pk=person.pk)
        changes = {name: value for name, value in changes.items() if getattr(person, name) != value}
        if not changes:
            return person
        # the contact is private: the log says that it changed, not what it says
        before = {name: getattr(person, name) if name != "contact" else "…" for name in changes}
        after = {name: value if name != "contact" else "…" for name, value in changes.items()}
        for name, value in changes.items():
            setattr(person, name, value)
        person.save(update_fields=list(changes))
        log_action("person.update", by=by, obj=person, before=before, after=after)
    return person


def follow_desk_correction(participant: Participant, old: dict, *, by) -> None:
    """The desk corrected a player's name or club (`old`: the values before): the register follows where its
    entry is only this player's, made by the desk from the same (misspelt) name and club. Else the season would
    keep the typo and the next evening's correct spelling would make a second entry of the same person.

    Where the register has an entry of the corrected name and club already (someone who played before), the
    desk's entry is merged into it; an entry of other evenings, or one picked under another name, stays as it
    is (the register page corrects and merges those)."""
    person = participant.person
    if person is None or not directs_in(by, person.organisation_id):
        return
    if Participant.objects.filter(person=person).exclude(pk=participant.pk).exists():
        return
    if (same_name(f"{person.first_name} {person.last_name}") != same_name(f"{old['first_name']} {old['last_name']}")
            or same_name(person.club) != same_name(old["club"])):
        return
    playing = set(participant.tournament.participants.values_list("person_id", flat=True))
    known = [p for p in same_person(participant.first_name, participant.last_name, participant.club,
                                    organisation=person.organisation_id)
             if p.pk != person.pk and p.pk not in playing]
    if known:
        merge_persons(known[0], person, by=by)
        return
    update_person(person, by=by, first_name=participant.first_name, last_name=participant.last_name,
                  club=participant.club)


def merge_persons(keep: Person, other: Person, *, by, reason: str = "") -> Person:
    """`other` is the same person as `keep`: its participations move to `keep` and the entry `other` goes.

    A contact only `other` has is kept. The audit log keeps `other` as it was, and which participations moved.
    Both are entries of one club's register: another club's entry is as unknown as a number that is no entry."""
    _require_register_keeper(by, keep.organisation_id)
    if keep.pk == other.pk:
        raise DomainError(_("Choose two different entries to merge."), field="other")
    if keep.organisation_id != other.organisation_id:
        raise DomainError(_("There is no register entry with this number."), field="other")
    with transaction.atomic():
        keep = Person.objects.select_for_update().get(pk=keep.pk)
        other = Person.objects.select_for_update().get(pk=other.pk)
        mine = set(Participant.objects.filter(person=keep).values_list("tournament_id", flat=True))
        if any(t in mine for t in Participant.objects.filter(person=other).values_list("tournament_id", flat=True)):
            raise DomainError(_("Both entries play in the same tournament: they are two people, not one."),
                              field="other")
        moved = [f"{p.tournament.name}: {p.number} {p.name}"
                 for p in Participant.objects.filter(person=other).select_related("tournament")]
        Participant.objects.filter(person=other).update(person=keep)
        if not keep.contact and other.contact:
            keep.contact = other.contact
            keep.save(update_fields=["contact"])
        log_action("person.merge", by=by, obj=keep, reason=reason,
                   before={"merged": {"id": other.pk, "first_name": other.first_name, "last_name": other.last_name,
                                      "club": other.club}},
                   after={"kept": keep.pk, "participations_moved": moved})
        other.delete()
    return keep


def earlier_tournaments(tournament: Tournament, user) -> list[Tournament]:
    """The tournaments of the same club and game whose players this user may take over: those they direct, newest
    first, the same season's first."""
    from ..permissions import visible_tournaments

    candidates = [t for t in visible_tournaments(user).of(tournament.organisation_id).filter(game=tournament.game)
                  .exclude(pk=tournament.pk)
                  .order_by("-date", "-pk") if is_director(user, t)]
    same_season = [t for t in candidates if tournament.season_id and t.season_id == tournament.season_id]
    return same_season + [t for t in candidates if t not in same_season]


def take_participants(tournament: Tournament, source: Tournament, *, by) -> list[Participant]:
    """Register the players of `source` (not its withdrawn ones) in `tournament`, in one step, with their register
    links; whoever is registered already (the same person, or the same name) is left as is. Check-in then decides
    who plays."""
    if not is_director(by, tournament) or not is_director(by, source):
        raise DomainError(_("Only a director of both tournaments can take over the players."))
    if source.pk == tournament.pk or source.game != tournament.game \
            or source.organisation_id != tournament.organisation_id:
        raise DomainError(_("Choose an earlier tournament of the same game."), field="source")
    if game_of(tournament).participants != "player":
        raise DomainError(_("Teams are registered one by one: only players can be taken over."))
    try:
        refuse_after_play(tournament)
    except ImportFileError as error:
        raise DomainError(str(error)) from None
    if drawn(tournament):
        raise DomainError(_("The seats are drawn already: redo the draw after changing the players."))
    link_to_register(source)
    created = []
    with transaction.atomic():
        present = list(tournament.participants.all())
        persons = {p.person_id for p in present if p.person_id}
        names = {same_name(p.name) for p in present}
        players = [player for player in source.participants.filter(status=Participant.Status.ACTIVE)
                   .order_by("number") if player.person_id not in persons and same_name(player.name) not in names]
        for player, number in zip(players, _kept_numbers(players, {p.number for p in present}), strict=True):
            created.append(Participant.objects.create(
                tournament=tournament, number=number, first_name=player.first_name, last_name=player.last_name,
                club=player.club, group=player.group, person_id=player.person_id))
        created.sort(key=lambda p: p.number)
        if created:
            log_action("participant.take_over", by=by, tournament=tournament, obj=tournament,
                       after={"from": source.name, "created": [f"{p.number} {p.name}" for p in created]})
    return created


def _kept_numbers(players, taken: set[int]) -> list[int]:
    """The numbers the taken-over players get: each keeps the number he had where it is still free (a regular
    is the same number every evening), the others follow the highest number in use."""
    numbers: list[int | None] = []
    used = set(taken)
    for player in players:
        keep = player.number not in used
        numbers.append(player.number if keep else None)
        used.add(player.number)
    following = max(used, default=0) + 1
    result = []
    for number in numbers:
        if number is None:
            number, following = following, following + 1
        result.append(number)
    return result
