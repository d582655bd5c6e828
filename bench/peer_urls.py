"""The API's URLs plus a minimal DRF peer served by the same server (bench/command_cost.py):
`POST /bench/peer` does one INSERT, `GET /bench/peer/<id>` one SELECT, with the project's DRF
settings (token authentication, problem+json errors), so the API's cost is measured against the
least a DRF view on this stack can cost."""

from __future__ import annotations

import json

from django.db import connection
from django.urls import include, path
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

PEER_TABLE = "CREATE TABLE IF NOT EXISTS bench_peer (id bigserial PRIMARY KEY, body jsonb NOT NULL)"


class PeerInsert(APIView):
    def post(self, request: Request) -> Response:
        with connection.cursor() as cursor:
            cursor.execute(
                "INSERT INTO bench_peer (body) VALUES (%s::jsonb) RETURNING id", [json.dumps(request.data)]
            )
            (row_id,) = cursor.fetchone()
        return Response({"id": row_id}, status=201)


class PeerSelect(APIView):
    def get(self, request: Request, row_id: int) -> Response:
        with connection.cursor() as cursor:
            cursor.execute("SELECT id, body FROM bench_peer WHERE id = %s", [row_id])
            row = cursor.fetchone()
        return Response({"id": row[0], "body": row[1]} if row else {})


urlpatterns = [
    path("bench/peer", PeerInsert.as_view()),
    path("bench/peer/<int:row_id>", PeerSelect.as_view()),
    path("", include("guts_backend.urls")),
]
