"""A finished deal as a dispute subject (ledger.disputes.subjects): registered by the tables app.

The parties are the deal's participants (DealStarted, public); the disputed positions are the
deal's events that moved chips; the evidence is referenced, never copied: the replay, the fairness
proof and the hand history of the deal (each redacted for its reader when fetched) and its chain
(the stream, the versions and the hashes of its first and last events, as the feeds serve them).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from ledger.disputes.subjects import MAX_POSITION, Subject, money_facts, register_subject_kind
from ledger.errors import InvalidInput, SubjectNotFinished
from tables.audit.deals import deal_load
from tables.state import table_stream


def deal_subject(ref: Mapping[str, Any]) -> Subject:
    table_id, deal_no = _parsed(ref)
    record = deal_load(table_id=table_id, deal_no=deal_no)  # UnknownTable, UnknownDeal
    if not record.over:
        raise SubjectNotFinished(f"Deal {deal_no} is still being played; dispute it once it ends.")
    started = record.events[0]
    parties = tuple(int(player) for player in started.data.get("participants", ()))
    positions, accounts, units = money_facts([(event.position, event.data) for event in record.events])
    base = f"/api/v1/tables/{table_id}/deals/{deal_no}"
    first, last = record.events[0], record.events[-1]
    evidence = (
        {"kind": "replay", "href": f"{base}/replay"},
        {"kind": "proof", "href": f"{base}/proof"},
        {"kind": "history", "href": f"{base}/history?format=json"},
        {
            "kind": "chain",
            "stream": table_stream(table_id),
            "from_version": first.version,
            "to_version": last.version,
            "prev_hash": first.prev_hash,
            "last_hash": last.hash,
            "href": f"/api/v1/tables/{table_id}/events?after={first.position - 1}",
        },
    )
    return Subject(
        {"kind": "deal", "table_id": table_id, "deal_no": deal_no},
        f"deal:{table_id}:{deal_no}",
        f"deal {deal_no} at table {table_id}",
        parties,
        last.recorded_at,
        positions,
        accounts,
        units,
        evidence,
    )


def _parsed(ref: Mapping[str, Any]) -> tuple[str, int]:
    deal_no = ref.get("deal_no")
    try:
        table_id = str(uuid.UUID(str(ref.get("table_id"))))
    except ValueError:
        table_id = ""
    if not table_id or type(deal_no) is not int or not 1 <= deal_no <= MAX_POSITION:
        raise InvalidInput(
            "a deal subject names its table_id (a UUID) and deal_no (from 1)",
            errors={"subject": ["table_id: a UUID; deal_no: an integer from 1"]},
        )
    return table_id, deal_no


def register_deal_subject() -> None:
    register_subject_kind("deal", deal_subject)
