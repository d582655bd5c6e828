"""What being "in" can cost (D-GEN-06): the table's stack policy deals a player in, and lets him
declare "in", only if his stack can pay the worst the deal can still ask of him. The steps of the
program say their part (`StepKind.pot_multiple`, `owed_when_in`); nothing here names a kind."""

from __future__ import annotations

from tables.engine.decider.money import loser_cost, terms_of
from tables.engine.decider.state import TableState


def in_cost(state: TableState) -> int:
    """The most declaring "in" can cost in this deal: matching the pot (as capped; at the highest
    multiple a step of the program can raise it to, T38-03), and the chips the "in" players owe
    before the next declare (TPO-04)."""
    return loser_cost(most_pot_multiple(state) * state.pot, terms_of(state.opts)) + owed_by_in_players(state)


def most_pot_multiple(state: TableState) -> int:
    """The highest multiple of the pot a step of this program can make a loss (1 at least)."""
    opts = state.opts
    return max(
        (
            step.definition.pot_multiple(step.resolved(opts))
            for step in state.rules.program
            if step.enabled(opts)
        ),
        default=1,
    )


def owed_by_in_players(state: TableState) -> int:
    """The chips a player declaring "in" now owes at the steps before the next declare."""
    deal, opts = state.live, state.opts
    if deal is None or deal.stage < 1:
        return 0
    owed = 0
    for number, stage in enumerate(state.rules.stages[deal.stage - 1 :], start=deal.stage):
        for index, step in enumerate(stage.steps):
            if (number == deal.stage and index <= deal.step) or not step.enabled(opts):
                continue
            if step.definition.declares:
                return owed
            owed += step.definition.owed_when_in(step.resolved(opts), opts)
    return owed
