"""A dispute's hold expires by the real timer (docs/disputes.md): nobody decides, and beat's
dispatcher (every GUTS_DISPUTE_SWEEP_INTERVAL) sends the idempotent expiry to a real worker, which
closes the dispute as `expired` and voids the hold, with Redis and PostgreSQL."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from http_edge.roles import CLUB_ADMIN, grant_role
from ledger.cashier import cashier_deposit, player_create
from ledger.disputes.service import dispute_expire, dispute_hold, dispute_open
from ledger.models import Dispute, DisputeHold, Event
from ledger.selectors import player_balance
from ledger.verify import verify_ledger
from tests.e2e.conftest import CeleryStack
from tests.e2e.helpers import wait_until

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.e2e,
    pytest.mark.xdist_group("e2e-timers"),
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fast_password_hashing"),
]


def test_an_undecided_dispute_expires_and_its_hold_is_voided(timers: CeleryStack, settings: object) -> None:
    settings.GUTS_DISPUTE_WINDOW = 2  # type: ignore[attr-defined]
    player = player_create(username=f"expiring{Event.objects.count()}", password="x")
    admin = get_user_model().objects.create_user(username=f"admin{Event.objects.count()}", password="x")
    grant_role(admin, CLUB_ADMIN)
    deposit = cashier_deposit(player_id=player.pk, amount=500)
    state = dispute_open(
        user=player,
        subject={"kind": "cashier", "position": deposit.event.position},
        reason="short",
        now=timezone.now(),
    )
    dispute_hold(user=admin, dispute_id=state.dispute_id, player_id=player.pk, amount=400, now=timezone.now())
    assert player_balance(player_id=player.pk).available == 100

    closed = Dispute.objects.filter(dispute_id=state.dispute_id, status="expired")
    expired = wait_until(closed.exists, 2 + settings.GUTS_DISPUTE_SWEEP_INTERVAL + 10)  # type: ignore[attr-defined]
    assert expired
    assert DisputeHold.objects.get(dispute_id=state.dispute_id).status == "voided"
    assert player_balance(player_id=player.pk).available == 500
    closing = Event.objects.filter(stream=f"dispute-{state.dispute_id}", type="DisputeExpired").get()
    assert closing.recorded_at >= state.deadline
    assert closing.meta["source"] == "timer"
    assert dispute_expire(dispute_id=state.dispute_id, now=timezone.now()) == 0  # idempotent
    assert Event.objects.filter(stream=f"dispute-{state.dispute_id}").count() == 3
    assert verify_ledger().ok
