"""Game-end rules (D-GEN-08), named data: `Variant.game_ends` names one, checked at every deal's
end. A game that ends emits GameEnded; the next deal starts a new game (new antes, legs reset)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from tables.engine.decider.state import DealState, TableState


def pot_empty(state: TableState, deal: DealState) -> bool:
    """G2-15, Q-G2-04: the pot and the reserve are empty."""
    return state.pot == 0 and state.reserve == 0


def legs_reached(state: TableState, deal: DealState) -> bool:
    """357-25: someone's legs took the pot."""
    return deal.outcome == "pot_awarded"


def lone_in_wins(state: TableState, deal: DealState) -> bool:
    """422-08, 42X-03: a lone "in" player took the pot (or the pot emptied otherwise)."""
    return deal.outcome in ("uncontested", "beat_the_deck") or pot_empty(state, deal)


def round_over(state: TableState, deal: DealState) -> bool:
    """MC-05, Q-MC-02: a Monte Carlo round ends when the pot is taken with nobody obliged to
    replenish it: every "in" player won it (an uncontested win, a lone "in" beating the deck,
    MCA-02, or the open hand, MCA-05, or an all-tie deal), or the pot is empty."""
    in_players = deal.in_players()
    return (bool(in_players) and set(in_players) <= set(deal.winners)) or pot_empty(state, deal)


GAME_END_RULES: Mapping[str, Callable[[TableState, DealState], bool]] = {
    "pot_empty": pot_empty,
    "legs_reached": legs_reached,
    "lone_in_wins": lone_in_wins,
    "round_over": round_over,
}
