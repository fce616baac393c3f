"""The score grids' readers, fed what a tampered or odd keyboard sends: never an exception, never a NUL stored."""

from hypothesis import given
from hypothesis import strategies as st

from scoring.games.schafkopf.forms import read_games, read_totals
from scoring.games.tablegames.forms import read_result

from .conftest import FUZZ
from .values import hostile_text

keys = st.sampled_from([f"{name}{n}" for name in ("t", "d", "p", "r", "x", "l", "i") for n in (1, 2)]
                       + [f"{name}{n}" for name in ("total", "ruf", "solo") for n in (1, 2)])


@FUZZ
@given(st.dictionaries(keys, hostile_text, max_size=8))
def test_schafkopf_grid_reads_anything(data):
    for row in read_games(data, rows=2, table_size=4):
        assert all("\x00" not in v for v in row.values.values())
        if row.entry:
            assert 1 <= row.entry["declarer"] <= 4 and 0 <= row.entry["laufende"] < 10**7
    _rows, entries = read_totals(data, table_size=4)
    for entry in entries or []:
        assert all(abs(v) < 10**7 for k, v in entry.items() if isinstance(v, int))


def test_odd_digits_and_nul_are_refused_not_crashing():
    grid = read_games({"t1": "R", "d1": "²", "p1": "٣", "r1": "+", "l1": "¹", "i1": "A\x00B"}, rows=1, table_size=4)
    assert set(grid[0].errors) == {"d", "p", "l"}
    assert grid[0].values["i"] == "AB"
    _rows, entries = read_totals({"total1": str(10**30), "total2": "-5"}, table_size=2)
    assert entries is None
    assert read_result({"r1-tiles_left": "²"}, 1, False).errors
    assert read_result({"r1-tiles_left": "3\x00", "r1-finish_time": "1\x00"}, 1, True).row == {
        "seat": 1, "tiles_left": 3, "finish_time": "1"}


def test_schafkopf_amounts_and_tables_have_an_upper_bound():
    from scoring.games.schafkopf.forms import SettingsForm
    from scoring.seated.forms import FixedTableForm

    assert not FixedTableForm({"table": str(10**30)}).is_valid()
    form = SettingsForm({"ruf": str(10**30)})
    assert not form.is_valid() and "ruf" in form.errors
