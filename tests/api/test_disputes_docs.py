"""docs/api.md keeps its table of the dispute and checkpoint codes in step with the one code ->
status map (http_edge.api.errors.PROBLEM_STATUS)."""

from __future__ import annotations

import re
from pathlib import Path

from http_edge.api.errors import PROBLEM_STATUS
from ledger import errors

DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"
DISPUTE_ERRORS = (
    errors.UnknownDispute,
    errors.UnknownDisputeSubject,
    errors.NotAParty,
    errors.DisputeExists,
    errors.DisputeWindowClosed,
    errors.DisputeClosed,
    errors.HoldExists,
    errors.HoldExceedsBalance,
    errors.FundsHeld,
    errors.PartyCannotDecide,
    errors.InvalidCorrection,
    errors.UnknownCheckpoint,
)


def test_the_dispute_table_matches_the_map() -> None:
    section = DOC.read_text().split("## Disputes and verifiable statements", 1)[1]
    rows = {
        code: int(status)
        for code, status in re.findall(r"^\| `(\w+)` \| .* \| (\d{3}) \|$", section, flags=re.MULTILINE)
    }
    assert rows == {code: PROBLEM_STATUS[code][0] for code in rows}
    assert set(rows) == {error.code for error in DISPUTE_ERRORS} - {"deal_not_finished"}
