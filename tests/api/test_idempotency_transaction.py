"""An Idempotency-Key's record rides in the command's own transaction, with no savepoint around the
view: a success commits with its record, an error keeps no effects and is stored
in a second transaction, and a version clash retries inside the request's transaction."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.contrib.auth.models import AbstractUser, Group
from django.db import connection
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.test import APIClient, APIRequestFactory, force_authenticate
from rest_framework.views import APIView

import http_edge.idempotency
import ledger.cashier
from http_edge.api.errors import problem_response
from http_edge.idempotency import idempotent
from http_edge.models import IdempotencyRecord
from tests.api.conftest import deposits_url, event_count, post_json


class _WritesThenRefuses(APIView):
    """A command that writes, then answers an error: the error must be stored, the write not kept."""

    @idempotent
    def post(self, request: Request) -> Response:
        Group.objects.create(name=request.data["name"])
        return problem_response(409, "refused_after_writing", "Wrote, then refused.")


class _Succeeds(APIView):
    @idempotent
    def post(self, request: Request) -> Response:
        return Response({"done": request.data["name"]}, status=201)


def send(view: type[APIView], user: AbstractUser, key: str, name: str) -> Any:
    request = APIRequestFactory().post(
        "/api/v1/things", {"name": name}, format="json", HTTP_IDEMPOTENCY_KEY=key
    )
    force_authenticate(request, user=user)
    return view.as_view()(request)


@pytest.mark.django_db
def test_an_error_answer_keeps_no_effects_and_is_stored(admin_user: AbstractUser) -> None:
    first = send(_WritesThenRefuses, admin_user, "refused", "written-then-refused")
    assert (first.status_code, first.data["code"]) == (409, "refused_after_writing")
    assert not Group.objects.filter(name="written-then-refused").exists()
    assert IdempotencyRecord.objects.get(caller=admin_user, key="refused").status_code == 409

    again = send(_WritesThenRefuses, admin_user, "refused", "written-then-refused")
    assert (again.status_code, again["Idempotent-Replayed"]) == (409, "true")
    assert again.data == first.data
    assert not Group.objects.filter(name="written-then-refused").exists()


@pytest.mark.django_db
@pytest.mark.parametrize("key", ["it's", "back\\slash", "%s", "a b;--"])
def test_any_printable_key_is_claimed_and_replayed(
    admin_api: APIClient, player: AbstractUser, key: str
) -> None:
    first = post_json(admin_api, deposits_url(player.pk), {"amount": 3}, **{"Idempotency-Key": key})
    before = event_count()
    again = post_json(admin_api, deposits_url(player.pk), {"amount": 3}, **{"Idempotency-Key": key})
    assert (first.status_code, again.status_code, again["Idempotent-Replayed"]) == (201, 201, "true")
    assert again.json() == first.json()
    assert event_count() == before
    assert IdempotencyRecord.objects.get(key=key).body == first.json()


@pytest.mark.django_db
def test_a_version_clash_retries_inside_the_requests_transaction(
    admin_api: APIClient, player: AbstractUser, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first attempt expects a stale version (as when a table command moved the bankroll in
    between): the clash is found before anything is written, and the next attempt lands in the
    same transaction as the key's record."""
    read_version = ledger.cashier.lock_bankroll_and_read_version
    attempts: list[int] = []

    def stale_at_first(player_id: int) -> int:
        attempts.append(player_id)
        return read_version(player_id) - (1 if len(attempts) == 1 else 0)

    monkeypatch.setattr(ledger.cashier, "lock_bankroll_and_read_version", stale_at_first)
    response = post_json(admin_api, deposits_url(player.pk), {"amount": 40}, **{"Idempotency-Key": "clash"})
    assert response.status_code == 201, response.json()
    assert response.json()["balance"] == 40
    assert len(attempts) == 2
    assert IdempotencyRecord.objects.get(key="clash").body == response.json()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_an_error_answers_as_the_retry_of_a_request_that_took_its_key_meanwhile(
    admin_user: AbstractUser, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Between an error's rollback and the transaction that stores it, the key is free: a request
    with it that runs then wins, and the error's request answers as a retry of that one would
    (here: its replay), so every answer under the key is the stored one."""
    claim = http_edge.idempotency._claim
    claims = 0

    def another_request_runs_before_the_second_claim(*args: Any) -> Response | None:
        nonlocal claims
        claims += 1
        if claims == 2:  # the error has been rolled back; its record is not stored yet

            def other() -> None:
                try:
                    assert send(_Succeeds, admin_user, "contested", "same").status_code == 201
                finally:
                    connection.close()

            thread = threading.Thread(target=other)
            thread.start()
            thread.join(10)
        return claim(*args)

    monkeypatch.setattr(http_edge.idempotency, "_claim", another_request_runs_before_the_second_claim)
    response = send(_WritesThenRefuses, admin_user, "contested", "same")

    assert (response.status_code, response["Idempotent-Replayed"]) == (201, "true")
    assert response.data == {"done": "same"}
    assert not Group.objects.filter(name="same").exists()
    record = IdempotencyRecord.objects.get(key="contested")
    assert (record.status_code, record.body) == (201, {"done": "same"})
