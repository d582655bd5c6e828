"""The closed sets of words the table view, the events and the histories use, named once.

The API's schema enumerates each of them (tables.api.serializers), so a generated client gets an
enum instead of a string. The outcomes live in `outcomes` (the settlement asserts against them
and imports no step), re-exported here.
"""

from __future__ import annotations

from collections.abc import Iterable

from tables.engine.decider.outcomes import OUTCOMES
from tables.engine.decider.steps import KINDS, StepKind
from tables.engine.decider.steps.betting import ACTIONS as BET_ACTIONS
from tables.engine.decider.steps.escalation import FOLD
from tables.engine.decider.steps.offer import LEAVE, TAKE
from tables.engine.decider.steps.trump import CHOICES as TRUMPS

__all__ = ["OUTCOMES"]

TABLE_STATUSES = ("new", "open", "broken", "closed")  # broken: a tournament table being broken up

# A player's `declared` in the view: his choice, or "sealed" while others' choices are hidden.
DECLARE_CHOICES = ("in", "out", "high", "low", "both")  # 43-03: high | low | both
DECLARED = (*DECLARE_CHOICES, "sealed")
DECLARE_MODES = ("sequential", "simultaneous")
ESCALATION_LEVELS = ("single", "double", "triple")  # T38-03
ESCALATION_CHOICES = (*ESCALATION_LEVELS, FOLD)
BET_CHOICES = BET_ACTIONS  # D-BET, IT-07
BET_LIMITS = ("fixed", "pot")  # D-IT-02
OFFER_CHOICES = (TAKE, LEAVE)  # BF-02
TRUMP_CHOICES = TRUMPS  # WL-06

# A table's phase: its status when not open, else between deals, dealing, the pass of AO-06 or
# EXC-03, or the kind of the live deal's current step.
PHASES = ("new", "broken", "closed", "between_deals", "dealing", "pass", *KINDS)

# The legal actions a table view may offer (tables.engine.decider.view.legal_actions): the
# table's own, then every action a step kind names (`StepKind.actions`), so a new kind's action
# joins the set from the kind's module.
TABLE_ACTIONS = ("sit_down", "top_up", "leave", "start_deal", "sit_out", "sit_in")


def actions_of(kinds: Iterable[StepKind]) -> tuple[str, ...]:
    """The table's own actions and the kinds' actions, each once, in the kinds' order."""
    return tuple(dict.fromkeys((*TABLE_ACTIONS, *(name for kind in kinds for name in kind.actions))))


ACTIONS = actions_of(KINDS.values())
