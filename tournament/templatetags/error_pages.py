"""The error pages' words, one table: `{% error_page "404" %}` renders templates/errors/page.html with them.

Django looks an error page up by its name (400.html, 403.html, 404.html, 500.html; 403_csrf.html is
`tournament.views.errors.csrf_failure`'s), and renders 500.html without a request or a context: each of those
files only names its entry here. The words are lazy, translated in the language of the request when the page is
rendered. Every page says what happened (and that nothing was changed or lost) and what to do next.
"""

from typing import NamedTuple

from django import template
from django.utils.translation import gettext_lazy as _

register = template.Library()


class ErrorPage(NamedTuple):
    #: the page's title and heading
    title: str
    #: what happened
    lead: str
    #: what to do
    advice: str


PAGES = {
    "400": ErrorPage(_("Request not understood"),
                     _("This computer could not understand the request, and nothing was changed."),
                     _("Go back and try again. If you typed the address yourself, check it: in the hall, open exactly "
                       "the address on the hall poster or the director's hall page.")),
    "403": ErrorPage(_("Not allowed"), _("This page is not open to you, and nothing was changed."),
                     _("Log in with an account that may open it, or ask the tournament's director.")),
    "403_csrf": ErrorPage(_("Please send it again"),
                          _("What you sent was not taken: the page was open too long, or its cookie is gone."),
                          _("Go back, reload the page and send again. If this keeps happening, allow cookies for this "
                            "site in your browser.")),
    "404": ErrorPage(_("Page not found"), _("There is no page at this address, or not any more."),
                     _("Check the address, or start again from the start page. A table's link that no longer opens "
                       "may have been replaced: ask the director for the new one.")),
    "500": ErrorPage(_("Something went wrong"),
                     _("The tournament manager could not finish this request. Everything saved before it is kept."),
                     _("Go back and try again. If it happens again, restart the program (close it and start it "
                       "again); your tournaments are kept.")),
}


@register.inclusion_tag("errors/page.html")
def error_page(name: str) -> dict:
    return {"page": PAGES[name]}
