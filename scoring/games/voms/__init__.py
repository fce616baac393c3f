"""Voms: the game's registration — its pages, settings, documents and demo."""

from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from .. import GameType, register


def default_settings() -> dict:
    from .queries import DEFAULTS

    return dict(DEFAULTS)


#: The game's tabs, in the one order every Voms page, the desk's pages and the tournament page show them:
#: (label, URL name, for directors only, the URL names of the pages on which the tab is the current one).
#: "desk" and "checkin" are the registration desk's pages (tournament URLconf), the rest the game's own.
TABS = (
    (_("Overview"), "overview", False, ("overview",)),
    (_("Teams"), "desk", True, ("teams", "withdraw")),
    (_("Check-in"), "checkin", True, ()),
    (_("Settings"), "settings", True, ("settings",)),
    (_("Pool draw"), "draw", True, ("draw",)),
    (_("Schedule"), "schedule", False, ("schedule",)),
    (_("Enter slips"), "enter", False, ("enter", "correct")),
    (_("Round board"), "board", False, ("board", "board_part")),
    (_("Standings"), "standings", False, ("standings",)),
    (_("Knockout"), "knockout", True, ("knockout", "series")),
    (_("Table links"), "links", True, ("links", "links_part")),
    (_("Printouts"), "printouts", True, ("printouts",)),
)


def tabs(tournament, *, director: bool = True, current: str = "") -> list[dict]:
    """The tabs a director (or an assistant, `director=False`) sees, `current` marking the page's own."""
    def link(name):
        if name in ("desk", "checkin"):
            return reverse(f"tournament:{name}", args=[tournament.slug])
        return reverse(f"tournament:voms:{name}", args=[tournament.slug])

    return [{"label": label, "url": link(name), "name": name, "current": current in names}
            for label, name, director_only, names in TABS if director or not director_only]


def menu(tournament) -> list:
    return [(tab["label"], tab["url"]) for tab in tabs(tournament)]


def board(tournament, part, *, user=None):
    from .board import board as voms_board

    return voms_board(tournament, part, user=user)


def registration_links(tournament) -> list:
    return [(_("Players without a partner, partners by lot, import a list"),
             reverse("tournament:voms:teams", args=[tournament.slug]))]


def player_links(tournament, team) -> list:
    """On a team's page at the desk, once it plays in a pool: the way to withdraw it from a round (it leaves early)."""
    if not team.pool_entries.filter(pool__stage__kind="pools").exists():
        return []
    return [(_("Withdraw from a round on (the team leaves early)"),
             reverse("tournament:voms:withdraw", args=[tournament.slug, team.pk]))]


def entry_notes(tournament) -> dict:
    """Each disqualified or withdrawn team's mark, for the registration desk's lists."""
    from .queries import marks_of

    return marks_of(tournament)


def documents(tournament) -> dict:
    from .documents import documents as catalogue

    return catalogue(tournament)


def audit_values() -> dict:
    """The audit log's words for stored settings: the settings form's choices (the semifinal, the series)."""
    from .forms import SettingsForm

    fields = SettingsForm.base_fields
    return {"semifinal": dict(fields["semifinal"].choices), "best_of": dict(fields["best_of"].choices)}


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
        player_links=player_links,
        entry_notes=entry_notes,
        sheet_derive="scoring.games.voms.checks.sheet_derive",
        phone="scoring.games.voms.phone.table_page",
        check_settings="scoring.games.voms.checks.check_settings",
        json_links="scoring.games.voms.checks.json_links",
        result_unit="slips",
        progress="scoring.games.voms.services.progress.progress",
        progress_open="scoring.games.voms.services.progress.missing_result_condition",
        board=board,
        audit_values=audit_values,
        demo=demo,
        demo_arguments=(
            ("--teams", {"type": int, "default": 20, "help": "Number of teams (default 20)."}),
            ("--pools", {"type": int, "default": 2, "help": "Number of pools (default 2)."}),
        ),
    )
)
