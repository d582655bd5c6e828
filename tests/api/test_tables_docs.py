"""docs/api.md keeps its table of the tables' error codes in step with the one code -> status map
(http_edge.api.errors.PROBLEM_STATUS)."""

from __future__ import annotations

import re
from pathlib import Path

from http_edge.api.errors import PROBLEM_STATUS
from tables.engine.decider.errors import CODES

DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"
SERVICE_CODES = {"unknown_table", "stale_version", "concurrency_conflict", "insufficient_funds"}


def test_the_error_table_matches_the_map() -> None:
    rows = {
        code: int(status)
        for status, code in re.findall(r"^\| (\d{3}) \| `(\w+)` \|", DOC.read_text(), flags=re.MULTILINE)
    }
    assert rows == {code: PROBLEM_STATUS.get(code, (None, ""))[0] for code in rows}
    assert set(rows) == CODES | SERVICE_CODES


def test_every_engine_error_code_has_a_status() -> None:
    assert not CODES - set(PROBLEM_STATUS), CODES - set(PROBLEM_STATUS)
