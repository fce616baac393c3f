"""The words of the phone's tap entry (scoring/games/schafkopf/phone.py, `tap_texts`) in the players' languages."""

from django.utils import translation
from django.utils.translation import gettext

from scoring.games.schafkopf.phone import tap_texts


def test_next_game_is_the_next_game_of_the_list_not_a_voms_teams_next_match():
    """The walk of issue 27 found the tap entry's button read "Nächster Durchgang" / "Næste omgang" (the words of a
    Voms team's next match, which shared the msgid) under "Spiel 1 von 10": the next game of the list it is."""
    with translation.override("de"):
        assert tap_texts()["next"] == "Nächstes Spiel"
        assert gettext("Next game") == "Nächster Durchgang"  # Voms' find-my-team page keeps its words
    with translation.override("da"):
        assert tap_texts()["next"] == "Næste spil"
    with translation.override("en"):
        assert tap_texts()["next"] == "Next game"


def test_edit_beside_a_game_is_a_short_word():
    """"Bearbeiten" did not fit the button beside a game on a 390 px phone (the browser test proves the width)."""
    with translation.override("de"):
        assert tap_texts()["edit"] == "Ändern"
        assert gettext("Edit") == "Bearbeiten"  # everywhere else
    with translation.override("da"):
        assert tap_texts()["edit"] == "Ret"
