"""The page a refused form gets (CSRF_FAILURE_VIEW); the other error pages are the templates 400/403/404/500.html.

What a phone at a table meets when its form's cookie is gone or the page was open too long: a translated page that
says to reload and send again, instead of Django's English page about DEBUG (which also broke the
Content-Security-Policy with its inline style). Django's middleware logs the reason; the player needs none.
"""

from django.shortcuts import render


def csrf_failure(request, reason: str = ""):
    return render(request, "403_csrf.html", status=403)
