"""`Authorization: Bearer <token>` works as well as `Token <token>`, the OpenAPI document says so, and
a request a token cannot be read from is told how to authenticate (docs/api.md, Authentication)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import AbstractUser
from rest_framework.test import APIClient

from http_edge.api.errors import PROBLEM_CONTENT_TYPE
from http_edge.tokens import token_issue

pytestmark = pytest.mark.django_db


def me(authorization: str | None) -> Any:
    headers = {"Authorization": authorization} if authorization is not None else {}
    return APIClient(headers=headers).get("/api/v1/me")


@pytest.mark.parametrize("scheme", ["Bearer", "Token", "bearer", "TOKEN"])
def test_either_scheme_authenticates(player: AbstractUser, scheme: str) -> None:
    response = me(f"{scheme} {token_issue(user=player).key}")
    assert response.status_code == 200, response.json()
    assert response.json()["username"] == player.username


@pytest.mark.parametrize(
    ("authorization", "said"),
    [(None, "credentials were not provided"), ("Basic YWxpY2U6c2VjcmV0", "scheme 'Basic' is not accepted")],
)
def test_no_credentials_or_another_scheme_is_told_how_to_authenticate(
    authorization: str | None, said: str
) -> None:
    response = me(authorization)
    assert response.status_code == 401
    assert response["Content-Type"] == PROBLEM_CONTENT_TYPE
    problem = response.json()
    assert problem["code"] == "not_authenticated"
    assert said in problem["detail"]
    assert "Authorization: Bearer <token>" in problem["detail"]
    assert "POST /api/v1/auth/token" in problem["detail"]


def test_a_refused_bearer_token_is_challenged_as_bearer() -> None:
    response = me("Bearer not-a-token")
    assert (response.status_code, response.json()["code"]) == (401, "authentication_failed")
    assert response["WWW-Authenticate"] == "Bearer"
    assert me("Token not-a-token")["WWW-Authenticate"] == "Token"


def test_the_openapi_document_offers_both_schemes_as_alternatives() -> None:
    schema = APIClient().get("/api/schema/", {"format": "json"}).json()
    schemes = schema["components"]["securitySchemes"]
    assert schemes["bearerAuth"]["type"] == "http"
    assert schemes["bearerAuth"]["scheme"] == "bearer"
    assert schemes["tokenAuth"] == {
        **schemes["tokenAuth"],
        "type": "apiKey",
        "in": "header",
        "name": "Authorization",
    }
    security = schema["paths"]["/api/v1/me"]["get"]["security"]
    assert {"bearerAuth": []} in security
    assert {"tokenAuth": []} in security
