"""The disputes projector: Dispute and DisputeHold rows, and the guard that keeps held chips held.

Runs inline after the balance projector (the ledger app registers it second), in the same
pipeline. Dispute events update the rows. Then, for a live append that takes chips out of a
bankroll or places a hold, one statement (sent with the batch's others: no extra round trip)
looks for a bankroll whose pending holds now exceed its posted balance; the deferred check raises
FundsHeld, which rolls the whole append back. So a withdrawal, a buy-in or a registration that
needs held chips is refused (409 `funds_held`) on every code path, and a hold never exceeds what
the player has. Replays (`live=False`) apply history as the facts it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import psycopg
from django.db import connection
from django.utils.dateparse import parse_datetime

from ledger import dbapi
from ledger.accounts import account_kind
from ledger.disputes import events as ev
from ledger.errors import FundsHeld
from ledger.models import Dispute, DisputeHold
from ledger.projections import Deferred, Projector
from ledger.store import StoredEvent

PLAYER_STREAM = "player-"

GUARD = """
SELECT h.account, h.unit, h.held, COALESCE(b.balance, 0) FROM (
    SELECT account, unit, SUM(amount) AS held FROM ledger_disputehold
    WHERE status = 'pending' AND account {accounts} GROUP BY account, unit) AS h
LEFT JOIN ledger_accountbalance b ON b.account = h.account AND b.unit = h.unit
WHERE h.held > COALESCE(b.balance, 0)
"""


class DisputesProjector(Projector):
    name = "ledger.disputes"
    models = (Dispute, DisputeHold)

    def wants(self, event: StoredEvent) -> bool:
        return event.stream.startswith(ev.STREAM_PREFIX) or bool(_guarded(event))

    def apply_batch(self, events: Sequence[StoredEvent], *, live: bool) -> Deferred | None:
        guarded: set[str] = set()
        for event in events:
            if event.stream.startswith(ev.STREAM_PREFIX):
                _apply(event)
                if event.type == ev.HOLD_PLACED:
                    guarded |= {pending["from"] for pending in event.data["pending"]}
            guarded |= _guarded(event)
        if not live or not guarded:
            return None
        return _guard(sorted(guarded))


def _guarded(event: StoredEvent) -> set[str]:
    """The bankrolls this append must keep above their held chips. A cashier event on the player's
    own stream is not among them: the cashier checked them under the bankroll lock every hold
    takes (so a withdrawal costs no extra statement)."""
    if event.stream.startswith(PLAYER_STREAM):
        return set()
    return _debited_bankrolls(event)


def _debited_bankrolls(event: StoredEvent) -> set[str]:
    return {
        transfer["from"]
        for transfer in event.data.get("transfers") or ()
        if account_kind(transfer["from"]) == "player"
    }


def _apply(event: StoredEvent) -> None:
    data = event.data
    dispute_id = data["dispute_id"]
    if event.type == ev.DISPUTE_OPENED:
        Dispute.objects.create(
            dispute_id=dispute_id,
            subject_key=data["subject_key"],
            subject=data["subject"],
            opened_by=data["opened_by"],
            parties=data["parties"],
            party_keys=party_keys(data["parties"]),
            status="open",
            deadline=parse_datetime(data["deadline"]),
            opened_at=event.recorded_at,
            version=event.version,
        )
        return
    fields: dict[str, Any] = {"version": event.version}
    if event.type == ev.HOLD_PLACED:
        [pending] = data["pending"]
        DisputeHold.objects.create(
            dispute_id=dispute_id,
            account=pending["from"],
            unit=pending.get("unit", "chips"),
            amount=pending["amount"],
            status="pending",
            expires_at=parse_datetime(data["expires_at"]),
        )
    elif event.type in ev.CLOSING:
        fields["status"] = (
            data["outcome"]
            if event.type == ev.DECIDED
            else {ev.WITHDRAWN: "withdrawn", ev.EXPIRED: "expired"}[event.type]
        )
        if data.get("hold"):
            DisputeHold.objects.filter(dispute_id=dispute_id).update(
                status="posted" if data["hold"]["posted"] else "voided"
            )
    Dispute.objects.filter(dispute_id=dispute_id).update(**fields)


def party_keys(parties: list[int]) -> str:
    return "," + "".join(f"{party}," for party in parties)


def _guard(accounts: list[str]) -> Deferred:
    """Send the held-chips check now; the returned check reads it once the pipeline has synced."""
    if dbapi.on_postgres():
        connection.ensure_connection()
        cursor = psycopg.Cursor(connection.connection)
        cursor.execute(GUARD.format(accounts="= ANY(%s)"), [accounts])

        def check() -> None:
            with cursor:
                _refuse(cursor.fetchall())

        return check
    with connection.cursor() as django_cursor:
        django_cursor.execute(GUARD.format(accounts=f"IN ({', '.join(['%s'] * len(accounts))})"), accounts)
        rows = django_cursor.fetchall()
    return lambda: _refuse(rows)


def _refuse(rows: list[tuple[Any, ...]]) -> None:
    if rows:
        account, unit, held, posted = rows[0]
        raise FundsHeld(
            f"{account} holds {posted} {unit}, of which {held} are held by disputes; "
            f"{max(0, posted - held)} are available.",
            account=account,
        )
