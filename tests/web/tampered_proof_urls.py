"""A test-only URL map: the site as it is, except that a deal's proof is served with its first
opening claiming another card than the one committed, as a forger would serve it while the deal is
played. The replay console must say so from its own checks."""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpRequest, JsonResponse
from django.urls import path

from guts_backend.urls import urlpatterns as site
from tables.audit.views import DealProofApi


def tampered_proof(request: HttpRequest, table_id: Any, deal_no: int) -> JsonResponse:
    answer = DealProofApi.as_view()(request, table_id=table_id, deal_no=deal_no)
    answer.render()
    body = json.loads(answer.content)
    first = body["openings"][0]
    first["card"] = next(card for card in body["pack"] if card != first["card"])
    return JsonResponse(body, status=answer.status_code)


urlpatterns = [
    path("api/v1/tables/<uuid:table_id>/deals/<int:deal_no>/proof", tampered_proof),
    *site,
]
