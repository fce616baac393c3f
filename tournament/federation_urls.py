"""The federation's pages (/manage/federation/): its admins only (tournament/views/federation.py)."""

from django.urls import path

from .views import federation

federation_patterns = ([
    path("", federation.FederationView.as_view(), name="home"),
    path("member/<int:number>/", federation.MemberView.as_view(), name="member"),
    path("audit/", federation.FederationAuditView.as_view(), name="audit"),
    path("seasons/", federation.FederationSeasonListView.as_view(), name="seasons"),
    path("seasons/<slug:fseason>/", federation.FederationSeasonView.as_view(), name="season"),
    path("seasons/<slug:fseason>/season.pdf", federation.FederationSeasonFileView.as_view(file_format="pdf"),
         name="season_pdf"),
], "federation")
