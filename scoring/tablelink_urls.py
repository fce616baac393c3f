"""The tables' private links (no account): /t/<token>/."""

from django.urls import path

from .tablelink_views import table_entry

app_name = "table"

urlpatterns = [path("<str:token>/", table_entry, name="entry")]
