"""Plain helpers shared by the table-game tests (the fixtures are in conftest.py)."""

from scoring.games.tablegames import services


def enter_rummi_game(table, director):
    """One rummi table's sheet: two hands, the second ending the game (seat 1 passes the limit)."""
    seats = [str(s.number) for s in table.seats]
    first = {"out": 2, "hand_rummi": False,
             "penalties": {s: "0" if s == "2" else "K Q 7 JOKER A" if s == "1" else "12" for s in seats}}
    second = {"out": 3, "hand_rummi": True,
              "penalties": {s: "0" if s == "3" else "99" if s == "1" else str(10 + int(s)) for s in seats}}
    return services.enter_sheet(table.seats[0].table, by=director, entries=[first, second])
