"""docs/api.md keeps the one error-code table in step with tables.service.PROBLEM_STATUS."""
from __future__ import annotations

import re
from pathlib import Path

from tables.engine.decider.errors import CODES
from tables.service import PROBLEM_STATUS

DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def test_the_error_table_matches_the_service() -> None:
    rows = re.findall(r"^\| (\d{3}) \| `(\w+)` \|", DOC.read_text(), flags=re.MULTILINE)
    assert {code: int(status) for status, code in rows} == {
        code: status for code, (status, _) in PROBLEM_STATUS.items()}


def test_every_engine_error_code_has_a_status() -> None:
    assert not CODES - set(PROBLEM_STATUS), CODES - set(PROBLEM_STATUS)
