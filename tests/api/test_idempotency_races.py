"""Concurrent requests on PostgreSQL: deposits to one bankroll queue instead of conflicting, and a
finished key's replays never collide with each other.

Each thread is its own client with its own database connection, as separate server workers are.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import AbstractUser
from django.db import connection, transaction
from rest_framework.test import APIClient

from http_edge.idempotency import try_lock_key
from http_edge.models import IdempotencyRecord
from ledger.models import Event
from ledger.selectors import player_stream
from tests.api.conftest import client_for, deposits_url, post_json

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def run_together(count: int, request: Callable[[int], Any]) -> list[Any]:
    """Run `request(i)` for i in range(count) in threads released at once; their results in order."""
    start = threading.Barrier(count)
    results: list[Any] = [None] * count

    def run(index: int) -> None:
        try:
            start.wait(30)
            results[index] = request(index)
        except Exception as error:  # reported by the assertions, not lost in the thread
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return results


def answer(response: Any) -> tuple[int, str | None]:
    body = response.json()
    return response.status_code, body.get("code") if isinstance(body, dict) else None


def test_fifty_concurrent_deposits_to_one_bankroll_all_land(
    admin_user: AbstractUser, player: AbstractUser
) -> None:
    amounts = [index + 1 for index in range(50)]

    def deposit(index: int) -> tuple[int, str | None]:
        client = client_for(admin_user)
        return answer(
            post_json(
                client,
                deposits_url(player.pk),
                {"amount": amounts[index]},
                **{"Idempotency-Key": f"race-{index}"},
            )
        )

    outcomes = run_together(len(amounts), deposit)

    assert outcomes == [(201, None)] * len(amounts)
    balance = client_for(admin_user).get(f"/api/v1/players/{player.pk}/balance").json()["balance"]
    assert balance == sum(amounts)
    assert Event.objects.filter(stream=player_stream(player.pk), type="DepositMade").count() == 50


def test_concurrent_retries_of_a_finished_key_all_replay(
    admin_api: APIClient, admin_user: AbstractUser, player: AbstractUser
) -> None:
    key = {"Idempotency-Key": "finished"}
    first = post_json(admin_api, deposits_url(player.pk), {"amount": 7}, **key)
    assert first.status_code == 201

    def retry(_: int) -> tuple[int, str | None, Any]:
        response = post_json(client_for(admin_user), deposits_url(player.pk), {"amount": 7}, **key)
        return response.status_code, response.get("Idempotent-Replayed"), response.json()

    outcomes = run_together(8, retry)

    assert outcomes == [(201, "true", first.json())] * 8
    assert Event.objects.filter(stream=player_stream(player.pk), type="DepositMade").count() == 1


def test_a_finished_key_replays_even_while_another_retry_holds_its_lock(
    admin_api: APIClient, admin_user: AbstractUser, player: AbstractUser
) -> None:
    """The collision of the issue, made deterministic: a concurrent retry holds the (caller, key)
    lock; a finished key's replay does not need it."""
    key = {"Idempotency-Key": "done-and-locked"}
    first = post_json(admin_api, deposits_url(player.pk), {"amount": 9}, **key)
    locked, release = threading.Event(), threading.Event()

    def concurrent_retry_holding_the_lock() -> None:
        try:
            with transaction.atomic():
                assert try_lock_key(caller_id=admin_user.pk, key="done-and-locked")
                locked.set()
                release.wait(10)
        finally:
            connection.close()

    holder = threading.Thread(target=concurrent_retry_holding_the_lock)
    holder.start()
    try:
        assert locked.wait(10)
        again = post_json(admin_api, deposits_url(player.pk), {"amount": 9}, **key)
    finally:
        release.set()
        holder.join()
    assert (again.status_code, again.get("Idempotent-Replayed")) == (201, "true")
    assert again.json() == first.json()
    assert IdempotencyRecord.objects.filter(key="done-and-locked").count() == 1
