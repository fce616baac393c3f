"""The Voms tabs: one order on every Voms page, the desk's pages and the tournament page."""

from django.urls import reverse
from django.utils.translation import gettext_lazy as _

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
