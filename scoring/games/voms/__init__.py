"""Voms: the game's registration — its pages, settings, documents and demo."""

from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from .. import GameType, register


def default_settings() -> dict:
    from .services import DEFAULTS

    return dict(DEFAULTS)


def menu(tournament) -> list:
    def link(name):
        return reverse(f"tournament:voms:{name}", args=[tournament.slug])

    return [
        (_("Enter slips"), link("enter")),
        (_("Standings"), link("standings")),
        (_("Schedule"), link("schedule")),
        (_("Teams"), reverse("tournament:desk", args=[tournament.slug])),
        (_("Check-in"), reverse("tournament:checkin", args=[tournament.slug])),
        (_("Pool draw"), link("draw")),
        (_("Knockout"), link("knockout")),
        (_("Printouts"), link("printouts")),
        (_("Table links"), link("links")),
        (_("Settings"), link("settings")),
    ]


def registration_links(tournament) -> list:
    return [(_("Players without a partner, partners by lot, import a list"),
             reverse("tournament:voms:teams", args=[tournament.slug]))]


def documents(tournament) -> dict:
    from .documents import documents as catalogue

    return catalogue(tournament)


def demo(director, **options):
    from .demo import demo as build

    return build(director, **options)


GAME = register(
    GameType(
        key="voms",
        name=_("Voms"),
        participants="team",
        default_settings=default_settings,
        menu=menu,
        urls="scoring.games.voms.urls",
        documents=documents,
        public="scoring.games.voms.public.public",
        registration_links=registration_links,
        sheet_derive="scoring.games.voms.checks.sheet_derive",
        phone="scoring.games.voms.phone.table_page",
        check_settings="scoring.games.voms.checks.check_settings",
        result_unit="slips",
        progress="scoring.games.voms.services.progress",
        demo=demo,
        demo_arguments=(
            ("--teams", {"type": int, "default": 20, "help": "Number of teams (default 20)."}),
            ("--pools", {"type": int, "default": 2, "help": "Number of pools (default 2)."}),
        ),
    )
)
