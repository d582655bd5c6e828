"""Chip arithmetic shared by every settlement rule: shares, costs, the book of transfers. Pure, integer chips.

`split_evenly` places odd chips per D-GEN-01; `loser_cost` is the most a losing "in" player pays
(the pot, capped by max_loss and, under CAP_PAY_LIMIT_ONLY, the pot limit) and the table-stakes
threshold for declaring "in" (D-GEN-06); `rebalance_reserve` implements RES-01..03 with D-RES-01.
Terms a variant does not offer as options take the defaults of `TERMS` (no cap, no reserve).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from ledger.accounts import Transfer, pot_account, reserve_account, seat_account
from tables.engine.decider.outcomes import OUTCOMES
from tables.engine.decider.state import is_in

# The money terms settlement reads, with their values where a variant has no such option.
TERMS: Mapping[str, Any] = MappingProxyType(
    {
        "ante": 1,
        "pot_limit": 0,
        "max_loss": 0,
        "cap_rule": "reserve",
        "stack_policy": "default",
        "ties": "split",
        "replenish_cap": 0,
    }
)


def terms_of(opts: Mapping[str, Any]) -> dict[str, Any]:
    """The table's money terms: its options, defaults for what the variant does not offer."""
    return {name: opts.get(name, default) for name, default in TERMS.items()}


def split_evenly(amount: int, parties: Sequence[str]) -> list[int]:
    """Shares of `amount` for `parties` (ordered from the dealer's left): floor each, and one
    more chip each to the first `amount % n` parties (D-GEN-01). No chip is dropped."""
    n = len(parties)
    base, odd = divmod(amount, n)
    return [base + (1 if i < odd else 0) for i in range(n)]


def loser_cost(pot: int, terms: Mapping[str, Any]) -> int:
    """What a losing "in" player pays: the whole pot (G2-13), capped by max_loss (CAP-02, 422-07),
    by replenish_cap antes (MC-13, D-CAP) and, under cap_rule pay_limit_only, by pot_limit (CAP-01).
    Where losers share one amount (MC-12, SV-03) this is the amount shared."""
    cost = pot
    if terms["max_loss"]:
        cost = min(cost, terms["max_loss"])
    if terms["replenish_cap"]:
        cost = min(cost, terms["replenish_cap"] * terms["ante"])
    if terms["cap_rule"] == "pay_limit_only" and terms["pot_limit"]:
        cost = min(cost, terms["pot_limit"])
    return cost


def affordable(amount: int, stack: int, terms: Mapping[str, Any]) -> int:
    """What a payer actually pays: all of it under allow_debt, else never more than the stack.
    (Under the default policy the declare check guarantees "in" players can pay in full; this caps
    the all-out payments, and implements pay_what_you_have, D-GEN-06.)"""
    if terms["stack_policy"] == "allow_debt":
        return amount
    return max(0, min(amount, stack))


@dataclass(frozen=True, slots=True)
class Settlement:
    outcome: str
    winners: tuple[str, ...]
    matchers: tuple[str, ...]
    transfers: tuple[Transfer, ...]
    pot: int
    reserve: int
    ante_exempt: tuple[str, ...] = ()  # skip the next deal's ante (SL-04, D-MC-01, D-AO-02)


@dataclass(frozen=True, slots=True)
class Round:
    """What a settlement rule knows: the deal's participants (from the dealer's left), the last
    declare's choices, the showdown's best hand(s), the balances and the money terms."""

    table: str
    order: tuple[str, ...]
    choices: tuple[str | None, ...]
    winners: tuple[str, ...]
    pot: int
    reserve: int
    stacks: Mapping[str, int]
    terms: Mapping[str, Any]
    all_out: str = "carry"  # the all-out rule (AO-*, 42X-02)
    hands: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # every hand held
    antes_every_deal: bool = False  # the program antes every deal (SL-03, D-AO-02)
    worst: tuple[str, ...] = ()  # the worst shown hand(s), if the showdown named them
    ghost_played: bool = False  # the ghost hand was in the showdown (GH-04, GH-08)
    escalated: Mapping[str, int] = field(default_factory=dict)  # the multiple of the pot each owes
    # if he loses (StepKind.owes: T38-04, WL-10..12)
    folded: tuple[str, ...] = ()  # "in" players who folded (T38-04, D-BET): not shown
    sides: tuple[tuple[str, ...], ...] = ()  # 43-05: (High winners, Low winners)

    def in_players(self) -> list[str]:
        return [p for p, c in zip(self.order, self.choices, strict=True) if is_in(c)]

    def ordered(self, players: Sequence[str]) -> list[str]:
        return [p for p in self.order if p in players]


@dataclass
class Book:
    """Collects one settlement's transfers and tracks the pot."""

    table: str
    pot: int
    transfers: list[Transfer] = field(default_factory=list)

    def to_seat(self, player: str, amount: int, reason: str) -> None:
        if amount > 0:
            self.transfers.append(
                Transfer(pot_account(self.table), seat_account(self.table, player), amount, reason)
            )
            self.pot -= amount

    def to_pot(self, player: str, amount: int, reason: str) -> None:
        if amount > 0:
            self.transfers.append(
                Transfer(seat_account(self.table, player), pot_account(self.table), amount, reason)
            )
            self.pot += amount

    def seat_to_seat(self, payer: str, payee: str, amount: int, reason: str) -> None:
        if amount > 0:
            self.transfers.append(
                Transfer(seat_account(self.table, payer), seat_account(self.table, payee), amount, reason)
            )

    def close(
        self,
        outcome: str,
        winners: Sequence[str],
        matchers: Sequence[str],
        reserve: int,
        terms: Mapping[str, Any],
        ante_exempt: Sequence[str] = (),
    ) -> Settlement:
        """The settlement, with the reserve rebalanced after it (D-RES-01); `ante_exempt` skip the
        next deal's ante."""
        assert outcome in OUTCOMES, outcome  # the API enumerates them
        moves = rebalance_reserve(self.table, self.pot, reserve, terms)
        pot = self.pot
        for move in moves:
            delta = move.amount if move.target == pot_account(self.table) else -move.amount
            pot, reserve = pot + delta, reserve - delta
        return Settlement(
            outcome,
            tuple(winners),
            tuple(matchers),
            (*self.transfers, *moves),
            pot,
            reserve,
            tuple(ante_exempt),
        )


def rebalance_reserve(table: str, pot: int, reserve: int, terms: Mapping[str, Any]) -> list[Transfer]:
    """RES-01..03, D-RES-01/02: pool pot and reserve; the pot gets up to the pot limit, the rest is
    the reserve. Without a pot limit, or under pay_limit_only, there is no reserve."""
    limit = terms["pot_limit"]
    if not limit or terms["cap_rule"] != "reserve":
        return []
    target = min(pot + reserve, limit)
    if target > pot:
        return [Transfer(reserve_account(table), pot_account(table), target - pot, "reserve_refill")]
    if target < pot:
        return [Transfer(pot_account(table), reserve_account(table), pot - target, "reserve_excess")]
    return []
