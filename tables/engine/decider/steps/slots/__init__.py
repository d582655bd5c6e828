"""The step kinds' state slots: one module per kind, each imported only by its kind's module
(an import contract in pyproject.toml), so no other code reads or writes a kind's facts."""
