"""The OpenAPI schema validates with no warnings, documents Idempotency-Key on every POST, and the
docs pages are served from local static files only (they must work with no internet)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.core.management import call_command
from django.test import Client

# Exempt: exchanging a password for a token changes no club state and has no caller to key on.
NOT_IDEMPOTENCY_KEYED = {"/api/v1/auth/token"}


@pytest.fixture(scope="module")
def schema(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    path = tmp_path_factory.mktemp("schema") / "openapi.yaml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(path))
    return yaml.safe_load(Path(path).read_text())


def operations(schema: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (path, method, operation)
        for path, item in schema["paths"].items()
        for method, operation in item.items()
    ]


def test_schema_validates_without_warnings(schema: dict[str, Any]) -> None:
    assert schema["openapi"].startswith("3.")
    assert "/api/v1/players/{player_id}/deposits" in schema["paths"]


def test_every_post_documents_the_idempotency_key_header(schema: dict[str, Any]) -> None:
    posts = [
        (path, op)
        for path, method, op in operations(schema)
        if method == "post" and path not in NOT_IDEMPOTENCY_KEYED
    ]
    assert posts
    for path, operation in posts:
        headers = [p["name"] for p in operation.get("parameters", []) if p["in"] == "header"]
        assert "Idempotency-Key" in headers, path
        assert "422" in operation["responses"], path


LEDGER_OPERATION_IDS = {
    "auth_token_create",
    "me_retrieve",
    "players_list",
    "players_create",
    "players_retrieve",
    "players_deposits_create",
    "players_withdrawals_create",
    "players_balance_retrieve",
    "players_statement_list",
}


def test_ledger_operations_document_problems_and_examples(schema: dict[str, Any]) -> None:
    ledger_ops = [
        (path, op) for path, _, op in operations(schema) if op["operationId"] in LEDGER_OPERATION_IDS
    ]
    assert len(ledger_ops) == len(LEDGER_OPERATION_IDS)
    for path, operation in ledger_ops:
        errors = {status: body for status, body in operation["responses"].items() if status >= "400"}
        assert errors, path
        for body in errors.values():
            assert body["content"]["application/problem+json"]["schema"]["$ref"].endswith("/Problem")
        assert _has_example(operation), path


def _has_example(operation: dict[str, Any]) -> bool:
    bodies = [operation.get("requestBody", {}), *operation["responses"].values()]
    return any(media.get("examples") for body in bodies for media in body.get("content", {}).values())


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/api/docs/", "/api/redoc/"])
def test_docs_pages_use_only_local_static_files(url: str) -> None:
    client = Client()
    page = client.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    assert not re.search(r"""(src|href)=["']https?://""", html), "the page links to the internet"
    assets = re.findall(r"""(?:src|href)=["'](/static/[^"']+)["']""", html)
    assert assets
    for asset in assets:
        assert client.get(asset).status_code == 200, asset


@pytest.mark.django_db
def test_schema_endpoint_serves_the_document() -> None:
    response = Client().get("/api/schema/", headers={"Accept": "application/json"})
    assert response.status_code == 200
