"""Dispute services (writes): open, hold, note, decide, withdraw, and the timer's expire.

Each loads the dispute's stream, checks, and appends at the version it read (a clash reloads and
retries, `ledger.cashier._with_retries`). A hold or a decision that changes a bankroll takes that
bankroll's lock (as the cashier does) and appends a DisputeBankrollChanged marker at the player
stream's version, so it serialises with withdrawals and with table buy-ins. Refusals are domain
errors with stable codes (ledger.errors); nothing is appended then.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings

from http_edge.roles import User, is_auditor, is_club_admin, is_player
from ledger import dbapi
from ledger.accounts import Transfer, account_kind, player_account
from ledger.cashier import _with_retries, check_amount, lock_bankroll_and_read_version
from ledger.disputes import events as ev
from ledger.disputes.state import OPEN, DisputeState, fold
from ledger.disputes.subjects import Subject, subject_resolve
from ledger.errors import (
    AccessDenied,
    DisputeClosed,
    DisputeExists,
    DisputeWindowClosed,
    FundsHeld,
    HoldExceedsBalance,
    HoldExists,
    InvalidCorrection,
    InvalidInput,
    NotAParty,
    Overdraft,
    PartyCannotDecide,
    UnknownDispute,
)
from ledger.hashing import iso_utc
from ledger.models import Dispute
from ledger.money import InsufficientFunds, balance, may_go_negative
from ledger.selectors import held_on, player_stream
from ledger.store import NewEvent, StoredEvent, StreamWrite, append, read_stream

DISPUTE_LOCK_CLASS = 0x64697370  # "disp": one opener's disputes of one subject queue here
OUTCOMES = ("upheld", "rejected")
# Besides the parties' bankrolls, the accounts of the disputed events a correction may move. Never
# a table's or a tournament's (seat, pot, reserve, bets, chip bank, prize pool): their balances are
# what the engines' own events say, and a transfer behind their backs would split the ledger from
# the table's state. A pot that went to the wrong player is corrected bankroll to bankroll.
CORRECTABLE_KINDS = frozenset({"cashier", "house"})


@dataclass(frozen=True, slots=True)
class Correction:
    """A correcting transfer the auditor orders: `amount` of `unit` from `source` to `target`."""

    source: str
    target: str
    amount: int
    unit: str = "chips"


def role_of(user: User, parties: Sequence[int]) -> str:
    """The capacity in which `user` acts on a dispute: a player of the deal first."""
    if is_player(user) and user.pk in parties:
        return "player"
    if is_club_admin(user):
        return "club_admin"
    if is_auditor(user):
        return "auditor"
    return "outsider"


def dispute_load(dispute_id: object) -> DisputeState:
    try:
        canonical = str(uuid.UUID(str(dispute_id)))
    except ValueError:
        raise UnknownDispute(dispute_id) from None
    state = fold(read_stream(ev.dispute_stream(canonical)))
    if state is None:
        raise UnknownDispute(dispute_id)
    return state


def check_can_see(state: DisputeState, user: User) -> None:
    """Auditors and club admins see every dispute; anyone else only those he is party to, and
    an outsider is told the same as for a dispute that does not exist."""
    if not (is_auditor(user) or is_club_admin(user) or state.is_party(user.pk)):
        raise UnknownDispute(state.dispute_id)


def check_open(state: DisputeState) -> None:
    if state.status != OPEN:
        raise DisputeClosed(f"The dispute is {state.status}.", status=state.status)


# --- open -------------------------------------------------------------------------------------------


def dispute_open(
    *,
    user: User,
    subject: Mapping[str, Any],
    reason: str,
    now: datetime,
    meta: Mapping[str, Any] | None = None,
) -> DisputeState:
    """Open a dispute on a finished deal or a cashier transaction (see docs/disputes.md)."""
    check_text(reason, "reason")
    resolved = subject_resolve(subject)
    role = role_of(user, resolved.parties)
    if role == "outsider":
        raise NotAParty("You may dispute only a deal you played or a transaction of your bankroll.")
    window = timedelta(seconds=settings.GUTS_DISPUTE_WINDOW)
    if now > resolved.ended_at + window:
        raise DisputeWindowClosed(
            f"Disputes on {resolved.label} closed at {iso_utc(resolved.ended_at + window)}."
        )
    dispute_id = str(uuid.uuid4())
    data = {
        "dispute_id": dispute_id,
        "subject": resolved.ref,
        "subject_key": resolved.key,
        "label": resolved.label,
        "reason": reason,
        "opened_by": user.pk,
        "role": role,
        "parties": list(resolved.parties),
        "positions": list(resolved.positions),
        "accounts": list(resolved.accounts),
        "units": list(resolved.units),
        "evidence": list(resolved.evidence),
        "ended_at": iso_utc(resolved.ended_at),
        "deadline": iso_utc(now + window),
    }

    def attempt() -> DisputeState:
        if role == "player":
            _lock_subject(resolved, user.pk)
            if Dispute.objects.filter(subject_key=resolved.key, opened_by=user.pk).exists():
                raise DisputeExists(f"You have disputed {resolved.label} already.")
        stored = append(
            [StreamWrite(ev.dispute_stream(dispute_id), 0, [NewEvent(ev.DISPUTE_OPENED, data)])],
            meta=meta,
            savepoint=False,
        )
        return fold(stored)  # type: ignore[return-value]

    return _with_retries(attempt)


def _lock_subject(subject: Subject, user_id: int) -> None:
    """One player's disputes of one subject queue here, so two at once cannot both be first."""
    if not dbapi.on_postgres():
        return
    key = int.from_bytes(hashlib.sha256(f"{subject.key}:{user_id}".encode()).digest()[:4], "big", signed=True)
    with dbapi.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [DISPUTE_LOCK_CLASS, key])


def check_text(text: object, name: str, *, limit: int = 2000) -> None:
    if not isinstance(text, str) or not text.strip() or len(text) > limit:
        raise InvalidInput(f"{name}: 1 to {limit} characters", errors={name: [f"1 to {limit} characters."]})


# --- hold -------------------------------------------------------------------------------------------


def dispute_hold(
    *,
    user: User,
    dispute_id: object,
    player_id: int,
    amount: int,
    now: datetime,
    meta: Mapping[str, Any] | None = None,
) -> DisputeState:
    """Hold `amount` of the player's bankroll for the dispute: a pending transfer to
    hold:<dispute> that expires at the dispute's deadline. Never more than he has available."""
    _check_staff(user)
    check_amount(amount)

    def attempt() -> DisputeState:
        state = dispute_load(dispute_id)
        check_open(state)
        if state.hold is not None:
            raise HoldExists("This dispute holds chips already.")
        if player_id not in state.parties:
            raise NotAParty(f"Player {player_id} is not a party to this dispute.")
        account = player_account(player_id)
        player_version = lock_bankroll_and_read_version(player_id)
        available = balance(account) - held_on(account)
        if amount > available:
            raise HoldExceedsBalance(f"{account} has {available} chips available; cannot hold {amount}.")
        pending = Transfer(
            account, ev.hold_account(state.dispute_id), amount, f"hold for dispute {state.dispute_id}"
        )
        data = {
            "dispute_id": state.dispute_id,
            "by": user.pk,
            "pending": [pending.to_json()],
            "expires_at": state.opened["deadline"],
        }
        marker = _marker(state, player_id, held=amount, posted=0, cause=ev.HOLD_PLACED)
        return _append(
            state,
            [NewEvent(ev.HOLD_PLACED, data)],
            [StreamWrite(player_stream(player_id), player_version, [marker])],
            meta,
        )

    return _with_retries(attempt)


def _check_staff(user: User) -> None:
    if not (is_club_admin(user) or is_auditor(user)):
        raise AccessDenied("This action needs the auditor or club_admin role.")


def _marker(state: DisputeState, player_id: int, *, held: int, posted: int, cause: str) -> NewEvent:
    return NewEvent(
        ev.BANKROLL_CHANGED,
        {
            "dispute_id": state.dispute_id,
            "player_id": player_id,
            "held": held,
            "posted": posted,
            "cause": cause,
        },
    )


def _append(
    state: DisputeState, events: list[NewEvent], extra: list[StreamWrite], meta: Mapping[str, Any] | None
) -> DisputeState:
    writes = [StreamWrite(ev.dispute_stream(state.dispute_id), state.version, events), *extra]
    try:
        stored = append(writes, meta=meta, savepoint=False)  # `_with_retries` retries the attempt
    except InsufficientFunds as exc:
        raise Overdraft(str(exc), account=exc.account) from exc
    return _after(state, [event for event in stored if event.stream == writes[0].stream])


def _after(state: DisputeState, stored: list[StoredEvent]) -> DisputeState:
    result = fold(list(state.events) + stored)
    assert result is not None
    return result


# --- notes, withdrawal, expiry -------------------------------------------------------------------------


def dispute_note(
    *,
    user: User,
    dispute_id: object,
    text: str,
    evidence: Sequence[str] = (),
    meta: Mapping[str, Any] | None = None,
) -> DisputeState:
    """A party, an admin or an auditor adds a note (and references to evidence) to an open dispute."""
    check_text(text, "text")

    def attempt() -> DisputeState:
        state = dispute_load(dispute_id)
        check_can_see(state, user)
        check_open(state)
        data = {
            "dispute_id": state.dispute_id,
            "by": user.pk,
            "role": role_of(user, state.parties),
            "text": text,
            "evidence": list(evidence),
        }
        return _append(state, [NewEvent(ev.NOTE_ADDED, data)], [], meta)

    return _with_retries(attempt)


def dispute_withdraw(
    *, user: User, dispute_id: object, meta: Mapping[str, Any] | None = None
) -> DisputeState:
    """The opener (or a club admin) withdraws the dispute; its hold is voided."""

    def attempt() -> DisputeState:
        state = dispute_load(dispute_id)
        check_can_see(state, user)
        if user.pk != state.opened_by and not is_club_admin(user):
            raise AccessDenied("Only the opener or a club admin withdraws a dispute.")
        check_open(state)
        return _close(state, ev.WITHDRAWN, {"by": user.pk}, meta)

    return _with_retries(attempt)


def dispute_expire(*, dispute_id: object, now: datetime, meta: Mapping[str, Any] | None = None) -> int:
    """The timer's command: close an undecided dispute at its deadline, voiding its hold. Appends
    nothing (returns 0) if it is closed already or not yet due, so a duplicate delivery is harmless."""

    def attempt() -> int:
        state = dispute_load(dispute_id)
        if state.status != OPEN or now < state.deadline:
            return 0
        _close(state, ev.EXPIRED, {}, meta)
        return 1

    return _with_retries(attempt)


def _close(
    state: DisputeState, event_type: str, data: dict[str, Any], meta: Mapping[str, Any] | None
) -> DisputeState:
    """Close without moving chips: the hold, if pending, is voided."""
    extra = []
    hold = None
    if state.hold is not None and state.hold.status == "pending":
        hold = {"posted": 0, "voided": state.hold.amount}
        extra = [_release_marker(state, cause=event_type)]
    body = {"dispute_id": state.dispute_id, **data, "hold": hold}
    return _append(state, [NewEvent(event_type, body)], extra, meta)


def _release_marker(state: DisputeState, *, cause: str) -> StreamWrite:
    assert state.hold is not None
    player_id = int(state.hold.account.split(":", 1)[1])
    version = lock_bankroll_and_read_version(player_id)
    return StreamWrite(
        player_stream(player_id),
        version,
        [_marker(state, player_id, held=-state.hold.amount, posted=0, cause=cause)],
    )


# --- decide -----------------------------------------------------------------------------------------


def dispute_decide(
    *,
    user: User,
    dispute_id: object,
    outcome: str,
    ruling: str,
    corrections: Sequence[Correction] = (),
    meta: Mapping[str, Any] | None = None,
) -> DisputeState:
    """An auditor who is no party decides: `upheld` with correcting transfers (new transfers that
    reference the disputed positions; the hold is posted to the extent it pays them, the rest
    voided), or `rejected` (the hold voided)."""
    if not is_auditor(user):
        raise AccessDenied("Only an auditor decides a dispute.")
    check_text(ruling, "ruling")
    if outcome not in OUTCOMES:
        raise InvalidInput(f"outcome: one of {OUTCOMES}", errors={"outcome": [f"One of {OUTCOMES}."]})

    def attempt() -> DisputeState:
        state = dispute_load(dispute_id)
        if state.is_party(user.pk):
            raise PartyCannotDecide("You are a party to this dispute; another auditor must decide it.")
        check_open(state)
        _check_corrections(state, outcome, corrections)
        transfers, posted = _correcting_transfers(state, corrections)
        _check_payable(state, transfers)
        pending = state.hold if state.hold is not None and state.hold.status == "pending" else None
        hold = {"posted": posted, "voided": pending.amount - posted} if pending else None
        extra = _bankroll_markers(state, transfers, held=pending.account if pending else None)
        data = {
            "dispute_id": state.dispute_id,
            "by": user.pk,
            "outcome": outcome,
            "ruling": ruling,
            "corrects": state.opened["positions"],
            "hold": hold,
            "transfers": [transfer.to_json() for transfer in transfers],
        }
        return _append(state, [NewEvent(ev.DECIDED, data)], extra, meta)

    return _with_retries(attempt)


def _check_corrections(state: DisputeState, outcome: str, corrections: Sequence[Correction]) -> None:
    if outcome == "rejected":
        if corrections:
            raise InvalidCorrection("A rejected dispute corrects nothing.")
        return
    if not corrections:
        raise InvalidCorrection("An upheld dispute orders at least one correcting transfer.")
    allowed = {player_account(party) for party in state.parties} | {
        account for account in state.opened["accounts"] if account_kind(account) in CORRECTABLE_KINDS
    }
    units = set(state.opened["units"]) | {"chips"}
    for correction in corrections:
        check_amount(correction.amount)
        for account in (correction.source, correction.target):
            if account not in allowed:
                raise InvalidCorrection(
                    f"{account} is not an account of this dispute (allowed: {', '.join(sorted(allowed))})."
                )
        if correction.source == correction.target or correction.unit not in units:
            raise InvalidCorrection("A correction moves chips of the dispute's unit between two accounts.")


def _correcting_transfers(
    state: DisputeState, corrections: Sequence[Correction]
) -> tuple[list[Transfer], int]:
    """The transfers of a decision, and how much of the hold they post. Chips from the held
    account go through hold:<dispute> (the pending transfer posted, then paid on), up to the hold."""
    hold = state.hold if state.hold is not None and state.hold.status == "pending" else None
    left = hold.amount if hold else 0
    escrow = ev.hold_account(state.dispute_id)
    reason = (
        f"dispute {state.dispute_id}: correction of {state.opened['label']} (events "
        + ", ".join(f"#{p}" for p in state.opened["positions"])
        + ")"
    )
    transfers = []
    for correction in corrections:
        amount = correction.amount
        if hold and correction.source == hold.account and correction.unit == hold.unit and left:
            posted = min(left, amount)
            left -= posted
            transfers += [
                Transfer(hold.account, escrow, posted, f"dispute {state.dispute_id}: hold posted", hold.unit),
                Transfer(escrow, correction.target, posted, reason, hold.unit),
            ]
            amount -= posted
        if amount:
            transfers.append(Transfer(correction.source, correction.target, amount, reason, correction.unit))
    return transfers, (hold.amount - left) if hold else 0


def _check_payable(state: DisputeState, transfers: list[Transfer]) -> None:
    """Refuse, before appending, corrections an account cannot pay: insufficient_funds if it has
    not the chips, funds_held if other disputes hold them (this dispute's own hold pays)."""
    net: dict[tuple[str, str], int] = {}
    for transfer in transfers:
        net[(transfer.source, transfer.unit)] = net.get((transfer.source, transfer.unit), 0) - transfer.amount
        net[(transfer.target, transfer.unit)] = net.get((transfer.target, transfer.unit), 0) + transfer.amount
    own = state.hold if state.hold is not None and state.hold.status == "pending" else None
    for (account, unit), change in sorted(net.items()):
        if change >= 0 or may_go_negative(account):
            continue
        posted = balance(account, unit)
        held = held_on(account, unit) - (
            own.amount if own and (own.account, own.unit) == (account, unit) else 0
        )
        if posted + change < 0:
            raise Overdraft(
                f"{account} holds {posted} {unit}; the corrections take {-change}.", account=account
            )
        if posted + change < held:
            raise FundsHeld(
                f"{account} holds {posted} {unit}, of which {held} are held by other disputes.",
                account=account,
            )


def _bankroll_markers(state: DisputeState, transfers: list[Transfer], held: str | None) -> list[StreamWrite]:
    """A marker on each bankroll the decision moves or releases, locked in id order (two decisions
    never wait for each other's locks in opposite orders)."""
    moved: dict[int, int] = {}
    if held is not None:
        moved[int(held.split(":", 1)[1])] = 0
    for transfer in transfers:
        for account, sign in ((transfer.source, -1), (transfer.target, 1)):
            if account_kind(account) == "player":
                player = int(account.split(":", 1)[1])
                moved[player] = moved.get(player, 0) + sign * transfer.amount
    writes = []
    for player in sorted(moved):
        version = lock_bankroll_and_read_version(player)
        released = -state.hold.amount if held == player_account(player) and state.hold else 0
        writes.append(
            StreamWrite(
                player_stream(player),
                version,
                [_marker(state, player, held=released, posted=moved[player], cause=ev.DECIDED)],
            )
        )
    return writes
