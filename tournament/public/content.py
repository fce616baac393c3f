"""What a game shows on the public pages: the interface behind `Game.public`, and shared helpers.

A game's hook `public(tournament)` returns a `PublicContent`; its methods return plain data wrapped in
`Section`s (a template under templates/public/ and the values it shows). Only names, participant numbers,
clubs, teams, tables and results ever go into a section: never e-mails, user names or audit data.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from documents.qr import qr_svg

from .evening_links import evening_path, evening_url

#: find my seat shows at most this many people; more means the name typed is too short
MAX_FOUND = 8


@dataclass(frozen=True)
class Section:
    """One block of a public page: a template and the plain data it shows."""

    template: str
    data: dict = field(default_factory=dict)
    title: str = ""


@dataclass(frozen=True)
class Slide:
    """One beamer page; `kind` is the publication it belongs to (shown only while that kind is published)."""

    kind: str
    section: Section


@dataclass(frozen=True)
class Found:
    """Find my seat: the people matching a query (at most MAX_FOUND) and how many matched in all."""

    sections: list[Section]
    total: int


class PublicContent:
    """The default: nothing to show. A game overrides what it has and lists it in `kinds`."""

    #: the kinds of public page this game has (a subset of tournament.services.publishing.KINDS)
    kinds: tuple[str, ...] = ()

    def __init__(self, tournament):
        self.tournament = tournament

    def schedule(self) -> list[Section]:
        return []

    def standings(self) -> list[Section]:
        return []

    def bracket(self) -> list[Section]:
        return []

    def results(self) -> list[Section]:
        return []

    def find(self, query: str) -> Found:
        return Found([], 0)

    def evening(self, holder) -> list[Section]:
        """A player's (a team's) own page, "my evening" (tournament/public/evening.py): where they play in every
        round, whether each sheet is in and counted, their place in the standings if published."""
        return []

    def slides(self, kinds: Iterable[str]) -> list[Slide]:
        """The beamer's pages for the published `kinds`, in the order they are shown."""
        return []

    def clock_round(self):
        """The round whose clock the public pages show: the one the hall plays now (its schedule is on the
        beamer), started or not (`tournament.services.clock.playing_round`)."""
        from tournament.services.clock import playing_round

        return playing_round(self.tournament)

    def slot_minutes(self, round_) -> int | None:
        """The length of a round's slot for the clock; None for rounds without a time limit."""
        return round_.slot_minutes

    def section(self, kind: str) -> list[Section]:
        return getattr(self, kind)() if kind in self.kinds else []


# --- helpers for the games --------------------------------------------------------------------------


def person(participant) -> dict:
    """The public face of a participant: number, name, club (nothing else ever leaves)."""
    return {"number": participant.number, "name": participant.name, "club": participant.club}


def evening_link(tournament, holder) -> dict:
    """The holder's "my evening" link as the find-my-seat answer shows it: its path and its QR code."""
    url = evening_url(tournament, holder)
    return {"path": evening_path(tournament, holder), "qr": qr_svg(url, title=url)}


def fold(text: str) -> str:
    """Lower case without accents, so "muller" finds "Müller" and "JORGENSEN" finds "Jørgensen"."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    # ø and æ do not decompose; casefold has made ß into ss already
    return " ".join(plain.replace("ø", "o").replace("æ", "ae").split())


def matches_name(query: str, first_name: str, last_name: str) -> bool:
    needle = fold(query)
    return bool(needle) and any(
        needle in fold(name) for name in (f"{first_name} {last_name}", f"{last_name} {first_name}")
    )


def find_participants(tournament, query: str) -> tuple[list, int]:
    """Participants by their number (digits only) or by part of their name (two letters at least)."""
    query = query.strip()
    participants = tournament.participants.only("pk", "number", "first_name", "last_name", "club", "status")
    if query.isdigit():
        found = list(participants.filter(number=int(query)))
    elif len(fold(query)) >= 2:
        found = [p for p in participants.order_by("last_name", "first_name", "number")
                 if matches_name(query, p.first_name, p.last_name)]
    else:
        found = []
    return found[:MAX_FOUND], len(found)


def pages(rows: Sequence, size: int, limit: int | None = None) -> list[Sequence]:
    """Rows cut into beamer pages of `size`, at most `limit` pages."""
    chunks = [rows[i:i + size] for i in range(0, len(rows), size)] or [rows]
    return chunks[:limit] if limit else chunks
