"""URLs, split by audience: public pages, director pages (login), the admin."""

from django.contrib import admin
from django.urls import include, path
from django.views.generic import TemplateView

from tournament.views.auth import RateLimitedLoginView

urlpatterns = [
    path("", TemplateView.as_view(template_name="home.html"), name="home"),
    path("accounts/login/", RateLimitedLoginView.as_view(), name="login"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("manage/", include("tournament.urls")),
    path("p/", include("tournament.public.urls")),
    path("t/", include("scoring.tablelink_urls")),
]
