"""Variants as data (DESIGN §2.2): what a game is, written as a value the decider interprets.

A `Variant` is a program of stages, each a tuple of steps; a step is a kind from the registry
`tables.engine.decider.steps.KINDS` with parameters. Each kind checks its parameters when the
variant is built, so a bad program fails at import, not at deal 400. A parameter written
``"$name"`` takes the table option ``name`` (``{"mode": "$declare_mode"}``), so one program serves
every option setting; a step with ``when="option"`` runs only when that boolean option is on
(TPO-04's extra ante). `game_ends` names the rule that ends a game (`decider.game_end`).

D-GEN-02: `capacity(options)` is how many players one pack serves (cards per player, the board,
the deck cards of 42X-03, the ghost hand); the ``seats`` option may not exceed it.

One module per game family (`guts`, `monte_carlo`, `escalation`, `betting`, `italian`,
`paired_wilds`, `coin_declare`), the shape in `model`, shared options in `options`, and the one
registration of them all in `registry`. Public interface (all JSON-friendly):

- `get_variant(name) -> Variant` (DomainError ``unknown_variant``)
- `validate_options(variant_name, options) -> dict` fills defaults, checks types, ranges and
  cross-field constraints; raises DomainError ``invalid_option`` (``.detail["option"]`` names it)
- `variant_catalog() -> list[dict]`: every variant with its stages, options, defaults and a JSON
  schema of its options (for ``GET /variants``)

Adding a game: see docs/variants.md (Three-Five-Seven is the worked example).
"""

from tables.engine.decider.variants.guts import GUTS2, GUTS3
from tables.engine.decider.variants.model import PACK_SIZE, STEP_KINDS, Option, Stage, Step, Variant, step
from tables.engine.decider.variants.registry import (
    VARIANTS,
    check_exchange_conflicts,
    get_variant,
    validate_options,
    variant_catalog,
)

__all__ = [
    "GUTS2",
    "GUTS3",
    "PACK_SIZE",
    "STEP_KINDS",
    "VARIANTS",
    "Option",
    "Stage",
    "Step",
    "Variant",
    "check_exchange_conflicts",
    "get_variant",
    "step",
    "validate_options",
    "variant_catalog",
]
