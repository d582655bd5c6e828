"""Account names, units and the Transfer value: pure Python (no Django), shared by the ledger and
the rules engine, so the engine can write money movements into its events without importing Django.

Every chip movement is a Transfer between two named accounts in one unit (DESIGN §2.4):
`cashier` (the outside world), `player:<id>` (bankroll), `seat:<table>:<player>` (table stack),
`pot:<table>`, `reserve:<table>`, `bets:<table>` (the live deal's bets, D-BET),
`sidepot:<table>:<n>` (the live deal's side pot n, 1 up, D-IT-02), `prizepool:<tournament>`,
`house`, and a tournament's chip bank `chipbank:<tournament>` (the issuer of its chips, unit
`t:<tournament>`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

UNIT_CHIPS = "chips"  # the club's cash chips; a tournament's own chips are "t:<id>"
CASHIER = "cashier"
HOUSE = "house"
MAX_AMOUNT = 10**15  # far above any real stake; guards against overflow and typos

# Which kinds of account may go below zero. The cashier is the outside world: it goes negative by
# exactly what the club holds. Everything else is chips someone has and can never be negative
# (a table option allow_debt may later allow a seat to, D-GEN-06). A tournament's chip bank issues
# its chips: it goes negative by exactly the chips in play, like the cashier.
MAY_GO_NEGATIVE = frozenset({"cashier", "chipbank"})


class InvalidTransfer(ValueError):
    code = "invalid_transfer"


def player_account(player_id: object) -> str:
    return f"player:{player_id}"


def seat_account(table_id: object, player_id: object) -> str:
    return f"seat:{table_id}:{player_id}"


def pot_account(table_id: object) -> str:
    return f"pot:{table_id}"


def reserve_account(table_id: object) -> str:
    return f"reserve:{table_id}"


def bets_account(table_id: object) -> str:
    """The bets of a table's live deal, kept apart from the pot so that the pot is matched at its
    pre-betting size (D-BET, JP-12); empty again when the deal is settled."""
    return f"bets:{table_id}"


def side_pot_account(table_id: object, number: int) -> str:
    """Side pot `number` (1, 2, ...) of a table's live poker deal (D-IT-02): the main pot is the
    pot account itself; each side pot formed by an all-in is an account of its own, filled when
    a betting round's bets are gathered and empty again when the deal is settled."""
    return f"sidepot:{table_id}:{number}"


def prizepool_account(tournament_id: object) -> str:
    return f"prizepool:{tournament_id}"


def chipbank_account(tournament_id: object) -> str:
    """The tournament's chip bank: seats receive its chips and give them back (unit `t:<id>`)."""
    return f"chipbank:{tournament_id}"


def tournament_unit(tournament_id: object) -> str:
    """A tournament's own chips: not money, never mixed with cash chips (DESIGN §2.4)."""
    return f"t:{tournament_id}"


def account_kind(account: str) -> str:
    """'seat:abc:7' -> 'seat'."""
    return account.split(":", 1)[0]


@dataclass(frozen=True, slots=True)
class Transfer:
    """Move `amount` chips of `unit` from `source` to `target`, for `reason`."""

    source: str
    target: str
    amount: int
    reason: str
    unit: str = UNIT_CHIPS

    def __post_init__(self) -> None:
        if type(self.amount) is not int or not 0 < self.amount < MAX_AMOUNT:
            raise InvalidTransfer(f"amount must be a positive integer below {MAX_AMOUNT}: {self.amount!r}")
        if not self.source or not self.target or self.source == self.target:
            raise InvalidTransfer(f"bad accounts: {self.source!r} -> {self.target!r}")
        if not self.unit or not self.reason:
            raise InvalidTransfer("unit and reason are required")

    def to_json(self) -> dict[str, Any]:
        return {
            "from": self.source,
            "to": self.target,
            "amount": self.amount,
            "unit": self.unit,
            "reason": self.reason,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Transfer:
        return cls(
            source=data["from"],
            target=data["to"],
            amount=data["amount"],
            reason=data["reason"],
            unit=data.get("unit", UNIT_CHIPS),
        )


def transfers_of(data: Mapping[str, Any]) -> list[Transfer]:
    """The transfers an event's data carries (`data["transfers"]`), [] if none."""
    return [Transfer.from_json(item) for item in data.get("transfers", ())]
