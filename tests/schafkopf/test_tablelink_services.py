"""Table links: issuing, withdrawing, reissuing, finding by token, and what a table sends."""

import datetime
import hashlib

import pytest

from scoring.games.schafkopf import services
from scoring.models import PendingSheet, ScoreSheet, SheetRevision, TableLink
from scoring.results import brakes as linkbrakes
from scoring.results.brakes import TAKEN_LIMIT, accept_send, check_taken
from scoring.results.links import (
    LinkRefused,
    current_token,
    find_link,
    issue_links,
    open_link,
    reissue_link,
    revoke_link,
    token_of,
)
from tournament.models import AuditEntry
from tournament.services.errors import DomainError

from .drawn_once import built_drawn, drawn_world, once_director, once_drawn, once_schafkopf  # noqa: F401


def test_every_table_of_a_round_gets_one_link_with_a_long_token_stored_only_as_a_hash(rounds, director):
    made = issue_links(rounds[0], by=director)
    assert sorted(link.table.number for link in made) == [1, 2, 3, 4]
    for link in made:
        token = token_of(link)
        assert len(token) >= 43  # 32 bytes, base64url: 256 bits
        assert link.token_hash == hashlib.sha256(token.encode()).hexdigest()
        assert token not in {link.nonce, link.token_hash}
        assert find_link(token) == link
    assert issue_links(rounds[0], by=director) == []  # issuing again adds none
    assert AuditEntry.objects.filter(action="tablelink.issue").count() == 1
    entry = AuditEntry.objects.get(action="tablelink.issue")
    assert not any(token_of(link) in str(entry.after) for link in made)


def test_tokens_differ_and_a_changed_secret_key_needs_a_reissue(links, settings):
    tokens = {token for _link, token in links.values()}
    assert len(tokens) == len(links) == 8
    link, token = links[(1, 1)]
    settings.SECRET_KEY = "another-secret-key-for-this-test-only-0123456789"
    assert current_token(link) is None
    assert find_link(token) == link  # the printed link still opens


def test_only_a_director_issues_withdraws_and_reissues(rounds, links, sk_assistant):
    link, _token = links[(1, 1)]
    with pytest.raises(DomainError):
        issue_links(rounds[0], by=sk_assistant)
    with pytest.raises(DomainError):
        revoke_link(link, by=sk_assistant)
    with pytest.raises(DomainError):
        reissue_link(link, by=sk_assistant)
    assert TableLink.objects.get(pk=link.pk).active


def test_a_withdrawn_link_opens_nothing_and_a_reissued_one_replaces_it(links, director):
    link, token = links[(1, 1)]
    revoke_link(link, by=director)
    with pytest.raises(LinkRefused, match="withdrawn"):
        open_link(token)
    with pytest.raises(DomainError):
        revoke_link(link, by=director)
    new = reissue_link(link, by=director)
    assert new.table == link.table and new.active
    assert open_link(token_of(new)) == new
    with pytest.raises(LinkRefused):
        open_link(token)
    other, other_token = links[(1, 2)]
    newer = reissue_link(other, by=director)
    with pytest.raises(LinkRefused):
        open_link(other_token)
    assert open_link(token_of(newer)) == newer
    assert AuditEntry.objects.filter(action="tablelink.reissue").count() == 2


@pytest.mark.parametrize("token", ["", "x", "A" * 43, "A" * 500, "../../etc"])
def test_an_unknown_token_is_refused(links, token):
    with pytest.raises(LinkRefused, match="not valid"):
        open_link(token)


def test_what_a_table_sends_awaits_confirmation_and_sending_again_changes_nothing(links, a_list, director):
    link, _token = links[(1, 1)]
    entries = a_list(30, 4, seed=3)
    first = services.enter_from_link(link, mode="games", entries=entries)
    assert not first.counted and first.source_link == link and first.entered_by is None
    again = services.enter_from_link(link, mode="games", entries=entries)
    assert again.pk == first.pk and again.version == first.version
    assert PendingSheet.objects.count() == 1 and not ScoreSheet.objects.exists()
    assert AuditEntry.objects.filter(action="sheet.first_entry").count() == 1
    sheet = services.confirm_sheet(link.table, by=director)
    assert sheet.counted and sheet.entries == entries
    revision = SheetRevision.objects.get(sheet=sheet)
    assert revision.source_link == link and revision.confirmed_by == director
    # once it counts: the same list is what was recorded, another one is refused
    assert services.enter_from_link(link, mode="games", entries=entries).pk == sheet.pk
    with pytest.raises(DomainError, match="recorded already"):
        services.enter_from_link(link, mode="games", entries=a_list(30, 4, seed=4))
    assert ScoreSheet.objects.get().entries == entries


def test_the_referee_table_types_it_blind_the_same_counts_a_different_one_is_shown(links, a_list, sk_assistant,
                                                                                   director):
    from scoring.results.double_entry import EntriesDiffer

    link, _token = links[(1, 1)]
    entries = a_list(30, 4, seed=3)
    services.enter_from_link(link, mode="games", entries=entries)
    other = a_list(30, 4, seed=5)
    with pytest.raises(EntriesDiffer, match="the table"):
        services.enter_sheet(link.table, by=sk_assistant, mode="games", entries=other, expected_version=0)
    assert not ScoreSheet.objects.exists()  # double entry is off, yet the table's entry needs a second one
    sheet = services.enter_sheet(link.table, by=sk_assistant, mode="games", entries=entries, expected_version=0)
    assert sheet.counted and SheetRevision.objects.get(sheet=sheet).source_link == link


def test_the_table_corrects_its_own_entry_until_it_is_confirmed(links, a_list):
    link, _token = links[(1, 1)]
    services.enter_from_link(link, mode="games", entries=a_list(30, 4, seed=3))
    second = services.enter_from_link(link, mode="games", entries=a_list(30, 4, seed=4))
    assert second.version == 2 and second.entries == a_list(30, 4, seed=4)


def test_a_table_entry_counts_at_once_when_the_tournament_says_so(links, a_list, drawn):
    drawn.link_entries_count = True
    drawn.save()
    link, _token = links[(1, 1)]
    link.tournament.refresh_from_db()
    entries = a_list(30, 4, seed=3)
    sheet = services.enter_from_link(link, mode="games", entries=entries)
    assert sheet.counted and not PendingSheet.objects.exists()
    assert SheetRevision.objects.get(sheet=sheet).source_link == link
    assert services.enter_from_link(link, mode="games", entries=entries).pk == sheet.pk
    assert ScoreSheet.objects.count() == 1


def test_a_list_the_rules_refuse_is_refused_with_the_referee_tables_message(links, a_list):
    link, _token = links[(1, 1)]
    entries = a_list(30, 4, seed=3)
    with pytest.raises(services.ListRefused, match="30"):
        services.enter_from_link(link, mode="games", entries=entries[:29])
    bad = [dict(entries[0], declarer=9)] + entries[1:]
    with pytest.raises(services.ListRefused):
        services.enter_from_link(link, mode="games", entries=bad)
    assert not PendingSheet.objects.exists()


def test_a_withdrawn_link_sends_nothing(links, a_list, director):
    link, _token = links[(1, 1)]
    revoke_link(link, by=director)
    with pytest.raises(LinkRefused):
        services.enter_from_link(link, mode="games", entries=a_list(30, 4, seed=3))
    assert not PendingSheet.objects.exists()


def test_a_table_that_disagrees_with_a_first_entry_of_the_referee_table_changes_nothing(links, a_list, drawn,
                                                                                        sk_assistant):
    drawn.double_entry = True
    drawn.save()
    link, _token = links[(1, 1)]
    link.tournament.refresh_from_db()
    services.enter_sheet(link.table, by=sk_assistant, mode="games", entries=a_list(30, 4, seed=3))
    with pytest.raises(DomainError, match="different list"):
        services.enter_from_link(link, mode="games", entries=a_list(30, 4, seed=4))
    assert PendingSheet.objects.get().entered_by == sk_assistant
    sheet = services.enter_from_link(link, mode="games", entries=a_list(30, 4, seed=3))
    assert sheet.counted


def test_sends_taken_per_link_are_limited_per_window_from_every_address(links, monkeypatch):
    link, _token = links[(1, 1)]
    start = datetime.datetime(2026, 12, 5, 20, 0, tzinfo=datetime.UTC)
    moment = [start]
    monkeypatch.setattr(linkbrakes, "now", lambda: moment[0])
    for _n in range(TAKEN_LIMIT):
        check_taken(link)
        accept_send(link)
        link.refresh_from_db()  # as the next request loads it
    assert link.window_start == start and link.window_count == TAKEN_LIMIT
    moment[0] = start + datetime.timedelta(minutes=5)
    with pytest.raises(LinkRefused, match="too often") as refused:
        check_taken(link)  # from any phone: the table's list has been taken often enough
    assert refused.value.retry_after == 5 * 60
    other, _ = links[(1, 2)]
    check_taken(other)  # another table is not held up
    moment[0] = start + datetime.timedelta(minutes=10)
    check_taken(link)
    accept_send(link)  # a new window
    link.refresh_from_db()
    assert link.window_start == moment[0] and link.window_count == 1
