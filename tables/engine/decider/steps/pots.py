"""pots: the showdown of poker with side pots (IT-18, IT-30, D-IT-02..04, D-GEN-01).

After the last betting round: an uncalled bet goes back to its bettor; every player still in
shows (`ShowdownHeld`, the ``ranking`` with ``ties``, the table's tie preset, and the pack of the
deal: ``players``); each pot of `betting.side_pots` (the main pot: the pot's chips, the antes and
what everyone still in matched; a side pot for each larger stake an all-in player could not
match) goes to the best hand among its eligible contributors, shared equally with the odd chips
to those nearest the dealer's left (D-GEN-01; under the Italian ranking suits decide, so only
IT-30's straight-flush cycle shares). A lone player left in takes every pot without showing
(``uncontested``). Then the opener's qualifying cards are shown to every player of the deal
(D-IT-03, `OpenersShown`), even after an uncontested win. Money: each pot is paid from its own
account, the main pot from the pot account and side pot n from `sidepot:<table>:<n>` (the
betting rounds gathered their bets into them, `BetsGathered`), each transfer naming its pot
(``pot`` / ``side_pot_<n>``); the uncalled bet comes back from the bets account; every one of
these accounts is empty after. IT-11 (nobody opened): nothing here; the pot stays.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ledger.accounts import Transfer, bets_account, seat_account
from tables.engine import RANKINGS, evaluate, showdown
from tables.engine.decider import events as ev
from tables.engine.decider.money import split_evenly
from tables.engine.decider.state import DealState, TableState
from tables.engine.decider.steps import betting
from tables.engine.decider.steps.base import Ctx, StepKind, param
from tables.engine.hand_value import HandValue

NAME = "pots"


def run(ctx: Ctx[PotsParams]) -> list[ev.Event]:
    state, deal = ctx.state, ctx.deal
    if betting.passed(deal):
        return []  # IT-11: the pot stays
    live = betting.contenders(deal, "all")
    values = _values(deal, live, ctx.params) if len(live) > 1 else {}
    reason = "contested" if values else "uncontested"
    winners: list[str] = []
    pots: list[dict[str, Any]] = []
    for pot in betting.side_pots(state, deal):
        eligible = pot["eligible"]
        won = _best(eligible, values) if values else list(eligible)
        shares = split_evenly(pot["amount"], won)
        pots.append(
            {
                "pot": pot["pot"],
                "amount": pot["amount"],
                "contributors": pot["contributors"],
                "eligible": eligible,
                "winners": won,
                "shares": dict(zip(won, shares, strict=True)),
            }
        )
        winners += [p for p in won if p not in winners]
    hands = (
        [
            {
                "player": p,
                "cards": list(deal.hand_of(p)),
                "value": str(values[p]),
                "category": values[p].category,
            }
            for p in live
        ]
        if values
        else []
    )
    order = [p for p in deal.order if p in winners]
    events: list[ev.Event] = [
        ev.ShowdownHeld(
            deal_no=deal.deal_no,
            reason=reason,
            hands=hands,
            winners=order,
            losers=[p for p in live if p not in winners],
        )
    ]
    returned = betting.uncalled(deal)
    events.append(
        ev.PotsAwarded(
            deal_no=deal.deal_no,
            reason=reason,
            pots=pots,
            returned={"player": returned[0], "amount": returned[1]} if returned else None,
            transfers=_transfers(state, pots, returned),
        )
    )
    opener = betting.betting_of(deal)
    if opener.opener is not None:  # D-IT-03
        events.append(
            ev.OpenersShown(
                deal_no=deal.deal_no,
                player=opener.opener,
                openers=list(opener.openers),
                split=bool(set(betting.kept_apart(deal)) & set(opener.openers)),
            )
        )
    return events


def _values(deal: DealState, live: tuple[str, ...], params: PotsParams) -> dict[str, HandValue]:
    """IT-18..40: each hand still in under the ranking, the tie preset and the deal's pack."""
    ranking = params.ranking
    options: dict[str, Any] = {}
    if "players" in RANKINGS[ranking].options:
        options["players"] = len(deal.order)  # D-IT-01: the pack of this deal
    if "tie_rule" in RANKINGS[ranking].options:
        options["tie_rule"] = params.ties  # IT-38..40, D-IT-04
    return {p: evaluate(list(deal.hand_of(p)), ranking, **options) for p in live}


def _best(eligible: list[str], values: Mapping[str, HandValue]) -> list[str]:
    """The pot's winners among its eligible players (a cycle of straight flushes shares, IT-30)."""
    result = showdown([values[p] for p in eligible])
    return [eligible[i] for i in sorted(result.winners)]


def _transfers(
    state: TableState, pots: list[dict[str, Any]], returned: tuple[str, int] | None
) -> list[Transfer]:
    """The uncalled bet first, back from the bets account; then every share of each pot from that
    pot's own account (D-IT-02: the main pot is the pot account, a side pot its own)."""
    table = state.table_id
    moves: list[Transfer] = []
    if returned is not None:
        moves.append(
            Transfer(bets_account(table), seat_account(table, returned[0]), returned[1], "uncalled_bet")
        )
    for pot in pots:
        reason = "pot" if pot["pot"] == 0 else f"side_pot_{pot['pot']}"
        source = betting.pot_account_of(table, pot["pot"])
        moves += [
            Transfer(source, seat_account(table, player), share, reason)
            for player, share in pot["shares"].items()
            if share > 0
        ]
    return moves


def fold_awarded(state: TableState, e: ev.PotsAwarded) -> TableState:
    return state.with_deal(outcome=e.reason)


def ends_deal(ctx: Ctx[PotsParams]) -> bool:
    return True


@dataclass(frozen=True, slots=True)
class PotsParams:
    """The pots step's parameters."""

    ranking: str = param("italian", choices=tuple(RANKINGS))
    ties: str = param("default", choices=("default", "fantini"))


KIND = StepKind(
    name=NAME,
    params=PotsParams,  # D-IT-04
    run=run,
    folds={ev.PotsAwarded: fold_awarded},
    ends_deal=ends_deal,
)
