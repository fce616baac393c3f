"""Voms: the game's registration — its pages, settings, documents and demo."""

from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from .. import register
from ..base import BracketGame
from .tabs import tabs


class Voms(BracketGame):
    key = "voms"
    name = _("Voms")
    result_unit = "slips"
    demo_arguments = (
        ("--teams", {"type": int, "default": 20, "help": "Number of teams (default 20)."}),
        ("--pools", {"type": int, "default": 2, "help": "Number of pools (default 2)."}),
    )

    def default_settings(self) -> dict:
        from .queries import DEFAULTS

        return dict(DEFAULTS)

    def check_settings(self, tournament) -> None:
        from .checks import check_settings

        check_settings(tournament)

    def json_links(self, label, field, value, convert):
        from .checks import json_links

        return json_links(label, field, value, convert)

    def demo(self, director, **options):
        from .demo import demo as build

        return build(director, **options)

    def urlconf(self):
        from . import urls

        return urls

    def menu(self, tournament) -> list:
        return [(tab["label"], tab["url"]) for tab in tabs(tournament)]

    def board(self, tournament, part, *, user=None):
        from .board import board as voms_board

        return voms_board(tournament, part, user=user)

    def documents(self, tournament) -> dict:
        from .documents import documents as catalogue

        return catalogue(tournament)

    def document(self, tournament, name: str, params: dict):
        """A catalogue entry; the slips and lus boards of the pool round `params["round"]`."""
        from .documents import CATALOGUE, build

        entry = CATALOGUE.get(name)
        if entry is None or set(params) - {"round"} or ("round" in params and not entry.per_round):
            return None
        return build(tournament, name, **({"round_number": params["round"]} if "round" in params else {}))

    def document_label(self, tournament, name: str, params: dict):
        """The catalogue entry's label; of a pool round's slips or lus boards with the round."""
        from .documents import CATALOGUE

        entry = CATALOGUE.get(name)
        if entry is None or "round" not in params:
            return entry.label if entry is not None else None
        return _("%(document)s, round %(number)s") % {"document": entry.label, "number": params["round"]}

    def printouts_after_draw(self, tournament) -> list[tuple[str, dict]]:
        """The match slips of every pool round, the first round first."""
        from . import queries

        stage = queries.pools_stage(tournament)
        rounds = stage.rounds.order_by("number").values_list("number", flat=True) if stage else []
        return [("slips", {"round": number}) for number in rounds]

    def standings_document(self, tournament):
        """Each pool with every tiebreak column, and the final ranking first once there is a knockout."""
        from .documents import standings_document

        return standings_document(tournament)

    def public(self, tournament):
        from .public import public

        return public(tournament)

    def table_page(self, request, link, *, token):
        from .phone import table_page

        return table_page(request, link, token=token)

    def registration_links(self, tournament) -> list:
        return [(_("Players without a partner, partners by lot, import a list"),
                 reverse("tournament:voms:teams", args=[tournament.slug]))]

    def player_links(self, tournament, team) -> list:
        """On a team's page at the desk, once it plays in a pool: the way to withdraw it from a round (it leaves
        early)."""
        if not team.pool_entries.filter(pool__stage__kind="pools").exists():
            return []
        return [(_("Withdraw from a round on (the team leaves early)"),
                 reverse("tournament:voms:withdraw", args=[tournament.slug, team.pk]))]

    def entry_notes(self, tournament) -> dict:
        """Each disqualified or withdrawn team's mark, for the registration desk's lists."""
        from .queries import marks_of

        return marks_of(tournament)

    def sheet_derive(self, tournament, *, match, table):
        from .checks import sheet_derive

        return sheet_derive(tournament, match=match, table=table)

    def progress(self, tournament, after_round=None):
        from .services.progress import progress

        return progress(tournament, after_round=after_round)

    def progress_open(self, tournament):
        from .services.progress import missing_result_condition

        return missing_result_condition(tournament)

    def audit_words(self) -> dict:
        return AUDIT_WORDS

    def audit_values(self) -> dict:
        """The audit log's words for stored settings: the settings form's choices (the semifinal, the series)."""
        from .forms import SettingsForm

        fields = SettingsForm.base_fields
        return {"semifinal": dict(fields["semifinal"].choices), "best_of": dict(fields["best_of"].choices)}


#: the audit log's words for the actions only Voms writes
AUDIT_WORDS = {
    "settings.update": _("Game settings changed"),
    "team.import": _("Teams imported from a list"),
    "team.disqualify": _("Team disqualified"),
    "team.withdraw_round": _("Team withdrawn from a round on"),
    "team.withdrawal_undone": _("Team's withdrawal undone"),
    "draw.partners": _("Partners drawn"),
    "draw.pools": _("Pools drawn"),
    "knockout.create": _("Knockout stage created"),
    "knockout.final": _("Final set up"),
}

GAME = register(Voms())
