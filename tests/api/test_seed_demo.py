"""`manage.py seed_demo` builds the demo club through the services and is idempotent."""

from __future__ import annotations

import re
import stat
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from rest_framework.test import APIClient

from guts_backend.management.commands.seed_demo import DEMO_PLAYERS
from http_edge.roles import is_auditor, is_club_admin, roles_of
from ledger.models import Event
from ledger.money import balance, check_conservation, player_account

TOKEN_LINE = re.compile(r"^\s+(\w+)\s+\S+\s+([0-9a-f]{40})\s*$", re.MULTILINE)


def seed(*args: str) -> str:
    out = StringIO()
    call_command("seed_demo", *args, stdout=out)
    return out.getvalue()


def tokens_in(output: str) -> dict[str, str]:
    return dict(TOKEN_LINE.findall(output))


@pytest.fixture(autouse=True)
def private_var_dir(settings: Any, tmp_path: Path) -> Path:
    """seed_demo writes var/demo-tokens.txt: here, not over the developer's demo."""
    settings.VAR_DIR = tmp_path
    return tmp_path


@pytest.mark.django_db
def test_seed_demo_creates_the_club_and_running_it_again_changes_nothing() -> None:
    first = seed()
    users = get_user_model().objects
    events_after_first = list(Event.objects.order_by("position").values_list("position", flat=True))
    users_after_first = users.count()

    second = seed()
    assert list(Event.objects.order_by("position").values_list("position", flat=True)) == events_after_first
    assert users.count() == users_after_first
    assert TOKEN_LINE.sub("", first) == TOKEN_LINE.sub("", second)  # the same logins
    first_tokens, second_tokens = tokens_in(first), tokens_in(second)
    assert set(first_tokens) == {"admin", "auditor", *(name for name, _, _ in DEMO_PLAYERS)}
    for username, token in (*first_tokens.items(), *second_tokens.items()):  # fresh, old still valid
        me = APIClient(headers={"Authorization": f"Token {token}"}).get("/api/v1/me")
        assert me.status_code == 200
        assert me.json()["username"] == username
    assert set(first_tokens.values()).isdisjoint(second_tokens.values())

    admin = users.get(username="admin")
    assert admin.is_superuser
    assert is_club_admin(admin)
    assert is_auditor(users.get(username="auditor"))
    for username, _, deposit in DEMO_PLAYERS:
        player = users.get(username=username)
        assert roles_of(player) == ["player"]
        assert player.check_password(f"{username}-demo")
        assert balance(player_account(player.pk)) == deposit
        assert username in first
    assert "/api/docs/" in first
    assert check_conservation() == []


@pytest.mark.django_db
def test_seed_demo_prints_the_address_it_is_given_and_the_logins_last(private_var_dir: Path) -> None:
    output = seed("--base-url", "http://192.0.2.7:9123/")
    assert ":8000" not in output  # no default address (a token's hex may hold "8000")
    assert "http://192.0.2.7:9123/api/docs/" in output
    assert "http://192.0.2.7:9123/admin/" in output
    lines = output.rstrip("\n").splitlines()
    tokens_at = [i for i, line in enumerate(lines) if TOKEN_LINE.match(line + "\n")]
    assert len(tokens_at) == 2 + len(DEMO_PLAYERS)
    assert tokens_at[-1] >= len(lines) - 6  # only the lines saying how to use them follow
    assert lines[-1].startswith("Pages:")


@pytest.mark.django_db
def test_seed_demo_writes_the_logins_to_var_demo_tokens_txt(private_var_dir: Path) -> None:
    quiet = seed("--quiet", "--base-url", "http://127.0.0.1:9124")
    written = private_var_dir / "demo-tokens.txt"
    assert quiet.strip() == f"Demo club ready; logins, tokens and URLs in {written}."
    text = written.read_text()
    assert stat.S_IMODE(written.stat().st_mode) == 0o600  # live tokens: the owner's only
    assert text.startswith("Served at: http://127.0.0.1:9124\n")
    tokens = tokens_in(text)
    assert set(tokens) == {"admin", "auditor", *(name for name, _, _ in DEMO_PLAYERS)}
    me = APIClient(headers={"Authorization": f"Bearer {tokens['alice']}"}).get("/api/v1/me").json()
    assert (me["username"], me["display_name"]) == ("alice", "Alice")
    assert seed() == written.read_text()  # a loud run prints exactly what it writes
