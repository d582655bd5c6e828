"""A statement a player can verify: his bankroll (and seats) at a checkpoint, proven against its
signed roots.

`statement_proof` answers GET /players/{id}/statement?checkpoint=N: the checkpoint as signed; the
bankroll's posted balance at it with the salt of its leaf and the sum tree path (sibling hashes
and sums only); and every line of the bankroll covered by the checkpoint, each with its event as
the hash covers it (the chain form: secret facts as their salted commitments, exactly what the
feeds serve) and its inclusion path into the log tree. `docs/verify_statement.py` checks it all
with the standard library: the signature, each event's hash and inclusion, each line against its
event's transfers, the balance's inclusion and that it is the sum of the lines.
"""

from __future__ import annotations

from typing import Any

from ledger import merkle
from ledger.checkpoints import checkpoint_get, keys, log_tree
from ledger.disputes.events import STREAM_PREFIX
from ledger.hashing import chain_form, iso_utc
from ledger.models import AccountEntry, CheckpointLeaf, Event, LogLeaf
from ledger.money import UNIT_CHIPS, player_account
from ledger.selectors import player_get

FORMAT = "guts-statement/1"


def statement_proof(*, player_id: int, number: int) -> dict[str, Any]:
    """The bankroll's proof at the top level; each of the player's seats (any table, any unit) in
    `seats`, with the same members."""
    player_get(player_id=player_id)
    checkpoint = checkpoint_get(number)
    seats = (
        CheckpointLeaf.objects.filter(
            checkpoint=number, account__startswith="seat:", account__endswith=f":{player_id}"
        )
        .order_by("account", "unit")
        .values_list("account", "unit")
    )
    return {
        "format": FORMAT,
        "player_id": str(player_id),
        "checkpoint": checkpoint,
        "keys": keys(),
        **account_proof(number, player_account(player_id), UNIT_CHIPS, checkpoint["size"]),
        "seats": [account_proof(number, account, unit, checkpoint["size"]) for account, unit in seats],
    }


def account_proof(number: int, account: str, unit: str, size: int) -> dict[str, Any]:
    """One account at checkpoint `number`: its balance, leaf and sum tree path, and its lines."""
    leaf = CheckpointLeaf.objects.filter(checkpoint=number, unit=unit, account=account).first()
    balance_proof: dict[str, Any] = {"balance": 0, "salt": None, "index": None, "path": []}
    if leaf is not None:
        levels = merkle.sum_levels(_sum_leaves(number, unit))
        balance_proof = {
            "balance": leaf.balance,
            "salt": leaf.salt,
            "index": leaf.index,
            "path": [step.to_json() for step in merkle.sum_path(levels, leaf.index)],
        }
    return {"account": account, "unit": unit, **balance_proof, "lines": _lines(account, unit, size)}


def _sum_leaves(number: int, unit: str) -> list[merkle.SumNode]:
    rows = (
        CheckpointLeaf.objects.filter(checkpoint=number, unit=unit)
        .order_by("index")
        .values_list("salt", "account", "balance")
    )
    return [merkle.sum_leaf(salt, account, unit, amount) for salt, account, amount in rows]


def _lines(account: str, unit: str, size: int) -> list[dict[str, Any]]:
    entries = list(AccountEntry.objects.filter(account=account, unit=unit).order_by("position", "pk"))
    indexes = dict(
        LogLeaf.objects.filter(
            position__in={entry.position for entry in entries}, index__lt=size
        ).values_list("position", "index")
    )
    covered = [entry for entry in entries if entry.position in indexes]
    events = {
        row["position"]: row
        for row in Event.objects.filter(position__in=indexes).values(
            "position", "stream", "version", "type", "data", "meta", "recorded_at", "prev_hash", "hash"
        )
    }
    levels = log_tree(size) if covered else None
    lines = []
    for entry in covered:
        event = events[entry.position]
        index = indexes[entry.position]
        assert levels is not None
        lines.append(
            {
                "amount": entry.amount,
                "counterparty": entry.counterparty,
                "reason": entry.reason,
                "unit": entry.unit,
                "dispute": event["stream"][len(STREAM_PREFIX) :]
                if event["stream"].startswith(STREAM_PREFIX)
                else None,
                "event": {
                    "position": event["position"],
                    "stream": event["stream"],
                    "version": event["version"],
                    "type": event["type"],
                    "data": chain_form(event["data"]),
                    "meta": event["meta"],
                    "recorded_at": iso_utc(event["recorded_at"]),
                    "prev_hash": event["prev_hash"],
                    "hash": event["hash"],
                },
                "log_index": index,
                "log_path": [node.hex() for node in merkle.inclusion_path(levels, index)],
            }
        )
    return lines
