"""A test-only URL map: the site as it is, except that a deal's replay is served with one event
changed after it was hashed (one more chip in the first ante), as a forger or a broken cache
would serve it. The replay console must say so from its own checks."""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpRequest, JsonResponse
from django.urls import path

from guts_backend.urls import urlpatterns as site
from tables.audit.views import DealReplayApi

TAMPERED_TYPE = "AntesPosted"


def tampered_replay(request: HttpRequest, table_id: Any, deal_no: int) -> JsonResponse:
    answer = DealReplayApi.as_view()(request, table_id=table_id, deal_no=deal_no)
    answer.render()
    body = json.loads(answer.content)
    for step in body.get("steps", []):
        if step["event"]["type"] == TAMPERED_TYPE:
            step["event"]["data"]["transfers"][0]["amount"] += 1
            break
    return JsonResponse(body, status=answer.status_code)


urlpatterns = [
    path("api/v1/tables/<uuid:table_id>/deals/<int:deal_no>/replay", tampered_replay),
    *site,
]
