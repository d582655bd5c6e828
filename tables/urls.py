"""API routes of the tables app (mounted under /api/v1/)."""

from django.urls import path

from tables.api import me, views

TABLE = "tables/<uuid:table_id>"

urlpatterns = [
    path("variants", views.VariantsApi.as_view(), name="variants"),
    path("tables", views.TableCollectionApi.as_view(), name="tables"),
    path(TABLE, views.TableDetailApi.as_view(), name="table-detail"),
    path(f"{TABLE}/seats", views.SeatsApi.as_view(), name="table-seats"),
    path(f"{TABLE}/top-ups", views.TopUpsApi.as_view(), name="table-top-ups"),
    path(f"{TABLE}/leave", views.LeaveApi.as_view(), name="table-leave"),
    path(f"{TABLE}/sit-out", views.SitOutApi.as_view(), name="table-sit-out"),
    path(f"{TABLE}/sit-in", views.SitInApi.as_view(), name="table-sit-in"),
    path(f"{TABLE}/close", views.CloseApi.as_view(), name="table-close"),
    path(f"{TABLE}/deals", views.DealsApi.as_view(), name="table-deals"),
    path(f"{TABLE}/declares", views.DeclaresApi.as_view(), name="table-declares"),
    path(f"{TABLE}/passes", views.PassesApi.as_view(), name="table-passes"),
    path(f"{TABLE}/bids", views.BidsApi.as_view(), name="table-bids"),
    path(f"{TABLE}/exchanges", views.ExchangesApi.as_view(), name="table-exchanges"),
    path(f"{TABLE}/escalations", views.EscalationsApi.as_view(), name="table-escalations"),  # T38-03
    path(f"{TABLE}/bets", views.BetsApi.as_view(), name="table-bets"),  # D-BET
    path(f"{TABLE}/offers", views.OffersApi.as_view(), name="table-offers"),  # BF-02..04
    path(f"{TABLE}/trump", views.TrumpApi.as_view(), name="table-trump"),  # WL-06
    path(f"{TABLE}/plays", views.PlaysApi.as_view(), name="table-plays"),  # WL-07..09
    path("players/<int:player_id>/deals", views.PlayerDealsApi.as_view(), name="player-deals"),
    path("me/seats", me.MySeatsApi.as_view(), name="me-seats"),
    path("me/stream", me.MyStreamApi.as_view(), name="me-stream"),
    path("me/stream-tickets", me.MyStreamTicketApi.as_view(), name="me-stream-tickets"),
]
