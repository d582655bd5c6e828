"""The variant catalogue's public name (`tables.engine.variants`): the definitions live beside
the interpreter that runs them, in `tables.engine.decider.variants`."""

from tables.engine.decider.variants import (
    GUTS2,
    GUTS3,
    PACK_SIZE,
    STEP_KINDS,
    VARIANTS,
    Option,
    Stage,
    Step,
    Variant,
    get_variant,
    step,
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
    "get_variant",
    "step",
    "validate_options",
    "variant_catalog",
]
