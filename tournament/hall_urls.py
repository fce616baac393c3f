"""The hall page, its waiting page's question and the hall poster (tournament/views/hall.py): /hall/..."""

from django.urls import path

from .views import hall

app_name = "hall"

urlpatterns = [
    path("", hall.HallView.as_view(), name="page"),
    path("state.json", hall.HallStateView.as_view(), name="state"),
    path("poster.pdf", hall.HallPosterView.as_view(), name="poster"),
]
