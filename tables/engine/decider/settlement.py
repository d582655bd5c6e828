"""Settlement arithmetic: who pays whom after a showdown, as transfers. Pure, integer chips.

- `split_evenly` places odd chips per D-GEN-01 (recipients or payers nearest the dealer's left).
- `loser_cost` is the most a losing "in" player pays (the pot, capped by CAP options); it is also
  the table-stakes threshold for declaring "in" (D-GEN-06).
- `settle_match_pot_each` implements G2-11..G2-15, NSP-01..02, AO-01..05 (D-AO), CAP and
  `rebalance_reserve` implements RES-01..03 with D-RES-01 (pool the pot and reserve after every
  settlement; the pot gets up to the limit). EX-02 is its test vector.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ledger.accounts import Transfer, pot_account, reserve_account, seat_account


def split_evenly(amount: int, parties: Sequence[str]) -> list[int]:
    """Shares of `amount` for `parties` (ordered from the dealer's left): floor each, and one
    more chip each to the first `amount % n` parties (D-GEN-01). No chip is dropped."""
    n = len(parties)
    base, odd = divmod(amount, n)
    return [base + (1 if i < odd else 0) for i in range(n)]


def loser_cost(pot: int, opts: Mapping[str, Any]) -> int:
    """What a losing "in" player pays: the whole pot (G2-13), capped by max_loss (CAP-02) and, under
    cap_rule pay_limit_only, by pot_limit (CAP-01)."""
    cost = pot
    if opts["max_loss"]:
        cost = min(cost, opts["max_loss"])
    if opts["cap_rule"] == "pay_limit_only" and opts["pot_limit"]:
        cost = min(cost, opts["pot_limit"])
    return cost


def affordable(amount: int, stack: int, opts: Mapping[str, Any]) -> int:
    """What a payer actually pays: all of it under allow_debt, else never more than the stack.
    (Under the default policy the declare check guarantees "in" players can pay in full; this caps
    the all-out payments, and implements pay_what_you_have, D-GEN-06.)"""
    if opts["stack_policy"] == "allow_debt":
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


class _Book:
    """Collects transfers and tracks the pot (only the pot and seats move inside a settlement)."""

    def __init__(self, table: str, pot: int) -> None:
        self.table = table
        self.pot = pot
        self.transfers: list[Transfer] = []

    def to_seat(self, player: str, amount: int, reason: str) -> None:
        if amount > 0:
            self.transfers.append(Transfer(pot_account(self.table), seat_account(self.table, player),
                                           amount, reason))
            self.pot -= amount

    def to_pot(self, player: str, amount: int, reason: str) -> None:
        if amount > 0:
            self.transfers.append(Transfer(seat_account(self.table, player), pot_account(self.table),
                                           amount, reason))
            self.pot += amount


def rebalance_reserve(table: str, pot: int, reserve: int, opts: Mapping[str, Any]) -> list[Transfer]:
    """RES-01..03, D-RES-01/02: pool pot and reserve; the pot gets up to the pot limit, the rest is
    the reserve. Without a pot limit, or under pay_limit_only, there is no reserve."""
    limit = opts["pot_limit"]
    if not limit or opts["cap_rule"] != "reserve":
        return []
    target = min(pot + reserve, limit)
    if target > pot:
        return [Transfer(reserve_account(table), pot_account(table), target - pot, "reserve_refill")]
    if target < pot:
        return [Transfer(pot_account(table), reserve_account(table), pot - target, "reserve_excess")]
    return []


def settle_match_pot_each(*, table: str, order: Sequence[str], choices: Sequence[str | None],
                          winners: Sequence[str], pot: int, reserve: int,
                          stacks: Mapping[str, int], opts: Mapping[str, Any]) -> Settlement:
    """Settle one deal under "each loser matches the pot" (G2-11..15). `order` is the participants
    from the dealer's left; `winners` the best hand(s) of the showdown (or, all out, of all hands)."""
    book = _Book(table, pot)
    in_players = [p for p, c in zip(order, choices, strict=True) if c == "in"]
    ordered_winners = [p for p in order if p in winners]
    matchers: list[str] = []
    if not in_players:
        outcome = _settle_all_out(book, order, ordered_winners, stacks, opts)
        matchers = ordered_winners if outcome in ("wimp_all", "wimp_others", "best_matches") else []
    elif len(in_players) == 1:
        outcome = "uncontested"                                   # G2-11
        book.to_seat(in_players[0], pot, "pot_won")
    else:
        losers = [p for p in in_players if p not in winners]
        cost = loser_cost(pot, opts)
        if len(ordered_winners) > 1 and opts["ties"] == "no_split":
            outcome = "no_split"                                  # NSP-01, NSP-02: the pot stays
        else:
            for player, share in zip(ordered_winners, split_evenly(pot, ordered_winners), strict=True):
                book.to_seat(player, share, "pot_won")           # G2-14 TIE_SPLIT, D-GEN-01
            outcome = "won" if len(ordered_winners) == 1 else ("all_tied" if not losers else "split")
        for player in losers:                                     # G2-13, D-G2-03
            book.to_pot(player, affordable(cost, stacks[player], opts), "pot_matched")
        matchers = losers
    moves = rebalance_reserve(table, book.pot, reserve, opts)
    new_pot, new_reserve = book.pot, reserve
    for move in moves:
        delta = move.amount if move.target == pot_account(table) else -move.amount
        new_pot, new_reserve = new_pot + delta, new_reserve - delta
    return Settlement(outcome, tuple(ordered_winners), tuple(matchers),
                      (*book.transfers, *moves), new_pot, new_reserve)


def _settle_all_out(book: _Book, order: Sequence[str], best: Sequence[str],
                    stacks: Mapping[str, int], opts: Mapping[str, Any]) -> str:
    """D-AO: every player is out. `best` are the best hand(s) when the option shows hands."""
    rule = opts["all_out"]
    ante = opts["ante"]
    if rule == "extra_ante":                                      # AO-02
        for player in order:
            if opts["stack_policy"] == "allow_debt" or stacks[player] >= ante:
                book.to_pot(player, ante, "extra_ante")
    elif rule in ("wimp_all", "wimp_others", "best_matches"):     # AO-03, AO-04, AO-05
        if rule == "best_matches":
            amount = loser_cost(book.pot, opts)
        else:
            amount = ante * (len(order) if rule == "wimp_all" else len(order) - 1)
        for player, share in zip(best, split_evenly(amount, best), strict=True):
            book.to_pot(player, affordable(share, stacks[player], opts), rule)
    # AO-01; extra_card settles only when the pack cannot serve another round: the pot carries
    return rule if rule not in ("carry", "extra_card") else "all_out_carry"
