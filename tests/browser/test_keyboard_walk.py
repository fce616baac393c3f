"""Every page a director or assistant opens works by keyboard alone, in a real browser.

The pages come from the URL resolver (the same walk as tests/web/test_permission_walk.py), so a
page added later is walked too. On each page Tab is pressed until the focus has passed every
control a mouse could use; the test fails for a control the keyboard never reaches and for one
that takes the focus without showing it (an outline or a shadow). With SCREENSHOTS=1 (as for every browser
test) a screenshot of each page is kept in test-artifacts/keyboard/ for a person to look at; without, the walk
spends its time on the keys (82 screenshots cost the browser about a fifth of the walk).
"""

from __future__ import annotations

import os
import re

import pytest
from django.test import Client
from django.urls import reverse

from scoring.games import all_games
from tests.browser.conftest import ARTIFACTS
from tests.web.test_permission_walk import (
    access_of,
    candidates,
    demo_options,
    games_of,
    tournament_patterns,
    url_arguments,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Marks every control a mouse could use (visible, enabled, not taken out of the tab order);
#: of a group of radio buttons only the first counts, since Tab enters a group once.
MARK_CONTROLS = """() => {
  const selector = 'a[href], button, input, select, textarea, summary, [tabindex]';
  const groups = new Set();
  let count = 0;
  for (const el of document.querySelectorAll(selector)) {
    const style = getComputedStyle(el), box = el.getBoundingClientRect();
    if (el.disabled || el.tabIndex < 0 || el.type === 'hidden' || el.closest('[inert]')) continue;
    if (box.width === 0 || box.height === 0 || style.visibility === 'hidden') continue;
    // inside a closed <details> only its summary is there until a key opens it
    const closed = el.closest('details:not([open])');
    if (closed && !el.closest('summary')) continue;
    if (el.type === 'radio') { if (groups.has(el.name)) continue; groups.add(el.name); }
    el.dataset.kbWalk = String(count++);
  }
  window.kbSeen = [];
  // Tab moves on from the focused element: start from a mark before everything else on the page.
  const start = document.createElement('span');
  start.tabIndex = -1;
  document.body.prepend(start);
  start.focus();
  document.addEventListener('focusin', (event) => {
    const el = event.target, style = getComputedStyle(el);
    const shown = (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none';
    const group = el.type === 'radio' ? document.querySelectorAll(`input[type=radio][name="${el.name}"]`) : [el];
    const key = [...group].find(r => r.dataset.kbWalk)?.dataset.kbWalk;
    window.kbSeen.push({key: key ?? null, shown, label: el.outerHTML.slice(0, 90)});
  });
  return count;
}"""

UNREACHED = """() => [...document.querySelectorAll('[data-kb-walk]')]
  .filter(el => !window.kbSeen.some(s => s.key === el.dataset.kbWalk))
  .map(el => el.outerHTML.slice(0, 90))"""


#: the start tags of a page, and the attributes of each that decide what the keyboard meets (not texts, values,
#: addresses or ids)
START_TAG = re.compile(r"<([a-zA-Z][a-zA-Z0-9-]*)([^>]*)>")
SHAPING = re.compile(r'\b(class|type|name|tabindex|disabled|hidden|inert|open|autofocus|style|role|aria-hidden)'
                     r'(?:="([^"]*)")?')


def shape(html: str) -> tuple:
    """A page's markup without its texts and data: two pages of the same shape put the same controls, with the
    same classes (so the same focus styles), in the same order before the keyboard."""
    body = html[html.find("<body"):]
    return tuple((tag.lower(), tuple(SHAPING.findall(attrs))) for tag, attrs in START_TAG.findall(body))


#: the address endings of what the director downloads rather than opens as a page
DOCUMENTS = (".pdf", ".xlsx", ".json", ".csv", ".zip")


def director_pages(tournaments, client):
    """(name, address) of every HTML page a director or assistant opens, one address per page and game; a page
    of the same shape as the same page of a game walked already is left out (the four table games share their
    pages, and many of them differ by nothing but names and numbers). Returns (pages, shapes left out)."""
    pages, same_shape, seen = [], [], set()
    for route, name, pattern in tournament_patterns():
        if access_of(pattern) not in ("director", "entry"):
            continue
        games = games_of(name)
        for key, tournament in tournaments.items():
            if games is not None and key not in games:
                continue
            for kwargs in candidates(tournament, name, url_arguments(route)):
                url = reverse(name, kwargs=kwargs)
                if url.endswith(DOCUMENTS):
                    continue  # a printout or an export, not a page: not rendered only to be left out
                response = client.get(url)
                if response.status_code == 200 and response["Content-Type"].startswith("text/html"):
                    form = (name, shape(response.content.decode()))
                    if form in seen:
                        same_shape.append(f"{name} ({key})")
                    else:
                        seen.add(form)
                        pages.append((f"{name} ({key})", url))
                    break
    return pages, same_shape


@pytest.fixture
def world(make_director):
    director = make_director("boss")
    tournaments = {game.key: game.demo(director, **demo_options(game)) for game in all_games() if game.offers("demo")}
    return director, tournaments


def test_every_director_page_works_by_keyboard(live_server, page, world):
    director, tournaments = world
    client = Client()
    client.force_login(director)
    pages, same_shape = director_pages(tournaments, client)
    print(f"keyboard walk: {len(pages)} pages walked, {len(same_shape)} of the same shape left out: {same_shape}")
    page.context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                               "url": live_server.url}])
    shots = ARTIFACTS / "keyboard" if os.environ.get("SCREENSHOTS") == "1" else None
    if shots:
        shots.mkdir(parents=True, exist_ok=True)
    problems = []
    for label, url in pages:
        page.goto(live_server.url + url)
        count = page.evaluate(MARK_CONTROLS)
        keyboard = page.keyboard.plain  # goto waited for the load event: no need to wait again before each Tab
        for _ in range(count):
            keyboard.press("Tab")
        unreached = page.evaluate(UNREACHED)
        if unreached:  # a control the count passed over (a focusable element it does not mark): a few Tabs more
            for _ in range(5):
                keyboard.press("Tab")
            unreached = page.evaluate(UNREACHED)
        seen = page.evaluate("() => window.kbSeen")
        if unreached:
            problems.append(f"{label} {url}: {len(unreached)} of {count} controls never reached by Tab "
                            f"({len(seen)} focus moves): {unreached[:3]}")
        hidden = sorted({s["label"] for s in seen if s["key"] is not None and not s["shown"]})
        if hidden:
            problems.append(f"{label} {url}: focus not shown on {hidden[:3]}")
        if page.url != live_server.url + url:
            problems.append(f"{label} {url}: pressing Tab left the page for {page.url}")
        if shots:
            page.screenshot(path=str(shots / (label.replace(":", "_").replace(" ", "") + ".png")))
    assert len(pages) > 30, [label for label, _ in pages]
    assert not problems, "\n".join(problems)
