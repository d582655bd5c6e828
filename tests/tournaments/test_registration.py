"""Registration, unregistration and cancellation through the service (3):
cash moves by transfers in one transaction with the bankroll marker; refusals append nothing."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest

from ledger.errors import Overdraft
from ledger.money import balance, check_conservation
from ledger.selectors import player_stream
from ledger.store import count_events, read_stream
from tournaments import service
from tournaments.engine.errors import DomainError
from tournaments.models import TournamentView

from .conftest import T0, tournament_fields


def create(**changes: object) -> str:
    return service.tournament_create(fields=tournament_fields(**changes), now=T0).tournament_id


def test_registration_moves_buy_in_and_fee_and_marks_the_bankroll(funded_player: Callable[..., int]) -> None:
    player = funded_player(1000)
    tid = create()
    service.tournament_register(tournament_id=tid, player_id=player, now=T0)
    assert balance(f"player:{player}") == 890
    assert balance(f"prizepool:{tid}") == 100
    assert balance("house") == 10
    marker = read_stream(player_stream(player))[-1]
    assert marker.type == "TournamentBankrollMoved"
    assert marker.data["tournament_id"] == tid
    assert marker.data["amount"] == -110
    assert TournamentView.objects.get(tournament_id=tid).entrants == 1
    assert check_conservation() == []


def test_insufficient_funds_is_refused_and_appends_nothing(funded_player: Callable[..., int]) -> None:
    poor = funded_player(50)
    tid = create()
    before = count_events()
    with pytest.raises(Overdraft) as refused:
        service.tournament_register(tournament_id=tid, player_id=poor, now=T0)
    assert refused.value.code == "insufficient_funds"
    assert count_events() == before
    assert balance(f"player:{poor}") == 50


def test_register_twice_is_refused(funded_player: Callable[..., int]) -> None:
    player = funded_player()
    tid = create()
    service.tournament_register(tournament_id=tid, player_id=player, now=T0)
    with pytest.raises(DomainError) as refused:
        service.tournament_register(tournament_id=tid, player_id=player, now=T0)
    assert refused.value.code == "already_registered"
    assert balance(f"player:{player}") == 10_000 - 110


def test_unregister_and_cancel_refund_every_chip(funded_player: Callable[..., int]) -> None:
    players = [funded_player() for _ in range(3)]
    tid = create()
    for player in players:
        service.tournament_register(tournament_id=tid, player_id=player, now=T0)
    service.tournament_unregister(tournament_id=tid, player_id=players[0], now=T0)
    assert balance(f"player:{players[0]}") == 10_000
    result = service.tournament_cancel(tournament_id=tid, now=T0)
    assert result.state.status == "cancelled"
    assert [balance(f"player:{p}") for p in players] == [10_000] * 3
    assert balance(f"prizepool:{tid}") == 0
    assert balance("house") == 0
    assert TournamentView.objects.get(tournament_id=tid).status == "cancelled"
    assert check_conservation() == []


def test_the_start_time_with_too_few_entrants_cancels_and_refunds(funded_player: Callable[..., int]) -> None:
    players = [funded_player() for _ in range(2)]
    tid = create()
    for player in players:
        service.tournament_register(tournament_id=tid, player_id=player, now=T0)
    early = service.tournament_tick(tournament_id=tid, now=T0 - timedelta(minutes=1))
    assert early.state.status == "registering"
    with pytest.raises(DomainError) as refused:
        service.tournament_start(tournament_id=tid, now=T0)
    assert refused.value.code == "not_enough_entrants"
    late = service.tournament_tick(tournament_id=tid, now=T0.replace(hour=2))
    assert late.state.status == "cancelled"
    assert [balance(f"player:{p}") for p in players] == [10_000] * 2
