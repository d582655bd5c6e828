"""What can be disputed: a finished deal or a cashier transaction, resolved to its facts.

The ledger knows no tables, so each kind of subject is resolved by a function its app registers
(`register_subject_kind`): the tables app registers "deal". The ledger's own kind is "cashier" (a
deposit or withdrawal, by the position of its event). A resolver returns a `Subject`: who is a
party, when it ended (the dispute window runs from then), the events that moved chips (the
disputed positions a correction references), the accounts they moved and the evidence to attach
by reference (URLs of the replay, proof and chain; their answers are redacted for each reader).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ledger.accounts import transfers_of
from ledger.errors import InvalidInput, UnknownDisputeSubject
from ledger.models import Event

CASHIER_EVENTS = frozenset({"DepositMade", "WithdrawalMade"})
MAX_POSITION = 2**63 - 1  # the event table's bigint positions


@dataclass(frozen=True, slots=True)
class Subject:
    ref: dict[str, Any]  # as the client named it, normalised
    key: str  # one string per subject: "deal:<table>:<n>"
    label: str  # for statement lines: "deal 3 at table <id>"
    parties: tuple[int, ...]  # player ids
    ended_at: datetime
    positions: tuple[int, ...]  # the events that moved chips
    accounts: tuple[str, ...]  # the accounts they moved
    units: tuple[str, ...]
    evidence: tuple[dict[str, Any], ...] = field(default=())


Resolver = Callable[[Mapping[str, Any]], Subject]
_resolvers: dict[str, Resolver] = {}


def register_subject_kind(kind: str, resolver: Resolver) -> None:
    _resolvers[kind] = resolver


def subject_kinds() -> list[str]:
    return sorted(_resolvers)


def subject_resolve(ref: Mapping[str, Any]) -> Subject:
    """The subject `ref` names (`{"kind": "deal", "table_id": ..., "deal_no": 3}`, or
    `{"kind": "cashier", "position": 42}`)."""
    resolver = _resolvers.get(str(ref.get("kind")))
    if resolver is None:
        raise InvalidInput(
            f"subject kind must be one of {subject_kinds()}",
            errors={"subject": [f"kind must be one of {subject_kinds()}"]},
        )
    return resolver(ref)


def money_facts(
    events: list[tuple[int, dict[str, Any]]],
) -> tuple[tuple[int, ...], tuple[str, ...], tuple[str, ...]]:
    """(positions, accounts, units) of the events, given as (position, data), that moved chips."""
    positions, accounts, units = [], set(), set()
    for position, data in events:
        transfers = transfers_of(data)
        if transfers:
            positions.append(position)
        for transfer in transfers:
            accounts |= {transfer.source, transfer.target}
            units.add(transfer.unit)
    return tuple(positions), tuple(sorted(accounts)), tuple(sorted(units))


def cashier_subject(ref: Mapping[str, Any]) -> Subject:
    """A deposit or withdrawal, by its event's position."""
    position = ref.get("position")
    if type(position) is not int or not 1 <= position <= MAX_POSITION:
        raise InvalidInput(
            "a cashier subject names its event's position",
            errors={"subject": ["position: a positive integer"]},
        )
    row = (
        Event.objects.filter(position=position, type__in=CASHIER_EVENTS)
        .values("stream", "version", "data", "recorded_at", "hash")
        .first()
    )
    if row is None or not row["stream"].startswith("player-"):
        raise UnknownDisputeSubject(f"No cashier transaction at position {position}.")
    player_id = int(row["stream"].split("-", 1)[1])
    positions, accounts, units = money_facts([(position, row["data"])])
    evidence = (
        {"kind": "statement", "href": f"/api/v1/players/{player_id}/statement"},
        {
            "kind": "event",
            "position": position,
            "stream": row["stream"],
            "version": row["version"],
            "hash": row["hash"],
        },
    )
    return Subject(
        {"kind": "cashier", "position": position},
        f"cashier:{position}",
        f"cashier transaction #{position}",
        (player_id,),
        row["recorded_at"],
        positions,
        accounts,
        units,
        evidence,
    )


def register_cashier_subject() -> None:
    register_subject_kind("cashier", cashier_subject)
