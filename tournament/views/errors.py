"""The page a refused form gets (CSRF_FAILURE_VIEW), and the 500 handler; the other error pages are the templates
400/403/404.html. Every error page's words are in `tournament/templatetags/error_pages.py`.

What a phone at a table meets when its form's cookie is gone or the page was open too long: a translated page that
says to reload and send again, instead of Django's English page about DEBUG (which also broke the
Content-Security-Policy with its inline style). Django's middleware logs the reason; the player needs none.
"""

import sys

from django.http import HttpResponseServerError
from django.shortcuts import render
from django.template import loader

from ..middleware import DATABASE_OUTAGE, database_outage_page


def csrf_failure(request, reason: str = ""):
    return render(request, "403_csrf.html", status=403)


def server_error(request):
    """handler500: a lost database met outside a view (a middleware's save) gets the outage page (503) as a view's
    does (`DatabaseOutageMiddleware`); anything else the plain 500 page, rendered without a request as Django's."""
    if isinstance(sys.exc_info()[1], DATABASE_OUTAGE):
        return database_outage_page(request)
    return HttpResponseServerError(loader.get_template("500.html").render())
