"""Money as transfers between named accounts (DESIGN §2.4): the Django side.

The pure parts (account names, units, the Transfer value) live in `ledger.accounts` so the rules
engine can use them without Django; they are re-exported here so callers import one module.
Money events carry `data["transfers"] = [Transfer.to_json(), ...]`; the balance projector
(`ledger.projections.BalanceProjector`) turns them into AccountBalance and AccountEntry rows.

Debt policy: which accounts may go below zero. A transfer that would take any other account
below zero raises InsufficientFunds inside append, and the whole append rolls back.

    account kind                    may go negative   why
    cashier                         yes               the outside world: minus what the club holds
    chipbank                        yes               a tournament's issuer: minus its chips in play
    player, seat, pot, reserve,     no                chips someone holds
    prizepool, house
    <kind> with a debt policy       if the policy     e.g. seats at a table with allow_debt
                                    says so           (D-GEN-06), registered by the tables app

Conservation: each transfer moves chips between two accounts in one unit, so per unit the sum of
all balances is zero after every event.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable

from django.db.models import Sum

from ledger.accounts import (
    CASHIER,
    HOUSE,
    MAX_AMOUNT,
    MAY_GO_NEGATIVE,
    UNIT_CHIPS,
    InvalidTransfer,
    Transfer,
    account_kind,
    player_account,
    pot_account,
    prizepool_account,
    reserve_account,
    seat_account,
    transfers_of,
)
from ledger.models import AccountBalance

__all__ = [
    "CASHIER",
    "HOUSE",
    "MAX_AMOUNT",
    "MAY_GO_NEGATIVE",
    "UNIT_CHIPS",
    "InsufficientFunds",
    "InvalidTransfer",
    "Transfer",
    "account_kind",
    "balance",
    "balances",
    "check_conservation",
    "may_go_negative",
    "player_account",
    "pot_account",
    "prizepool_account",
    "register_debt_policy",
    "reserve_account",
    "seat_account",
    "transfers_of",
]

DebtPolicy = Callable[[str], bool]
_debt_policies: dict[str, DebtPolicy] = {}


class InsufficientFunds(Exception):
    """A transfer would take an account that may not go negative below zero."""

    code = "insufficient_funds"

    def __init__(self, account: str, unit: str, balance: int, amount: int) -> None:
        super().__init__(f"{account} holds {balance} {unit}, cannot pay {amount}")
        self.account = account
        self.unit = unit
        self.balance = balance
        self.amount = amount


def register_debt_policy(kind: str, policy: DebtPolicy) -> None:
    """Let accounts of `kind` go negative when `policy(account)` is true (e.g. allow_debt seats)."""
    _debt_policies[kind] = policy


def unregister_debt_policy(kind: str) -> None:
    _debt_policies.pop(kind, None)


def may_go_negative(account: str) -> bool:
    kind = account_kind(account)
    if kind in MAY_GO_NEGATIVE:
        return True
    policy = _debt_policies.get(kind)
    return policy is not None and policy(account)


def balance(account: str, unit: str = UNIT_CHIPS) -> int:
    """The account's balance in `unit`, from the AccountBalance projection (0 if never touched)."""
    row = AccountBalance.objects.filter(account=account, unit=unit).values_list("balance", flat=True).first()
    return row or 0


def balances(unit: str = UNIT_CHIPS) -> dict[str, int]:
    """Every account's balance in `unit` (from the projection)."""
    return dict(AccountBalance.objects.filter(unit=unit).values_list("account", "balance"))


def check_conservation() -> list[str]:
    """Problems with the balance projection, human-readable; [] when all is well.

    Per unit, balances must sum to zero; no account outside the debt policy may be negative.
    """
    problems = []
    for row in AccountBalance.objects.values("unit").annotate(total=Sum("balance")).order_by("unit"):
        if row["total"] != 0:
            problems.append(f"unit {row['unit']}: balances sum to {row['total']}, not 0")
    negative: defaultdict[str, list[str]] = defaultdict(list)
    for account, unit, amount in (
        AccountBalance.objects.filter(balance__lt=0)
        .values_list("account", "unit", "balance")
        .order_by("unit", "account")
    ):
        if not may_go_negative(account):
            negative[unit].append(f"{account} is {amount}")
    problems += [f"unit {unit}: may not be negative: {', '.join(items)}" for unit, items in negative.items()]
    return problems
