"""Cancelling a running tournament: stop new deals, wait for each table's deal, break the tables,
settle the prize pool (docs/tournaments.md, "Cancelling a running tournament").

1. `TournamentCancelRequested`: no deal starts any more (every schedule is dropped, and
   `due_deals` schedules nothing but in a running tournament); live deals play on.
2. Each reconcile processes the deals that ended (checkpoints and eliminations, as ever) and breaks
   every table that is between deals (`TournamentTableBroken`: the table's `BreakTable` shares its
   pot and reserve among its seated players, D-GEN-07, odd chips by D-GEN-01).
3. Once every table is broken and between deals, `TournamentCancelled` settles, by the rule recorded
   at creation (`cancel_settlement`):
   - "refund", or "chip_chop" while nobody has been eliminated: every buy-in back;
   - "chip_chop" after an elimination: the eliminated keep the prizes of their places (as at
     completion), and the rest of the prize pool is shared among the players still in, in
     proportion to their chips (a late registrant not yet seated counts his starting chips); each
     share is the floor, the odd chips go one each from the dealer's left of each table, table by
     table (D-GEN-01). Every chip of the pool is paid.
   The fees go back too unless the club keeps them (`cancel_fees`, from GUTS_TOURNAMENT_CANCEL_FEES
   at creation). The service finishes every table (`FinishTable`: all tournament chips back to the
   chip bank).
If the last deals leave one player, the tournament completes as usual instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ledger.accounts import HOUSE, UNIT_CHIPS, Transfer, player_account, prizepool_account
from tournaments.engine import commands as cmd
from tournaments.engine import events as ev
from tournaments.engine.places import prizes
from tournaments.engine.state import TournamentState


def proportional(total: int, weights: Sequence[tuple[str, int]]) -> dict[str, int]:
    """`total` shared in proportion to the weights: floors, then one odd chip each in the given
    order (D-GEN-01: the order is from the dealer's left). Sums to `total` exactly."""
    whole = sum(weight for _, weight in weights)
    if whole <= 0:
        return {}
    shares = {player: total * weight // whole for player, weight in weights}
    odd = total - sum(shares.values())  # fewer than len(weights)
    for player, _ in weights[:odd]:
        shares[player] += 1
    return shares


def still_in(state: TournamentState, by_id: dict[str, cmd.TableSeen]) -> list[tuple[str, int]]:
    """(player, chips) of everyone still in: each table from its dealer's left, clockwise (table
    order as opened), then late registrants not yet seated, with their starting chips."""
    out: list[tuple[str, int]] = []
    for table_id in state.tables:
        seen = by_id.get(table_id)
        if seen is None:
            continue
        members = set(state.members(table_id))
        left_first = [*seen.movers[1:], *seen.movers[:1]]  # movers: the last dealer first
        ordered = [p for p in left_first if p in members]
        ordered += sorted(p for p in members if p not in ordered)
        out += [(p, seen.stacks.get(p, 0)) for p in ordered]
    out += [(p, state.rules.starting_chips) for p in state.pending]
    return out


def settle(state: TournamentState, by_id: dict[str, cmd.TableSeen]) -> ev.TournamentCancelled:
    """The cancellation's settlement, every chip of the prize pool paid (and the fees, per rule)."""
    rules, pool = state.rules, prizepool_account(state.tournament_id)
    results: list[dict[str, Any]] = []
    if rules.cancel_settlement == "refund" or not state.placings:
        settlement = "refund"
        paid = [(p, rules.buy_in, "tournament_buy_in_refund") for p in state.entrants]
    else:
        settlement = "chip_chop"
        results, paid = chip_chop(state, by_id)
    transfers = [
        Transfer(pool, player_account(p), amount, reason, UNIT_CHIPS)
        for p, amount, reason in paid
        if amount > 0
    ]
    if rules.cancel_fees == "refund" and rules.fee > 0:
        transfers += [
            Transfer(HOUSE, player_account(p), rules.fee, "tournament_fee_refund", UNIT_CHIPS)
            for p in state.entrants
        ]
    return ev.TournamentCancelled(state.cancel_reason or "admin", transfers, settlement, results)


def chip_chop(
    state: TournamentState, by_id: dict[str, cmd.TableSeen]
) -> tuple[list[dict[str, Any]], list[tuple[str, int, str]]]:
    """The eliminated paid for their places; the rest of the pool chopped by chips among the rest."""
    groups = [[p for p in state.placings if p.player in group] for group in state.groups]
    won = prizes(state.pool(), state.rules.payouts, groups)
    survivors = still_in(state, by_id)
    shares = proportional(state.pool() - sum(won.values()), survivors)
    results: list[dict[str, Any]] = [
        {"player": p, "place": 1, "last": len(survivors), "chips": chips, "prize": shares.get(p, 0)}
        for p, chips in survivors
    ]
    results += [
        {"player": p.player, "place": p.place, "last": p.last, "prize": won.get(p.player, 0)}
        for group in sorted(groups, key=lambda g: g[0].place)
        for p in group
    ]
    paid = [(p, shares.get(p, 0), "tournament_chop") for p, _ in survivors]
    paid += [(r["player"], r["prize"], "tournament_prize") for r in results[len(survivors) :]]
    return results, paid
