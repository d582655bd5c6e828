"""Players' display names: what people see beside a player id everywhere the API shows one.

A player's name is set at registration (`PlayerRegistered.display_name`, the username if none is
given) and changed by the player or a club admin (`ledger.cashier.player_rename`: a
`PlayerRenamed` event on his stream `player-<id>`, so every change is in the audited log with its
actor). The `PlayerName` projection folds both; its `key` (the name under NFKC and case folding) is
unique, so no two players of the club share a name whatever its case or width ("Alice", "ALICE"
and a full-width "Alice" are one name). The club is the deployment: one database, one set of names.

A name (`display_name_check`) is 1 to 150 characters once trimmed, without control characters,
not all digits (it would read as a player id beside the ids it is shown with), and without a word
that reads as a card ("As", "10d", "Kh"): a hand history must never be ambiguous about what was
shown. Names are labels a player chose: they reveal nothing hidden, and serving them beside ids
changes no redaction.

Names are served by `player_names` (one query for a whole document's ids), and accounts by
`account_names`: the ledger names its own (the cashier, the house, a bankroll, a dispute's hold);
the apps that own the others register a namer for their kinds (tables: seats, pots, reserves,
bets; tournaments: prize pools, chip banks), the ledger importing none of them.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable
from typing import Any

from django.contrib.auth import get_user_model

from ledger import dbapi
from ledger.errors import DomainError
from ledger.models import PlayerName
from ledger.projections import EventProjector, register_projector
from ledger.registry import register_event_type
from ledger.store import StoredEvent

PLAYER_REGISTERED = "PlayerRegistered"
PLAYER_RENAMED = "PlayerRenamed"
MAX_NAME_LENGTH = 150
MAX_KEY_LENGTH = 600  # a name as compared (NFKC can spell one character as up to 18)
NAMES_LOCK_CLASS = 0x6E616D65  # "name": the one advisory lock every name change takes
MAX_ID_DIGITS = 18  # a player id (a user pk, bigint) as text: longer digit strings are no ids
CARD_WORD = re.compile(r"(?<![0-9A-Za-z])(?:10|[2-9TJQKA])[cdhs](?![0-9A-Za-z])")


class InvalidDisplayName(DomainError):
    code = "invalid_display_name"


class DisplayNameTaken(DomainError):
    code = "display_name_taken"

    def __init__(self, name: str) -> None:
        super().__init__(f"The name {name!r} is taken by another player; choose another.", display_name=name)


def name_key(name: str) -> str:
    """The name as two names are compared: NFKC (full-width letters as plain ones), case folded."""
    return unicodedata.normalize("NFKC", name).casefold()


def display_name_check(name: str) -> str:
    """The name trimmed, or InvalidDisplayName saying which rule it breaks (module docstring)."""
    name = name.strip()
    problem = None
    if not 0 < len(name) <= MAX_NAME_LENGTH:
        problem = f"a name is 1 to {MAX_NAME_LENGTH} characters"
    elif any(unicodedata.category(char).startswith("C") for char in name):
        problem = "a name has no control or invisible format characters"
    elif len(name_key(name)) > MAX_KEY_LENGTH:
        problem = f"a name is at most {MAX_KEY_LENGTH} characters once normalised (NFKC)"
    elif name.isdigit():
        problem = "a name is not all digits (it would read as a player id)"
    elif CARD_WORD.search(name):
        problem = "a name has no word that reads as a card, such as 'As' or '10d'"
    if problem is not None:
        raise InvalidDisplayName(f"{problem}: {name!r}", errors={"display_name": [problem]})
    return name


def lock_names() -> None:
    """PostgreSQL: hold the names lock until the transaction ends, so that checking a name is free
    and taking it cannot interleave with another registration or rename (the unique key is the
    last defence). SQLite already serialises writers."""
    if not dbapi.on_postgres():
        return
    with dbapi.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, 0)", [NAMES_LOCK_CLASS])


def check_name_free(name: str, *, player_id: int | None = None) -> None:
    """DisplayNameTaken if a player other than `player_id` has this name (in any case)."""
    holder = PlayerName.objects.filter(key=name_key(name)).values_list("player_id", flat=True).first()
    if holder is not None and holder != player_id:
        raise DisplayNameTaken(name)


def name_taken(name: str) -> bool:
    return PlayerName.objects.filter(key=name_key(name)).exists()


def current_name(player_id: int) -> str | None:
    return PlayerName.objects.filter(player_id=player_id).values_list("name", flat=True).first()


def player_names(players: Iterable[object]) -> dict[str, str]:
    """{player id as text: display name} for the ids among `players` (others are ignored), in one
    query; a user the projection has no name for (staff) is named by his first name or username."""
    ids = sorted({int(text) for text in map(str, players) if text.isdigit() and len(text) <= MAX_ID_DIGITS})
    if not ids:
        return {}
    if dbapi.on_postgres():
        where, params = "= ANY(%s)", [ids, ids]
    else:
        where, params = f"IN ({', '.join(['%s'] * len(ids))})", ids + ids
    names, users = PlayerName._meta.db_table, get_user_model()._meta.db_table
    query = (  # every read path names its players: one plain statement, not two ORM queries
        f'SELECT u.id, n.name, u.first_name, u.username FROM "{users}" u '
        f'LEFT JOIN "{names}" n ON n.player_id = u.id WHERE u.id {where} '
        f"UNION ALL SELECT n.player_id, n.name, '', '' FROM \"{names}\" n WHERE n.player_id {where} "
        f'AND NOT EXISTS (SELECT 1 FROM "{users}" u WHERE u.id = n.player_id)'
    )
    with dbapi.cursor() as cursor:
        cursor.execute(query, params)
        found = {int(pk): name or first or username for pk, name, first, username in cursor.fetchall()}
    return {str(pk): found[pk] for pk in sorted(found)}


def player_name(player_id: object) -> str | None:
    """One player's display name (None if there is no such user)."""
    return player_names([player_id]).get(str(player_id))


AccountNamer = Callable[[list[str]], dict[str, str]]
_account_namers: dict[str, AccountNamer] = {}
_OWN_ACCOUNTS = {"cashier": "Cashier", "house": "House"}


def register_account_namer(kinds: Iterable[str], namer: AccountNamer) -> None:
    """An app's ready(): `namer(accounts)` names its accounts of these kinds ("seat", "pot", ...)."""
    for kind in kinds:
        _account_namers[kind] = namer


def account_names(accounts: Iterable[str]) -> dict[str, str]:
    """{account: what a person calls it} for the accounts one can name ("Cashier", "Alice's
    bankroll", "Alice's seat at Two-card Guts #3", "Spring Cup prize pool"), one lookup per kind."""
    by_kind: dict[str, list[str]] = {}
    for account in set(accounts):
        by_kind.setdefault(account.split(":", 1)[0], []).append(account)
    names = {
        account: _OWN_ACCOUNTS[account] for account in by_kind.pop("cashier", []) + by_kind.pop("house", [])
    }
    bankrolls = {account: account.split(":", 1)[1] for account in by_kind.pop("player", [])}
    owners = player_names(bankrolls.values())
    names.update({a: f"{owners[p]}'s bankroll" for a, p in bankrolls.items() if p in owners})
    names.update(dict.fromkeys(by_kind.pop("hold", []), "Dispute hold"))
    for kind, some in by_kind.items():
        namer = _account_namers.get(kind)
        if namer is not None:
            names.update(namer(some))
    return names


class PlayerNameProjector(EventProjector):
    """PlayerName rows from the players' streams: registration and every rename."""

    name = "ledger.player_names"
    handles = frozenset({PLAYER_REGISTERED, PLAYER_RENAMED})
    models = (PlayerName,)

    def apply(self, event: StoredEvent, *, live: bool) -> None:
        data: dict[str, Any] = event.data
        player_id = int(data["player_id"])
        name = data.get("display_name") or data.get("username") or f"player {player_id}"
        key = name_key(name)
        if not live and PlayerName.objects.filter(key=key).exclude(player_id=player_id).exists():
            key = f"{key}#{player_id}"  # two players named alike before names were unique: keep both
        PlayerName.objects.bulk_create(  # one upsert: no row count to read back inside the pipeline
            [PlayerName(player_id=player_id, name=name, key=key)],
            update_conflicts=True,
            unique_fields=["player_id"],
            update_fields=["name", "key"],
        )


def register_names() -> None:
    """From the ledger's ready(): the rename event type and the names projection."""
    register_event_type(PLAYER_RENAMED)
    register_projector(PlayerNameProjector())
