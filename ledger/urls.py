"""API routes of the ledger app (mounted under /api/v1/)."""

from django.urls import path

from ledger.api import checkpoints, disputes, views

urlpatterns = [
    path("auth/token", views.TokenApi.as_view(), name="auth-token"),
    path("auth/logout", views.LogoutApi.as_view(), name="auth-logout"),
    path("me", views.MeApi.as_view(), name="me"),
    path("players", views.PlayerCollectionApi.as_view(), name="players"),
    path("players/<int:player_id>", views.PlayerDetailApi.as_view(), name="player-detail"),
    path("players/<int:player_id>/deposits", views.DepositApi.as_view(), name="player-deposits"),
    path("players/<int:player_id>/withdrawals", views.WithdrawalApi.as_view(), name="player-withdrawals"),
    path(
        "players/<int:player_id>/revoke-tokens",
        views.PlayerRevokeTokensApi.as_view(),
        name="player-revoke-tokens",
    ),
    path("players/<int:player_id>/balance", views.BalanceApi.as_view(), name="player-balance"),
    path("players/<int:player_id>/statement", views.StatementApi.as_view(), name="player-statement"),
    path("disputes", disputes.DisputeCollectionApi.as_view(), name="disputes"),
    path("disputes/<uuid:dispute_id>", disputes.DisputeDetailApi.as_view(), name="dispute-detail"),
    path("disputes/<uuid:dispute_id>/hold", disputes.DisputeHoldApi.as_view(), name="dispute-hold"),
    path("disputes/<uuid:dispute_id>/notes", disputes.DisputeNoteApi.as_view(), name="dispute-notes"),
    path("disputes/<uuid:dispute_id>/decide", disputes.DisputeDecideApi.as_view(), name="dispute-decide"),
    path(
        "disputes/<uuid:dispute_id>/withdraw", disputes.DisputeWithdrawApi.as_view(), name="dispute-withdraw"
    ),
    path("audit/keys", checkpoints.KeysApi.as_view(), name="audit-keys"),
    path("audit/checkpoints", checkpoints.CheckpointCollectionApi.as_view(), name="audit-checkpoints"),
    path(
        "audit/checkpoints/<int:number>", checkpoints.CheckpointDetailApi.as_view(), name="audit-checkpoint"
    ),
    path(
        "audit/checkpoints/<int:number>/consistency",
        checkpoints.ConsistencyApi.as_view(),
        name="audit-checkpoint-consistency",
    ),
]
