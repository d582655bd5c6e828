"""Cashier services (writes): register and rename players, deposit to and withdraw from their bankrolls.

Every chip movement is a Transfer between `cashier` (the outside world) and `player:<id>`, carried
by an event on the player's stream `player-<id>` (DESIGN §2.4). Refusals are domain errors
(ledger.errors) with stable codes; the API maps them to HTTP.

Deposits and withdrawals on one bankroll take its lock (`lock_bankroll`) before reading the stream
version, so they queue instead of clashing: 50 concurrent deposits to one player all land. The
retry on a version clash remains for table commands, which move a bankroll without that lock.

Both answer with what they did (`CashierResult`): the event and the bankroll after it, as the
append's balance projection left it, so the API reads neither again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser
from django.db import IntegrityError, connection, transaction

from http_edge.roles import PLAYER, grant_role
from ledger import dbapi
from ledger.errors import ConcurrencyConflict, FundsHeld, InvalidInput, Overdraft, UsernameTaken
from ledger.money import CASHIER, UNIT_CHIPS, InsufficientFunds, Transfer, player_account
from ledger.names import (
    PLAYER_REGISTERED,
    PLAYER_RENAMED,
    DisplayNameTaken,
    check_name_free,
    current_name,
    display_name_check,
    lock_names,
    name_taken,
)
from ledger.selectors import balance_and_held, player_get, player_stream
from ledger.store import (
    ConcurrencyError,
    NewEvent,
    StoredEvent,
    StreamWrite,
    append,
    append_with_balances,
    lock_and_read_head,
)

MAX_CASHIER_AMOUNT = 10**12  # one cashier operation; far above any real deposit
MAX_APPEND_ATTEMPTS = 5  # a version clash reloads and retries this many times, then gives up
BANKROLL_LOCK_CLASS = 0x62616E6B  # "bank": first key of the per-bankroll advisory locks

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class CashierResult:
    """What a deposit or withdrawal did: the event it appended and the bankroll after it."""

    event: StoredEvent
    balance: int


def player_create(
    *, username: str, password: str, display_name: str = "", meta: Mapping[str, Any] | None = None
) -> AbstractUser:
    """Create a player (a user in the `player` group) and append `PlayerRegistered` on their stream.

    The display name (the username when none is given) follows `ledger.names`: valid, and no other
    player's (DisplayNameTaken). The user and the event commit together or not at all.
    """
    user_model = get_user_model()
    name = display_name_check(display_name or username)
    try:
        with transaction.atomic():
            lock_names()
            if user_model.objects.filter(username=username).exists():
                raise UsernameTaken(username)
            check_name_free(name)
            user = user_model.objects.create_user(username=username, password=password, first_name=name)
            grant_role(user, PLAYER)
            append(
                [
                    StreamWrite(
                        player_stream(user.pk),
                        0,
                        [
                            NewEvent(
                                PLAYER_REGISTERED,
                                {"player_id": user.pk, "username": username, "display_name": name},
                            )
                        ],
                    )
                ],
                meta=meta,
            )
    except IntegrityError as exc:  # a concurrent registration of the same username (or name) won
        if name_taken(name) and not user_model.objects.filter(username=username).exists():
            raise DisplayNameTaken(name) from exc
        raise UsernameTaken(username) from exc
    return user


def player_rename(
    *, player_id: int, display_name: str, meta: Mapping[str, Any] | None = None
) -> AbstractUser:
    """Change a player's display name: `PlayerRenamed` on his stream (the actor in its meta) and
    the user's first name, in one transaction. The same name again changes nothing (no event);
    another player's name, in any case, is DisplayNameTaken."""
    name = display_name_check(display_name)
    player_get(player_id=player_id)

    def attempt() -> AbstractUser:
        lock_names()
        version = lock_bankroll_and_read_version(player_id)  # queue with the cashier on the stream
        user = get_user_model().objects.get(pk=player_id)
        previous = current_name(player_id) or user.first_name or user.get_username()
        if previous == name:
            return user
        check_name_free(name, player_id=player_id)
        data = {"player_id": player_id, "display_name": name, "previous": previous}
        append([StreamWrite(player_stream(player_id), version, [NewEvent(PLAYER_RENAMED, data)])], meta=meta)
        user.first_name = name
        user.save(update_fields=["first_name"])
        return user

    try:
        return _with_retries(attempt)
    except IntegrityError as exc:  # the unique key: a name taken between the check and the insert
        raise DisplayNameTaken(name) from exc


def cashier_deposit(
    *, player_id: int, amount: int, note: str = "", meta: Mapping[str, Any] | None = None
) -> CashierResult:
    """Chips come in from the outside world: cashier -> player:<id>, event `DepositMade`."""
    check_amount(amount)
    player_get(player_id=player_id)
    transfer = Transfer(CASHIER, player_account(player_id), amount, "deposit", UNIT_CHIPS)

    def attempt() -> CashierResult:
        version = lock_bankroll_and_read_version(player_id)
        return _append_one(player_id, version, "DepositMade", transfer, note, meta)

    return _with_retries(attempt)


def cashier_withdraw(
    *, player_id: int, amount: int, note: str = "", meta: Mapping[str, Any] | None = None
) -> CashierResult:
    """Chips go out to the outside world: player:<id> -> cashier, event `WithdrawalMade`.

    Never overdraws, and never pays chips a dispute holds (FundsHeld; every hold takes the same
    bankroll lock): the balance and the held chips are checked in the append's transaction after
    reading the stream
    version the append expects, so a concurrent change makes the append clash and we re-check.
    The balance projector's guard (InsufficientFunds from inside append) is the last defence.
    """
    check_amount(amount)
    player_get(player_id=player_id)
    account = player_account(player_id)
    transfer = Transfer(account, CASHIER, amount, "withdrawal", UNIT_CHIPS)

    def attempt() -> CashierResult:
        version = lock_bankroll_and_read_version(player_id)  # first the version, then the balance
        held, on_hold = balance_and_held(account, UNIT_CHIPS)
        if held < amount:
            raise Overdraft(f"{account} holds {held} chips; cannot withdraw {amount}.", balance=held)
        if held - on_hold < amount:
            raise FundsHeld(
                f"{account} holds {held} chips, of which {on_hold} are held by disputes; "
                f"{held - on_hold} are available.",
                account=account,
            )
        return _append_one(player_id, version, "WithdrawalMade", transfer, note, meta)

    return _with_retries(attempt)


def check_amount(amount: int) -> None:
    """Amounts are plain positive ints (never bool, float or str), at most MAX_CASHIER_AMOUNT."""
    if type(amount) is not int or not 0 < amount <= MAX_CASHIER_AMOUNT:
        raise InvalidInput(
            f"amount must be an integer from 1 to {MAX_CASHIER_AMOUNT}.",
            errors={"amount": [f"Must be an integer from 1 to {MAX_CASHIER_AMOUNT}."]},
        )


def lock_bankroll(player_id: int) -> None:
    """PostgreSQL: hold this bankroll's advisory lock until the transaction ends, so cashier
    commands on one bankroll queue here instead of clashing at append (as `tables.service.lock_table`
    does per table; other bankrolls are not blocked). SQLite already serialises writers at BEGIN
    IMMEDIATE. Ids past 2^31 share locks, which only makes a few bankrolls queue together."""
    if not dbapi.on_postgres():
        return
    with dbapi.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [BANKROLL_LOCK_CLASS, player_id % 2**31])


def lock_bankroll_and_read_version(player_id: int) -> int:
    """`lock_bankroll`, and the player stream's version, in one round trip."""
    lock = (BANKROLL_LOCK_CLASS, player_id % 2**31)
    return lock_and_read_head(lock, player_stream(player_id))[0]


def _append_one(
    player_id: int,
    version: int,
    event_type: str,
    transfer: Transfer,
    note: str,
    meta: Mapping[str, Any] | None,
) -> CashierResult:
    data = {
        "player_id": player_id,
        "amount": transfer.amount,
        "note": note,
        "transfers": [transfer.to_json()],
    }
    try:
        appended = append_with_balances(
            [StreamWrite(player_stream(player_id), version, [NewEvent(event_type, data)])],
            meta=meta,
            savepoint=False,
        )  # `_with_retries` retries the whole attempt
    except InsufficientFunds as exc:
        raise Overdraft(str(exc)) from exc
    [stored] = appended.events
    return CashierResult(stored, appended.balances[(player_account(player_id), UNIT_CHIPS)])


def _with_retries(attempt: Callable[[], T]) -> T:
    """Run `attempt` in a transaction; on a version clash reload and retry, then ConcurrencyConflict.

    Each attempt is a transaction of its own, unless the caller has one open (an Idempotency-Key
    request, whose record rides in it): then the attempts run in it, without a savepoint. A clash
    is found before anything is written and leaves that transaction usable (`store.append`), so the
    next attempt re-reads and appends in it; a clash it cannot get past (a newer transaction wrote
    the head, or the unique key refused the insert: `actual` unknown) ends the retries at once,
    and the caller's transaction rolls back.
    """
    for _ in range(MAX_APPEND_ATTEMPTS):
        try:
            with _attempt_transaction():
                return attempt()
        except ConcurrencyError as clash:
            if connection.in_atomic_block and clash.actual is None:
                break
    raise ConcurrencyConflict(
        f"The stream changed concurrently {MAX_APPEND_ATTEMPTS} times; retry the request."
    )


@contextmanager
def _attempt_transaction() -> Iterator[None]:
    """A transaction of the attempt's own, whose append goes with its COMMIT in one message
    (`dbapi.commit_with_append`), or none inside the caller's (no SAVEPOINT round trips)."""
    if connection.in_atomic_block:
        yield
        return
    with dbapi.commit_with_append(), transaction.atomic():
        yield
