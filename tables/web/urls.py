"""Routes of the pages for people (mounted at the site root, beside /api/)."""

from django.urls import path

from tables.web import views

TABLE = "tables/<uuid:table_id>/"

urlpatterns = [
    path("login/", views.LoginPage.as_view(), name="web-login"),
    path("logout/", views.logout_page, name="web-logout"),
    path("audit/", views.audit_index, name="web-audit"),
    path("audit/tables/<uuid:table_id>/", views.audit_table, name="web-audit-table"),
    path("audit/tables/<uuid:table_id>/deals/<int:deal_no>/", views.audit_replay, name="web-replay"),
    path("audit/accounts/<str:account>/", views.audit_statement, name="web-statement"),
    path("tables/", views.lobby, name="web-lobby"),
    path(TABLE, views.live_table, name="web-table"),
    path(f"{TABLE}panel", views.live_panel, name="web-table-panel"),
]
