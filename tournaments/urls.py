"""API routes of the tournaments app (mounted under /api/v1/)."""

from django.urls import path

from tournaments.api import me, views

TOURNAMENT = "tournaments/<uuid:tournament_id>"

urlpatterns = [
    path("tournaments", views.TournamentCollectionApi.as_view(), name="tournaments"),
    path(TOURNAMENT, views.TournamentDetailApi.as_view(), name="tournament-detail"),
    path(f"{TOURNAMENT}/registrations", views.RegistrationsApi.as_view(), name="tournament-registrations"),
    path(f"{TOURNAMENT}/unregister", views.UnregisterApi.as_view(), name="tournament-unregister"),
    path(f"{TOURNAMENT}/start", views.StartApi.as_view(), name="tournament-start"),
    path(f"{TOURNAMENT}/cancel", views.CancelApi.as_view(), name="tournament-cancel"),
    path(f"{TOURNAMENT}/stream", me.TournamentStreamApi.as_view(), name="tournament-stream"),
    path(
        f"{TOURNAMENT}/stream-tickets",
        me.TournamentStreamTicketApi.as_view(),
        name="tournament-stream-tickets",
    ),
    path("me/tournaments", me.MyTournamentsApi.as_view(), name="me-tournaments"),
]
