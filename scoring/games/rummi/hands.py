"""Plausible random rummi rounds for the demo, penalties written as the table does: a number, or the cards."""

from __future__ import annotations

import random

#: cards left in hand, roughly as often as they stay there (low cards are laid off less readily)
CARDS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def random_hand(rng: random.Random, seats: list[int], spec, rules, number: int) -> dict:
    out = rng.choice(seats)
    penalties = {}
    for seat in seats:
        if seat == out:
            penalties[str(seat)] = "0"
            continue
        cards = [rng.choice(CARDS) for _card in range(rng.randint(1, 7))]
        if rng.random() < 0.08:
            cards.append("JOKER")
        if rng.random() < 0.5:
            penalties[str(seat)] = " ".join(cards)  # the cards as written on the sheet
        else:
            penalties[str(seat)] = str(sum(_value(card, rules) for card in cards))
    return {"out": out, "hand_rummi": rng.random() < 0.04, "penalties": penalties}


def _value(card: str, rules) -> int:
    if card == "JOKER":
        return rules.joker_penalty
    if card in ("J", "Q", "K"):
        return rules.face_card_points
    if card == "A":
        return rules.ace_points
    return int(card)
