"""API routes of the tables app (mounted under /api/v1/). A step kind's command names its own route
(tables.api.actions), routed here as `table-<route>`."""

from django.urls import path

from tables.api import me, views
from tables.api.actions import ACTION_VIEWS

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
    *[path(f"{TABLE}/{view.route}", view.as_view(), name=f"table-{view.route}") for view in ACTION_VIEWS],
    path("players/<int:player_id>/deals", views.PlayerDealsApi.as_view(), name="player-deals"),
    path("me/seats", me.MySeatsApi.as_view(), name="me-seats"),
    path("me/stream", me.MyStreamApi.as_view(), name="me-stream"),
    path("me/stream-tickets", me.MyStreamTicketApi.as_view(), name="me-stream-tickets"),
]
