"""What a game is to the rest of the application: one object behind one small interface.

A game is an instance of a subclass of `Game` (a bracket game such as Voms subclasses `BracketGame`, a
seated game `scoring.seated.game.SeatedGame`), registered in `scoring.games`. The tournament side asks it
for names, participant kinds and hooks and never branches on a game's key. A game overrides the hooks it
has; the defaults below are what a game without them means ("no public pages", "no seasons" …).

The modules behind a hook are imported when the hook is called: the registry is loaded while Django
starts, before the models may be used.
"""

from __future__ import annotations

from typing import Any

from django.utils.functional import Promise


class Game:
    #: the key stored in `Tournament.game` and `Season.game`; never changes once tournaments use it
    key: str = ""
    name: str | Promise = ""
    description: str | Promise = ""
    #: "team" (the desk registers teams) or "player"
    participants: str = "player"
    #: what the game's results are called in "Provisional — after 8 of 18 …" (scoring.progress.UNITS):
    #: "lists" (score lists), "slips", "sheets" or "deals" (a patience's results lists)
    result_unit: str = "sheets"
    #: whether a director can put a substitute on a seat once play has started; the desk says so
    substitutes: bool = False
    #: options for `manage.py demo <key>`: [(flag, kwargs for add_argument)]
    demo_arguments: tuple = ()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.key}>"

    def offers(self, hook: str) -> bool:
        """Whether the game has `hook` of its own (an optional one: demo, season_evening, table_page,
        progress …), i.e. overrides this class's default."""
        return getattr(type(self), hook) is not getattr(Game, hook)

    # the tournament and its settings

    def default_settings(self) -> dict[str, Any]:
        """The settings every tournament of this game starts with (JSON-serialisable)."""
        return {}

    def check_settings(self, tournament) -> None:
        """Raise a translated `ValidationError` when the tournament's stored settings are not what the game's
        settings page could have stored (a tournament file's settings are checked so)."""

    def json_links(self, label: str, field: str, value, convert):
        """The database keys the game keeps inside a JSON field (model `label` "app.model", `field`), each
        rewritten as `convert(model, key)`: a tournament file carries local ids there as in its links, and an
        import maps them back (tournament.transfer). Default: the game keeps none."""
        return value

    def demo(self, director, **options):
        """Build a demo tournament (options: `seed`, `results` and the `demo_arguments`) -> Tournament."""
        raise NotImplementedError(f"{self.key} has no demo")

    # pages

    def urlconf(self):
        """The game's director/assistant URLconf (a module with `urlpatterns` and `app_name`, its paths
        starting with "<its app_name>/"), mounted under /manage/<tournament slug>/ for the tournaments of the
        games that return it (games may share one: it is mounted once); None: the game has no pages."""
        return None

    def menu(self, tournament) -> list:
        """The game's director menu: [(label, url)]."""
        return []

    def board(self, tournament, part, *, user=None):
        """The round's board (`scoring.board.Board`), `part` being what the board's address names (a round
        number as text, a game's own key) or None for the current one; None: the game has no board."""
        return None

    def documents(self, tournament) -> dict:
        """The printable/exportable documents: {name: callable returning a document}."""
        return {}

    def document(self, tournament, name: str, params: dict):
        """The document `name` with its options ({"round": 2}), as a print job makes it
        (tournament/printjobs.py); None when there is none."""
        make = None if params else self.documents(tournament).get(name)
        return make() if make else None

    def document_label(self, tournament, name: str, params: dict):
        """What the printouts page calls the document `name` with its options (its print job's heading, in the
        active language); None when the game does not name it."""
        return None

    def printouts_after_draw(self, tournament) -> list[tuple[str, dict]]:
        """The printouts a draw makes ([(document name, options)]: the rounds' score sheets or slips), made as
        print jobs right after it so that they are ready when the director asks."""
        return []

    def standings_document(self, tournament):
        """The standings as printed (`documents.base.TableDocument` or `MultiSheetDocument`, in the active
        language) for the read-only API once they are published; None: the game has no standings."""
        return None

    def public(self, tournament):
        """What the public pages show (`tournament.public.content.PublicContent`); None: no public pages."""
        return None

    def table_page(self, request, link, *, token):
        """The page a table's private link opens (scoring/tablelink_views.py) -> HttpResponse. A game without
        it (`offers("table_page")` false) has its results brought to the referee table on paper."""
        raise NotImplementedError(f"{self.key} has no table page")

    # the registration desk

    def prizes_shown(self, tournament) -> bool:
        """Whether the prize list was shown already (a final ranking with prizes): the desk then says that a
        registration or payment changes it."""
        return False

    def player_links(self, tournament, player) -> list:
        """The game's own pages about one player or team, linked from the desk: [(label, url)]."""
        return []

    def entry_notes(self, tournament) -> dict:
        """Marks on the desk's entries beside their status: {entry pk: text} (a Voms team's "disqualified")."""
        return {}

    def registration_links(self, tournament) -> list:
        """The game's own registration pages (partners by lot, imports), linked from the desk: [(label, url)]."""
        return []

    # results

    def sheet_derive(self, tournament, *, match, table):
        """The game's one recompute path for the sheet of that place: derive(entries, mode) -> derived values
        (a tournament file's results are recomputed through it); None: the game keeps no score sheets."""
        return None

    def progress(self, tournament, after_round=None):
        """`scoring.progress.ResultProgress` when the game counts its results otherwise than
        `scoring.progress.counted_progress` (e.g. forfeits without a sheet); None: counted so."""
        return None

    def progress_open(self, tournament):
        """With an own `progress`: a condition on the tournament's row (`django.db.models.Q` of EXISTS
        subqueries) that holds only when a result is certainly still missing, asked on every save before
        counting (`scoring.progress.missing_result_condition`); None: always count."""
        return None

    def season_evening(self, tournament):
        """An evening as a season ranking counts it (`scoring.rules.season.EveningRanking`). A game without it
        (`offers("season_evening")` false) has no seasons."""
        raise NotImplementedError(f"{self.key} has no seasons")

    # the audit log

    def audit_words(self) -> dict:
        """The game's own audit action keys (those only its services write) -> translatable label
        (tournament.audit_labels holds the shared ones)."""
        return {}

    def audit_values(self) -> dict:
        """What the game's own stored values are called in the audit log, in the active language:
        {field or "parent.field": {stored value: words} or a function value -> words (None: none)}, built
        from the same choices the game's forms and rules use (tournament/audit_labels.py)."""
        return {}


class BracketGame(Game):
    """A game of teams in pools and a knockout (Voms)."""

    participants = "team"
