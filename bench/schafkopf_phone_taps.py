"""What a scribe does on the table's phone for a Schafkopf list of 30 games: the grid typed on the on-screen keyboard
against the games chosen with buttons (issue 27, static/schafkopf/tap.js). Prints figures, asserts nothing.

Counted, not timed, from the lists the browser test enters (tests/schafkopf/test_phone_tap_browser.py, seed 2 at a
4- and a 5-player table) and as a mean over many random lists of the demo's mix of games:
- grid: every field the game needs is tapped (a focus) and its characters typed; "+" and "-" are not on the
  letter keyboard a phone opens for that field, so each result also costs a switch to the symbols (shown apart);
- buttons: the taps the browser test makes (type, declarer, partner for a Rufspiel, won/lost, Schneider or Schwarz
  when played, "Next game"); a tout adds its button and the supervision's initials, typed as on the grid.
Seconds are a model, not a measurement of people: --tap, --focus, --key and --switch seconds per action (defaults:
0.9 s to find, aim at and tap a labelled button of 44 px or more; 1.2 s to aim at a 37 px field and wait for the
keyboard; 0.5 s per key; 0.6 s per switch of the keyboard's layout).

    .venv/bin/python bench/schafkopf_phone_taps.py [--lists 500]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


def grid_actions(entry: dict) -> tuple[int, int]:
    """(fields focused, characters typed) to type one game on the grid; each game also switches the layout once."""
    from scoring.games.schafkopf.forms import grid_values

    values = [text for text in grid_values(entry).values() if text]
    return len(values), sum(len(text) for text in values)


def tap_actions(entry: dict) -> tuple[int, int]:
    """(taps on buttons, focuses + characters typed) to choose one game with the buttons."""
    taps = 2 + (entry["partner"] is not None) + 1 + bool(entry["schneider"] and not entry["tout"]) + 1
    typed = 0
    if entry["tout"]:
        taps += 1
        typed = 1 + len(entry["tout_initials"])
    return taps, typed


def count(entries: list[dict]) -> dict[str, int]:
    grid = [grid_actions(entry) for entry in entries]
    taps = [tap_actions(entry) for entry in entries]
    fields = sum(f for f, _ in grid)
    return {"grid": fields + sum(c for _, c in grid), "switches": len(entries), "fields": fields,
            "taps": sum(t for t, _ in taps), "typed": sum(k for _, k in taps)}


def seconds(figures: dict[str, float], options) -> tuple[float, float]:
    keys = figures["grid"] - figures["fields"]
    grid = figures["fields"] * options.focus + keys * options.key + figures["switches"] * options.switch
    taps = figures["taps"] * options.tap + figures["typed"] * options.key
    return grid, taps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lists", type=int, default=500, help="random lists for the mean")
    parser.add_argument("--tap", type=float, default=0.9)
    parser.add_argument("--focus", type=float, default=1.2)
    parser.add_argument("--key", type=float, default=0.5)
    parser.add_argument("--switch", type=float, default=0.6)
    options = parser.parse_args()
    import django

    django.setup()
    from scoring.games.schafkopf.demo import random_list

    rows = [(f"test list (seed 2), {size}-player table", count(random_list(random.Random(2), 30, size)))
            for size in (4, 5)]
    total = {"grid": 0, "switches": 0, "fields": 0, "taps": 0, "typed": 0}
    for seed in range(options.lists):
        for key, value in count(random_list(random.Random(1000 + seed), 30, 4)).items():
            total[key] += value
    rows.append((f"mean of {options.lists} random lists, 4-player table",
                 {key: value / options.lists for key, value in total.items()}))
    print("30 games | grid: focuses + characters (+ layout switches) | buttons: taps (+ typed) | seconds grid / "
          "buttons (model)")
    for name, figures in rows:
        grid, taps = seconds(figures, options)
        print(f"{name}: grid {figures['grid']:.0f} (+{figures['switches']:.0f}) | buttons {figures['taps']:.0f} "
              f"(+{figures['typed']:.1f}) | {grid:.0f} s / {taps:.0f} s")


if __name__ == "__main__":
    main()
