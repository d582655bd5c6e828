"""Every audit operation documents its answer with an example and its errors as problems."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from django.core.management import call_command

AUDIT_OPERATIONS = {
    "tables_events_list",
    "audit_events_list",
    "tables_stream",
    "tables_deals_replay",
    "tables_deals_proof",
    "audit_verify",
    "audit_accounts_statement",
    "tables_deals_history",
    "tables_history",
}


@pytest.fixture(scope="module")
def audit_operations(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    path = tmp_path_factory.mktemp("schema") / "openapi.yaml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(path))
    schema = yaml.safe_load(Path(path).read_text())
    return {
        operation["operationId"]: operation
        for item in schema["paths"].values()
        for operation in item.values()
        if operation.get("operationId") in AUDIT_OPERATIONS
    }


def test_every_audit_operation_is_documented(audit_operations: dict[str, dict[str, Any]]) -> None:
    assert set(audit_operations) == AUDIT_OPERATIONS


@pytest.mark.parametrize("operation_id", sorted(AUDIT_OPERATIONS))
def test_success_has_an_example_and_errors_are_problems(
    audit_operations: dict[str, dict[str, Any]], operation_id: str
) -> None:
    responses = audit_operations[operation_id]["responses"]
    success = responses["200"]["content"]
    assert any("examples" in body or "example" in body for body in success.values()), operation_id
    errors = {status: body for status, body in responses.items() if status >= "400"}
    assert "401" in errors
    for body in errors.values():
        problem = body["content"]["application/problem+json"]
        assert problem["schema"]["$ref"].endswith("/Problem")
        assert problem["examples"]
