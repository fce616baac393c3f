"""The main pages work in a real browser under the Content-Security-Policy (config/settings.py): no violation
reported, no error in the console, the public pages' polling (htmx, without eval) still runs; and the policy is
enforced: a script put into a page is refused."""

import pytest
from django.test import Client
from django.urls import reverse

from tests.browser.conftest import ACTION_TIMEOUT

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WATCH = """document.addEventListener('securitypolicyviolation',
  e => (window.cspViolations = window.cspViolations || []).push(e.violatedDirective + ' ' + e.blockedURI));"""


def test_main_pages_run_under_the_policy_without_a_violation(live_server, browser, voms, schafkopf, director, publish,
                                                            settings):
    settings.PUBLIC_POLL_SECONDS = 1
    publish(voms)
    publish(schafkopf)
    client = Client()
    client.force_login(director)
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])
    context.add_init_script(WATCH)
    page = context.new_page()
    page.set_default_timeout(ACTION_TIMEOUT)
    console = []
    page.on("console", lambda message: console.append(f"{message.type}: {message.text}"))
    failed = []
    page.on("response", lambda response: response.status >= 400 and failed.append(response.url))
    director_pages = [
        reverse("home"), reverse("tournament:list"), reverse("tournament:detail", args=[voms.slug]),
        f"/manage/{voms.slug}/voms/enter/", reverse("tournament:public", args=[voms.slug]),
        reverse("tournament:clock", args=[voms.slug]), reverse("tournament:detail", args=[schafkopf.slug]),
        reverse("tournament:schafkopf:standings", args=[schafkopf.slug]),
    ]
    public_pages = [reverse(f"public:{name}", args=[voms.slug]) for name in ("index", "standings", "seat", "beamer")]
    public_pages.append(reverse("public:schedule", args=[schafkopf.slug]))
    problems = []
    try:
        for path in director_pages + public_pages:
            response = page.goto(live_server.url + path)
            assert response.status == 200, path
            assert "script-src 'self'" in response.headers["content-security-policy"], path
            if path in public_pages:
                # the live region polls (htmx, its trigger without an eval'd filter) and is replaced
                with page.expect_response(lambda r: "/live/" in r.url, timeout=8_000) as poll:
                    pass
                assert poll.value.status in (200, 204), path
            violations = page.evaluate("() => window.cspViolations || []")
            if violations:
                problems.append(f"{path}: {violations}")
        errors = [line for line in console if "Content Security Policy" in line
                  or line.startswith("error") and "Failed to load resource" not in line]
        assert not problems and not errors, problems + errors
        assert [u for u in failed if not u.endswith("/favicon.ico")] == []  # the browser's own guess aside

        # enforced: an inline script added to the page does not run, and is reported
        ran = page.evaluate("""() => { const s = document.createElement('script'); s.textContent = 'window.ran = 1';
                                       document.body.append(s); return window.ran === 1; }""")
        assert ran is False
        page.wait_for_function("() => (window.cspViolations || []).length > 0")
        assert page.evaluate("() => window.cspViolations")[0].startswith("script-src")
    finally:
        context.close()
