"""verify_ledger replays dispute holds from the log (docs/disputes.md): a hold pending past its
deadline, a closing event that neither posts nor voids its hold, and an escrow left with chips
are each reported; a well-kept hold is not."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from ledger.disputes import events as ev
from ledger.hashing import iso_utc
from ledger.money import CASHIER, Transfer, player_account
from ledger.store import NewEvent, StreamWrite, append
from ledger.verify import verify_ledger
from tests.ledger.conftest import deposit_event, unique

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def a_hold(amount: int, *, expires_in: timedelta) -> tuple[str, str]:
    """A player with 100 chips and a dispute holding `amount` of them, written to the log directly."""
    player = unique("p")
    append([StreamWrite(f"player-{player}", 0, [deposit_event(player, 100)])])
    dispute = str(uuid.uuid4())
    deadline = iso_utc(timezone.now() + expires_in)
    pending = Transfer(player_account(player), ev.hold_account(dispute), amount, "hold").to_json()
    append(
        [
            StreamWrite(
                ev.dispute_stream(dispute),
                0,
                [
                    NewEvent(
                        ev.DISPUTE_OPENED,
                        {
                            "dispute_id": dispute,
                            "subject": {"kind": "cashier", "position": 1},
                            "subject_key": f"cashier:{dispute}",
                            "opened_by": 1,
                            "parties": [1],
                            "deadline": deadline,
                        },
                    ),
                    NewEvent(
                        ev.HOLD_PLACED, {"dispute_id": dispute, "pending": [pending], "expires_at": deadline}
                    ),
                ],
            )
        ]
    )
    return player, dispute


def close(dispute: str, hold: dict[str, int] | None, transfers: list[dict[str, Any]] | None = None) -> None:
    append(
        [
            StreamWrite(
                ev.dispute_stream(dispute),
                2,
                [
                    NewEvent(
                        ev.DECIDED,
                        {
                            "dispute_id": dispute,
                            "outcome": "upheld",
                            "hold": hold,
                            "transfers": transfers or [],
                        },
                    )
                ],
            )
        ]
    )


def test_a_kept_hold_passes() -> None:
    player, dispute = a_hold(60, expires_in=timedelta(days=1))
    report = verify_ledger()
    assert report.ok, report.to_json()
    assert report.holds_pending == 1
    posted = Transfer(player_account(player), ev.hold_account(dispute), 60, "hold posted").to_json()
    paid = Transfer(ev.hold_account(dispute), CASHIER, 60, "correction").to_json()
    close(dispute, {"posted": 60, "voided": 0}, [posted, paid])
    report = verify_ledger()
    assert report.ok, report.to_json()
    assert report.holds_pending == 0


def test_a_hold_pending_past_its_deadline_is_reported() -> None:
    _, dispute = a_hold(60, expires_in=-timedelta(hours=1))
    report = verify_ledger()
    assert not report.ok
    assert any(dispute in problem and "after its deadline" in problem for problem in report.hold_problems)


def test_a_closing_that_neither_posts_nor_voids_its_hold_is_reported() -> None:
    _, dispute = a_hold(60, expires_in=timedelta(days=1))
    close(dispute, {"posted": 0, "voided": 10})
    report = verify_ledger()
    assert any("without posting or voiding its hold of 60" in problem for problem in report.hold_problems)


def test_an_escrow_left_with_chips_is_reported() -> None:
    player, dispute = a_hold(60, expires_in=timedelta(days=1))
    posted = Transfer(player_account(player), ev.hold_account(dispute), 60, "hold posted").to_json()
    close(dispute, {"posted": 60, "voided": 0}, [posted])  # never paid on
    report = verify_ledger()
    assert any(f"hold:{dispute} keeps 60" in problem for problem in report.hold_problems)
