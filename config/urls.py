"""URLs, split by audience: public pages, director pages (login), the admin.

One login page for everything: the admin's own login page only sends its visitors to ours,
so the admin has the same brake on password guessing (tournament/views/auth.py). There are
no password-reset pages: the app sends no mail; a lost password is set again on the server
with `manage.py changepassword <user name>` (README, docs/directors-guide.md), or a club's admin makes a new
one-time link on the club page (the same page an invited member chooses a first password on).
"""

from django.contrib import admin
from django.contrib.auth.views import LogoutView
from django.urls import include, path
from django.views.generic import RedirectView

from tournament.federation_urls import federation_patterns
from tournament.public.api import api
from tournament.season_urls import register_patterns, season_patterns
from tournament.views.auth import RateLimitedLoginView
from tournament.views.clubs import ClubView, SetPasswordView
from tournament.views.health import healthz
from tournament.views.push import ClubServerView
from tournament.views.setup import HomeView, SetupView

#: a lost database gets its own page (503), not the 500 page (tournament/views/errors.py)
handler500 = "tournament.views.errors.server_error"

urlpatterns = [
    path("", HomeView.as_view(), name="home"),
    # the load balancer's and the monitoring's question: database and caches reachable? (docs/server.md)
    path("healthz", healthz, name="healthz"),
    path("setup/", SetupView.as_view(), name="setup"),  # the first start: tournament/views/setup.py
    path("hall/", include("tournament.hall_urls")),
    path("accounts/login/", RateLimitedLoginView.as_view(), name="login"),
    path("accounts/logout/", LogoutView.as_view(), name="logout"),
    # an invited member's one-time link (tournament/services/clubs.py)
    path("accounts/password/<uidb64>/<token>/", SetPasswordView.as_view(), name="set_password"),
    path("i18n/", include("django.conf.urls.i18n")),
    # before admin.site.urls, which would answer it with a login form of its own (keeps ?next=)
    path("admin/login/", RedirectView.as_view(pattern_name="login", query_string=True)),
    path("admin/", admin.site.urls),
    # before manage/<slug>/, which would take "register", "club", "seasons", "federation" for a tournament
    path("manage/register/", include(register_patterns)),
    path("manage/club/", ClubView.as_view(), name="club"),
    # the laptop's club server: where "Send to the club's server" sends (tournament/views/push.py)
    path("manage/club/server/", ClubServerView.as_view(), name="club_server"),
    path("manage/seasons/", include(season_patterns)),
    path("manage/federation/", include(federation_patterns)),  # a federation's admins (none on a laptop)
    path("manage/", include("tournament.urls")),
    path("p/", include("tournament.public.urls")),
    # the read-only JSON API for club websites, with its OpenAPI schema (tournament/public/api.py)
    path("api/v1/", api.urls),
    path("t/", include("scoring.tablelink_urls")),
]
