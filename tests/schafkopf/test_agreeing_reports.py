"""Two agreeing reports count (`Tournament.agreeing_reports_count`): each seat has its own link, a seat's report
is kept as its own, and two seats that send the same list make it count without the referee table."""

import pytest

from scoring.games.schafkopf import services
from scoring.models import LinkReport, PendingSheet, ScoreSheet, SheetRevision, TableLink
from scoring.results.counting import differing_reports, sent_from
from scoring.results.links import LinkRefused, issue_links, reissue_link, revoke_link
from tournament.models import AuditEntry, Round
from tournament.services.errors import DomainError


@pytest.fixture
def seat_links(rounds, drawn, director):
    drawn.agreeing_reports_count = True
    drawn.save()
    issue_links(rounds[0], by=director)
    return {link.holder: link for link in TableLink.objects.filter(table__round=rounds[0], table__number=1)}


def test_each_seat_of_each_table_gets_its_own_link(seat_links, rounds, director):
    assert sorted(seat_links) == [1, 2, 3, 4]
    assert TableLink.objects.filter(table__round=rounds[0]).count() == 16  # 4 tables of 4 seats
    assert not TableLink.objects.filter(holder__isnull=True).exists()
    assert issue_links(rounds[0], by=director) == []
    new = reissue_link(seat_links[3], by=director)
    assert new.holder == 3 and new.table == seat_links[3].table
    assert TableLink.objects.filter(table=new.table, revoked_at__isnull=True).count() == 4


def test_two_seats_that_agree_make_the_sheet_count_with_its_audit(seat_links, a_list):
    entries = a_list(30, 4, seed=3)
    first = services.enter_from_link(seat_links[3], mode="games", entries=entries)
    assert not first.counted and PendingSheet.objects.get().source_link == seat_links[3]
    sheet = services.enter_from_link(seat_links[1], mode="games", entries=entries)
    assert sheet.counted and sheet.entries == entries and sheet.version == 1
    assert not PendingSheet.objects.exists() and not LinkReport.objects.exists()
    revision = SheetRevision.objects.get(sheet=sheet)
    assert revision.confirmed_by is None and revision.source_link == seat_links[3]
    entry = AuditEntry.objects.get(action="sheet.confirmed")
    assert entry.reason == "counted: two agreeing reports from seats 1 and 3"
    assert entry.after["entries"] == entries
    assert Round.objects.get(pk=seat_links[1].table.round_id).starts_at is not None  # the after-sheet path ran


def test_two_seats_that_differ_wait_for_the_referee_who_sees_both_and_decides(seat_links, a_list, director):
    mine, theirs = a_list(30, 4, seed=3), a_list(30, 4, seed=4)
    services.enter_from_link(seat_links[1], mode="games", entries=mine)
    waiting = services.enter_from_link(seat_links[2], mode="games", entries=theirs)
    assert not waiting.counted and not ScoreSheet.objects.exists()
    logged = AuditEntry.objects.filter(action="sheet.first_entry").count()
    services.enter_from_link(seat_links[2], mode="games", entries=theirs)  # sent again, the same: nothing changes
    assert AuditEntry.objects.filter(action="sheet.first_entry").count() == logged == 2
    pending = PendingSheet.objects.get()
    assert pending.entries == mine and pending.source_link == seat_links[1]
    differing = differing_reports(pending)
    assert [(report.holder, report.entries) for report in differing] == [(2, theirs)]
    assert sent_from(seat_links[2]).entries == theirs and sent_from(seat_links[1]).entries == mine
    # the referee lets seat 2's report count
    sheet = services.confirm_sheet(seat_links[1].table, by=director, report=differing[0].pk)
    assert sheet.counted and sheet.entries == theirs
    assert SheetRevision.objects.get(sheet=sheet).source_link == seat_links[2]
    assert not LinkReport.objects.exists() and not PendingSheet.objects.exists()


def test_the_referee_still_confirms_a_single_report(seat_links, a_list, director):
    entries = a_list(30, 4, seed=3)
    services.enter_from_link(seat_links[4], mode="games", entries=entries)
    sheet = services.confirm_sheet(seat_links[4].table, by=director)
    assert sheet.counted and sheet.entries == entries and not LinkReport.objects.exists()


def test_a_third_seat_that_agrees_with_one_of_two_differing_reports_makes_it_count(seat_links, a_list):
    mine, theirs = a_list(30, 4, seed=3), a_list(30, 4, seed=4)
    services.enter_from_link(seat_links[1], mode="games", entries=mine)
    services.enter_from_link(seat_links[2], mode="games", entries=theirs)
    sheet = services.enter_from_link(seat_links[4], mode="games", entries=theirs)
    assert sheet.counted and sheet.entries == theirs
    assert AuditEntry.objects.get(action="sheet.confirmed").reason == "counted: two agreeing reports from seats 2 and 4"


def test_one_seat_sending_twice_is_one_report_and_never_counts(seat_links, a_list):
    entries = a_list(30, 4, seed=3)
    services.enter_from_link(seat_links[1], mode="games", entries=a_list(30, 4, seed=9))
    services.enter_from_link(seat_links[1], mode="games", entries=entries)
    first_entries = AuditEntry.objects.filter(action="sheet.first_entry").count()
    again = services.enter_from_link(seat_links[1], mode="games", entries=entries)
    assert not again.counted and not ScoreSheet.objects.exists() and again.version == 2  # sent the same: unchanged
    assert AuditEntry.objects.filter(action="sheet.first_entry").count() == first_entries
    assert LinkReport.objects.count() == 1 and LinkReport.objects.get().entries == entries
    assert PendingSheet.objects.get().entries == entries  # its first entry is replaced too
    # a new link of the same seat is the same holder: still one report, still nothing counts
    assert not services.enter_from_link(seat_links[1], mode="games", entries=entries).counted


def test_a_reissued_seat_link_is_the_same_holder(seat_links, a_list, director):
    entries = a_list(30, 4, seed=3)
    services.enter_from_link(seat_links[1], mode="games", entries=entries)
    new = reissue_link(seat_links[1], by=director)
    assert not services.enter_from_link(new, mode="games", entries=entries).counted
    assert LinkReport.objects.count() == 1 and not ScoreSheet.objects.exists()


def test_a_withdrawn_seat_link_is_refused_and_its_report_agrees_with_nothing(seat_links, a_list, director):
    entries = a_list(30, 4, seed=3)
    services.enter_from_link(seat_links[1], mode="games", entries=entries)
    revoke_link(seat_links[1], by=director)
    with pytest.raises(LinkRefused, match="withdrawn"):
        services.enter_from_link(seat_links[1], mode="games", entries=entries)
    assert not services.enter_from_link(seat_links[2], mode="games", entries=entries).counted
    assert not ScoreSheet.objects.exists()


def test_with_the_option_off_a_table_has_one_link_and_its_list_waits_as_today(rounds, drawn, director, a_list):
    made = issue_links(rounds[0], by=director)
    assert len(made) == 4 and all(link.holder is None for link in made)
    entries = a_list(30, 4, seed=3)
    first = services.enter_from_link(made[0], mode="games", entries=entries)
    again = services.enter_from_link(made[0], mode="games", entries=entries)
    assert not again.counted and again.pk == first.pk and again.version == 1
    assert not LinkReport.objects.exists() and not ScoreSheet.objects.exists()


def test_the_option_cannot_be_on_with_lists_counting_at_once(drawn, director):
    from tournament.services.tournaments import update_tournament

    with pytest.raises(Exception, match="choose one"):
        update_tournament(drawn, by=director, link_entries_count=True, agreeing_reports_count=True)
    drawn.refresh_from_db()
    assert not drawn.agreeing_reports_count and not drawn.link_entries_count


def test_a_referee_entry_that_differs_is_still_refused_to_a_seat(seat_links, a_list, drawn, sk_assistant):
    drawn.double_entry = True
    drawn.save()
    services.enter_sheet(seat_links[1].table, by=sk_assistant, mode="games", entries=a_list(30, 4, seed=3))
    with pytest.raises(DomainError, match="different list"):
        services.enter_from_link(seat_links[1], mode="games", entries=a_list(30, 4, seed=4))
    assert services.enter_from_link(seat_links[2], mode="games", entries=a_list(30, 4, seed=3)).counted


def test_the_links_page_lists_a_row_per_seat_with_its_own_address(seat_links, drawn, director, client):
    from django.urls import reverse

    from scoring.results.links import current_token

    client.force_login(director)
    page = client.get(reverse("tournament:schafkopf:links", args=[drawn.slug, 1])).content.decode()
    for seat, link in seat_links.items():
        assert f'id="table-1-seat-{seat}"' in page
        assert f"/t/{current_token(link)}/" in page
    assert "Two agreeing reports count: each seat has its own link" in page
    assert 'id="table-1"' not in page  # no row for a whole table's link


def test_the_edit_page_offers_the_option_and_refuses_it_with_lists_counting_at_once(drawn, director, client):
    from django.forms.models import model_to_dict
    from django.urls import reverse

    from tournament.services.tournaments import EDITABLE_FIELDS

    client.force_login(director)
    url = reverse("tournament:edit", args=[drawn.slug])
    assert 'name="agreeing_reports_count"' in client.get(url).content.decode()
    data = {key: value for key, value in model_to_dict(drawn, fields=EDITABLE_FIELDS).items()
            if value not in (None, False)}
    data["date"] = drawn.date.isoformat()
    answer = client.post(url, {**data, "link_entries_count": "on", "agreeing_reports_count": "on"})
    assert answer.status_code == 200 and "choose one of the two" in answer.content.decode()
    drawn.refresh_from_db()
    assert not drawn.agreeing_reports_count and not drawn.link_entries_count
    assert client.post(url, {**data, "agreeing_reports_count": "on"}).status_code == 302
    drawn.refresh_from_db()
    assert drawn.agreeing_reports_count
