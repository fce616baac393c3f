"""The prize rule for players who did not play every round (scoring/rules/prizes.py), without a database."""

from dataclasses import dataclass
from decimal import Decimal

from scoring.rules.prizes import award_prizes


@dataclass
class Row:
    name: str
    has_result: bool = True
    excluded: bool = False
    prize_eligible: bool = True
    prize: Decimal | None = None


def test_an_ineligible_players_prize_goes_to_the_next_eligible_one():
    rows = [Row("a"), Row("b", prize_eligible=False), Row("c"), Row("d", has_result=False), Row("e", excluded=True),
            Row("f")]
    skipped = award_prizes(rows, [Decimal("30"), Decimal("20"), Decimal("10")])
    assert [(row.name, row.prize) for row in rows if row.prize is not None] == [
        ("a", Decimal("30")), ("c", Decimal("20")), ("f", Decimal("10"))]
    assert [row.name for row in skipped] == ["b"]


def test_no_one_is_named_skipped_once_the_prizes_are_gone():
    rows = [Row("a"), Row("b", prize_eligible=False)]
    assert award_prizes(rows, [Decimal("5")]) == []
    assert rows[0].prize == Decimal("5") and rows[1].prize is None
