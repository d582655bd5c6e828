"""Audit API routes (mounted under /api/v1/)."""

from django.urls import path

from tables.audit import views

DEAL = "tables/<uuid:table_id>/deals/<int:deal_no>"

urlpatterns = [
    path("tables/<uuid:table_id>/events", views.TableEventsApi.as_view(), name="table-events"),
    path("tables/<uuid:table_id>/stream", views.TableStreamApi.as_view(), name="table-stream"),
    path(
        "tables/<uuid:table_id>/stream-tickets", views.StreamTicketApi.as_view(), name="table-stream-tickets"
    ),
    path(f"{DEAL}/replay", views.DealReplayApi.as_view(), name="deal-replay"),
    path(f"{DEAL}/proof", views.DealProofApi.as_view(), name="deal-proof"),
    path(f"{DEAL}/history", views.DealHistoryApi.as_view(), name="deal-history"),
    path(
        f"{DEAL}/history.txt",
        views.DealHistoryTextApi.as_view(),
        {"format": "text"},
        name="deal-history-text",
    ),
    path("tables/<uuid:table_id>/history", views.TableHistoryApi.as_view(), name="table-history"),
    path(
        "tables/<uuid:table_id>/history.txt",
        views.TableHistoryTextApi.as_view(),
        {"format": "text"},
        name="table-history-text",
    ),
    path(
        "tables/<uuid:table_id>/history.json",
        views.TableHistoryDownloadApi.as_view(),
        {"format": "json"},
        name="table-history-json",
    ),
    path("audit/events", views.AuditEventsApi.as_view(), name="audit-events"),
    path("audit/verify", views.LedgerVerifyApi.as_view(), name="audit-verify"),
    path(
        "audit/accounts/<str:account>/statement",
        views.AccountStatementApi.as_view(),
        name="audit-account-statement",
    ),
]
