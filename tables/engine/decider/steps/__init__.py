"""The step kinds, one module each (DESIGN §2.2): the registry the interpreter and the variant
checker use. Every module of this package that defines a `KIND` is a kind; adding a kind is
adding its module (the helpers several kinds share, such as `base` and `passing`, define none)."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Mapping

from tables.engine.decider.steps.base import Ctx, Fold, Param, StepKind, check_step, resolve


def _discovered() -> dict[str, StepKind]:
    kinds: dict[str, StepKind] = {}
    for module in sorted(info.name for info in pkgutil.iter_modules(__path__) if not info.ispkg):
        kind = getattr(importlib.import_module(f"{__name__}.{module}"), "KIND", None)
        if isinstance(kind, StepKind):
            if kind.name in kinds:
                raise ValueError(f"two step kinds are named {kind.name!r}")
            kinds[kind.name] = kind
    return kinds


KINDS: Mapping[str, StepKind] = _discovered()

__all__ = ["KINDS", "Ctx", "Fold", "Param", "StepKind", "check_step", "resolve"]
