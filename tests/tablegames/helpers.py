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


def rummi_hand(out, penalties):
    """A rummi hand: who went out and the penalty of each seat given (seat -> typed)."""
    return {"out": out, "hand_rummi": False, "penalties": {str(seat): str(p) for seat, p in penalties.items()}}


def play_table(table, director, seats):
    """The table's game to its end in one more hand: the first of `seats` goes out, the second passes the limit."""
    from scoring.models import ScoreSheet

    first, second, *rest = seats
    hand = rummi_hand(first, {first: 0, second: 260, **{s: 20 + s for s in rest}})
    sheet = ScoreSheet.objects.filter(table=table).first()
    entries = [*(sheet.entries if sheet else []), hand]
    services.enter_sheet(table, by=director, entries=entries, expected_version=sheet.version if sheet else 0)
