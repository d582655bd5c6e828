"""`manage.py seed_demo`: a demo club to try the API with, created idempotently.

Creates (or finds) an admin (superuser and club_admin), an auditor and four players with bankroll
deposits made through the cashier service, then prints every login, a fresh API token for it and
the URLs (at `--base-url`, where the API is served), and writes the same to `var/demo-tokens.txt`
(`--tokens-file`; `manage.py serve` prints it last, once everything is up). Running it again
changes no club state; it only issues new tokens (tokens are stored hashed, so earlier ones cannot
be printed again; they stay valid until they expire). Demo passwords are `<username>-demo`
(admin-demo, alice-demo, ...): for a local demo only, never for a real club.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser
from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction

from http_edge.roles import AUDITOR, CLUB_ADMIN, grant_role
from http_edge.tokens import token_issue, token_lifetime
from ledger.cashier import cashier_deposit, player_create
from ledger.models import Event
from ledger.selectors import player_stream

DEMO_PLAYERS: tuple[tuple[str, str, int], ...] = (
    ("alice", "Alice", 10_000),
    ("bob", "Bob", 5_000),
    ("carol", "Carol", 2_500),
    ("dave", "Dave", 1_000),
)


def demo_password(username: str) -> str:
    return f"{username}-demo"


class Command(BaseCommand):
    help = "Seed a demo club (admin, auditor, four players with bankrolls); safe to run twice."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--base-url",
            default="http://127.0.0.1:8000",
            help="where the API is served, for the printed URLs (make run passes its ADDR)",
        )
        parser.add_argument(
            "--tokens-file",
            default=None,
            help="where to write the logins, tokens and URLs (default: var/demo-tokens.txt)",
        )
        parser.add_argument(
            "--quiet", action="store_true", help="print only where the logins were written (make run)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        with transaction.atomic():
            admin = ensure_staff_user("admin", role=CLUB_ADMIN, superuser=True)
            auditor = ensure_staff_user("auditor", role=AUDITOR, superuser=False)
            players = [
                ensure_demo_player(username, display_name, deposit, actor=admin)
                for username, display_name, deposit in DEMO_PLAYERS
            ]
        logins = [(user.username, token_issue(user=user).key) for user in (admin, auditor, *players)]
        text = demo_text(logins, options["base_url"].rstrip("/"))
        path = Path(options["tokens_file"] or settings.VAR_DIR / TOKENS_FILE)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        path.chmod(0o600)  # live tokens: the owner's only
        if options["quiet"]:
            self.stdout.write(f"Demo club ready; logins, tokens and URLs in {path}.")
        else:
            self.stdout.write(text, ending="")


TOKENS_FILE = "demo-tokens.txt"
BASE_URL_LINE = "Served at: "  # the first line of the tokens file: `serve` reads the URL back


def demo_text(logins: list[tuple[str, str]], base_url: str) -> str:
    """The demo's logins (username, password, a fresh token) and where to use them."""
    lines = [
        f"{BASE_URL_LINE}{base_url}",
        "Demo club ready. Logins (username / password / API token):",
        *(f"  {username:8} {demo_password(username):14} {key}" for username, key in logins),
        f"Tokens work for {token_lifetime()} (GUTS_TOKEN_LIFETIME); then run seed_demo again or log in "
        "(POST /api/v1/auth/token).",
        f"API docs: {base_url}/api/docs/  (Authorize, bearerAuth: paste a token)",
        f"Admin:    {base_url}/admin/",
        f"Pages:    {base_url}/audit/ (replays) and {base_url}/tables/ (live tables); "
        "sign in with a username and <username>-demo",
    ]
    return "\n".join(lines) + "\n"


def ensure_staff_user(username: str, *, role: str, superuser: bool) -> AbstractUser:
    """The demo user `username` with `role`, created on the first run only."""
    user_model = get_user_model()
    user = user_model.objects.filter(username=username).first()
    if user is None:
        create = user_model.objects.create_superuser if superuser else user_model.objects.create_user
        user = create(username=username, password=demo_password(username), first_name=username.title())
        grant_role(user, role)
    return user


def ensure_demo_player(
    username: str, display_name: str, deposit: int, *, actor: AbstractUser
) -> AbstractUser:
    """The demo player, registered and funded through the cashier services, once."""
    meta = {"actor": actor.pk, "source": "seed_demo"}
    player = get_user_model().objects.filter(username=username).first()
    if player is None:
        player = player_create(
            username=username, password=demo_password(username), display_name=display_name, meta=meta
        )
    funded = Event.objects.filter(stream=player_stream(player.pk), type="DepositMade").exists()
    if not funded:
        cashier_deposit(player_id=player.pk, amount=deposit, note="demo bankroll", meta=meta)
    return player
