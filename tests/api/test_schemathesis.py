"""Schemathesis against the whole API, in process: every operation, as every role, must answer
without a 5xx and exactly as the OpenAPI document says (status, content type, headers, body).

The schema is drf-spectacular's, generated in process (what `/api/schema/` serves); requests go
to the Django WSGI application directly, so no server runs. Each operation is attacked as each
role (anonymous, a player dealt into a live deal, a seated opponent, an unseated player, a club
admin, an auditor) in a club with a finished deal, a live one and an idle table. Path parameters
are mostly the club's real ids, so most calls reach the views; the rest are Schemathesis' own
(unknown ids, malformed values). Valid requests (half of them built on the operation's documented
example, given real deal numbers and credentials) and invalid ones are both sent.

Stateful runs need OpenAPI links between operations; drf-spectacular writes none, so there is no
stateful phase here (docs/api.md, "How the API is attacked in CI").

Bounded and reproducible: `EXAMPLES` cases per operation, role and generation mode, from a fixed
seed of their own (derandomized, yet not the same draws for every role).
"""

from __future__ import annotations

import functools
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
import schemathesis
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser
from django.core.signals import request_finished, request_started
from django.db import close_old_connections, transaction
from django.test import override_settings
from django.utils import timezone
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    ignored_auth,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from guts_backend.wsgi import application
from http_edge.roles import AUDITOR, CLUB_ADMIN, grant_role
from ledger.cashier import cashier_deposit, player_create
from ledger.checkpoints import checkpoint_publish
from ledger.disputes.service import dispute_hold, dispute_open
from tables import service
from tables.state import cache
from tests.api.conftest import client_for, unique_name
from tests.audit.conftest import everyone_in, open_session

pytestmark = pytest.mark.postgres

EXAMPLES = 5  # per operation, role and generation mode: the whole run stays under 90 s
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    ignored_auth,
]
PASSWORD = "attacked-pw"
ROLES = ["anonymous", "player", "opponent", "outsider", "club_admin", "auditor"]


def api_schema() -> schemathesis.BaseSchema:
    """The OpenAPI document as `/api/schema/` serves it, bound to the WSGI application."""
    schema = schemathesis.openapi.from_dict(SchemaGenerator().get_schema(request=None, public=True))
    schema.app = application
    return schema


SCHEMA = api_schema()
OPERATIONS = {result.ok().label: result.ok() for result in SCHEMA.get_all_operations()}


@dataclass(frozen=True)
class Club:
    """Each role's Authorization header (none when anonymous), and the real values a path or a
    JSON body can name."""

    authorization: dict[str, str | None]
    path_values: dict[str, list[Any]]
    body_values: dict[str, list[Any]]


def authorization(user: AbstractUser) -> str:
    """The header the API tests' own clients send (tests/api/conftest.py issues the token)."""
    return client_for(user)._credentials["HTTP_AUTHORIZATION"]


@pytest.fixture(scope="module")
def club(django_db_setup: None, django_db_blocker: Any) -> Iterator[Club]:
    """A table of three (deal 1 played out, deal 2 live in a sealed window: `player` and `opponent`
    are dealt in), a table where those two sit between deals, an empty table, an unseated player,
    a club admin and an auditor.

    Built once for the module inside a transaction that is rolled back at its end; each test runs
    in a savepoint within it (pytest-django's `db`), so every test starts from this same club."""
    with django_db_blocker.unblock(), override_settings(**TEST_SETTINGS), transaction.atomic():
        cache.clear()
        yield build_club()
        transaction.set_rollback(True)
    cache.clear()


TEST_SETTINGS = {
    "PASSWORD_HASHERS": ["django.contrib.auth.hashers.MD5PasswordHasher"],  # test speed only
    "GUTS_SSE_MAX_DURATION": 0.05,  # a stream answers its backlog, then ends
    "GUTS_SSE_POLL": 0.01,
    "GUTS_LONG_POLL_THREADS": 0,  # a long-poll whose ETag happens to match answers at once
}


def build_club() -> Club:
    player, opponent, third, outsider = (_funded_player() for _ in range(4))
    live = open_session(
        [player.pk, opponent.pk, third.pk], declare_mode="simultaneous", declare_timeout=3600
    )  # the window stays open however long the module runs
    finished_deal = live.play(everyone_in)
    live_deal = live.start()  # everyone may declare: a sealed window is open
    idle = open_session([player.pk, opponent.pk])  # between deals: start, top up, sit out, leave
    idle.play(everyone_in)
    empty_table = service.table_open(variant="guts3", options={"ante": 5}).table_id
    tournaments = _tournaments(player)
    admin, auditor = _staff(CLUB_ADMIN), _staff(AUDITOR)
    disputes = _disputes(live.table_id, finished_deal, player, opponent, outsider, admin)
    checkpoint = checkpoint_publish(now=timezone.now())
    assert checkpoint is not None
    users = {
        "player": player,
        "opponent": opponent,
        "outsider": outsider,
        "club_admin": admin,
        "auditor": auditor,
    }
    return Club(
        authorization={"anonymous": None} | {role: authorization(user) for role, user in users.items()},
        path_values={
            "table_id": [live.table_id, idle.table_id, empty_table],
            "tournament_id": tournaments,
            "player_id": [player.pk, opponent.pk, outsider.pk, admin.pk],
            "deal_no": [finished_deal, live_deal],
            "account": [f"player:{player.pk}", f"seat:{live.table_id}:{player.pk}", f"player:{outsider.pk}"],
            "dispute_id": disputes,
            "number": [checkpoint["number"]],
        },
        body_values={
            "deal_no": [finished_deal, live_deal],
            "username": [user.get_username() for user in users.values()],
            "password": [PASSWORD],
        },
    )


def _tournaments(player: AbstractUser) -> list[str]:
    """Tournaments: one tournament registering (the player registered, too few to start) and one
    cancelled."""
    from tournaments import service as tournaments

    fields = {
        "name": "Attacked",
        "variant": "guts2",
        "buy_in": 10,
        "fee": 1,
        "starting_chips": 100,
        "seats_per_table": 6,
        "min_entrants": 4,
        "max_entrants": 8,
        "start_at": "2099-01-01T00:00:00Z",
        "levels": [{"ante": 1, "minutes": 5}],
        "payouts": [100],
    }
    registering = tournaments.tournament_create(fields=fields).tournament_id
    tournaments.tournament_register(tournament_id=registering, player_id=player.pk)
    cancelled = tournaments.tournament_create(fields=fields).tournament_id
    tournaments.tournament_cancel(tournament_id=cancelled)
    return [registering, cancelled]


def _disputes(
    table_id: str,
    deal_no: int,
    player: AbstractUser,
    opponent: AbstractUser,
    outsider: AbstractUser,
    admin: AbstractUser,
) -> list[str]:
    """A dispute on the finished deal (the player's, holding some of the opponent's chips) and one
    on the outsider's deposit (no party of the others)."""
    on_deal = dispute_open(
        user=player,
        subject={"kind": "deal", "table_id": table_id, "deal_no": deal_no},
        reason="attacked",
        now=timezone.now(),
    ).dispute_id
    dispute_hold(user=admin, dispute_id=on_deal, player_id=opponent.pk, amount=100, now=timezone.now())
    position = cashier_deposit(player_id=outsider.pk, amount=5).event.position
    on_deposit = dispute_open(
        user=outsider,
        subject={"kind": "cashier", "position": position},
        reason="attacked",
        now=timezone.now(),
    ).dispute_id
    return [on_deal, on_deposit]


def _funded_player() -> AbstractUser:
    user = player_create(username=unique_name("attacked"), password=PASSWORD)
    cashier_deposit(player_id=user.pk, amount=100_000)
    return user


def _staff(role: str) -> AbstractUser:
    user = get_user_model().objects.create_user(username=unique_name(role), password=PASSWORD)
    grant_role(user, role)
    return user


@pytest.fixture(autouse=True)
def requests_in_the_test_transaction(club: Club, db: None) -> Iterator[None]:
    """Django closes "old" connections around each request; inside the test's transaction that
    would break it. Django's own test client disconnects the same two receivers."""
    cache.clear()
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)
    cache.clear()


def real_path_parameters(
    operation: schemathesis.APIOperation, club: Club, mode: GenerationMode
) -> st.SearchStrategy:
    """Real ids for every path parameter (or None: let Schemathesis generate them, as it must
    when the path is all an invalid request can get wrong)."""
    names = [parameter.name for parameter in operation.path_parameters]
    if not names or (mode is GenerationMode.NEGATIVE and not own_inputs(operation, path=False)):
        return st.none()
    real = st.fixed_dictionaries({name: st.sampled_from(club.path_values[name]) for name in names})
    return st.one_of(real, real, real, st.none())  # mostly real: reach the views


def with_real_values(body: Any, club: Club) -> st.SearchStrategy:
    """A valid JSON body, some of whose fields (deal numbers, credentials) may name real ones."""
    if not isinstance(body, dict):
        return st.just(body)
    fields = {
        name: st.sampled_from([value, *club.body_values[name]])
        for name, value in body.items()
        if name in club.body_values
    }
    return st.fixed_dictionaries(fields).map(lambda real: {**body, **real})


def cases(
    operation: schemathesis.APIOperation, mode: GenerationMode, path_parameters: dict[str, Any] | None
) -> st.SearchStrategy:
    """Schemathesis' requests; valid ones are half the time built on the operation's documented
    example (a body the server should accept, once given real ids and deal numbers)."""
    return _cases(operation.label, mode, tuple(sorted(path_parameters.items())) if path_parameters else None)


@functools.cache
def _cases(label: str, mode: GenerationMode, path: tuple[tuple[str, Any], ...] | None) -> st.SearchStrategy:
    """Built once per operation, mode and path: Hypothesis reuses what a strategy worked out."""
    operation, path_parameters = OPERATIONS[label], dict(path) if path else None
    fuzzed = operation.as_strategy(mode, path_parameters=path_parameters)
    documented = operation.get_strategies_from_examples(path_parameters=path_parameters)
    if mode is GenerationMode.POSITIVE and documented:
        return st.one_of(fuzzed, st.one_of(documented))
    return fuzzed


def attack(operation: schemathesis.APIOperation, club: Club, role: str, mode: GenerationMode) -> None:
    """Send `EXAMPLES` generated requests to `operation` as `role` and check every answer."""
    header = club.authorization[role]
    headers = {"Authorization": header} if header else {}

    @settings(max_examples=EXAMPLES, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @seed(zlib.crc32(f"{operation.label} {role} {mode.value}".encode()))  # reproducible, varied
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        path_parameters = data.draw(real_path_parameters(operation, club, mode), label="path")
        case = data.draw(cases(operation, mode, path_parameters), label="case")
        if mode is GenerationMode.POSITIVE:
            case.body = data.draw(with_real_values(case.body, club), label="body")
            if "If-Match" in (case.headers or {}) and data.draw(st.booleans(), label="drop If-Match"):
                del case.headers["If-Match"]  # a random version is always stale: let some act
        response = case.call(headers=headers)
        case.validate_response(response, checks=CHECKS, headers=headers)

    run()


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("label", sorted(OPERATIONS))
def test_every_operation_answers_as_documented(club: Club, label: str, role: str) -> None:
    operation = OPERATIONS[label]
    for mode in modes(operation):
        attack(operation, club, role, mode)


def modes(operation: schemathesis.APIOperation) -> list[GenerationMode]:
    """Valid requests always; invalid ones where there is something to get wrong."""
    if own_inputs(operation, path=True):
        return [GenerationMode.POSITIVE, GenerationMode.NEGATIVE]
    return [GenerationMode.POSITIVE]


def own_inputs(operation: schemathesis.APIOperation, *, path: bool) -> bool:
    """Whether the operation takes a body or parameters (Schemathesis adds the security schemes
    as optional parameters: they do not count)."""
    parameters = [*operation.query, *operation.headers, *operation.cookies]
    if path:
        parameters += list(operation.path_parameters)
    return bool(operation.body) or any(
        "x-original-security-type" not in parameter.definition for parameter in parameters
    )


def test_every_operation_is_attacked() -> None:
    """A schema that failed to load or lost its paths would otherwise make the run above vacuous."""
    assert len(OPERATIONS) >= 30
    assert "POST /api/v1/tables/{table_id}/declares" in OPERATIONS
