"""Italian poker over random sessions on PostgreSQL (D-IT-02, IT-14, DESIGN §2.4, §2.5): the
service plays random deals of 2 to 6 players (every bet, draw and split the server offers, and
turns that time out), and after every command the ledger conserves (`check_conservation`), the
pot, every side pot and the bets account hold what the folded state says; no card is dealt twice
(reshuffles included); each pot is paid only to players still in who contributed to it, from its
own account; the state loaded from the last snapshot and the tail equals the fold of the whole
log; and rebuilding every projection from the stored events equals the live projections."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger.models import AccountBalance
from ledger.money import balance, check_conservation
from ledger.projections import rebuild_all
from ledger.store import read_stream
from tables import service
from tables.engine.decider import commands as cmd
from tables.engine.decider import events as ev
from tables.engine.decider.evolve import fold
from tables.engine.decider.state import TableState
from tables.engine.decider.view import legal_actions
from tables.engine.deck import STANDARD_PACK
from tables.engine.fairdeck import SecretDeck, new_salts
from tables.state import cache, load_table
from tests.tables.test_rebuild import COMPARED, rows

pytestmark = pytest.mark.django_db


@contextmanager
def _decks_from(seed: int) -> Iterator[None]:
    """The service's secret decks drawn from `seed` (the OS CSPRNG otherwise), so that hypothesis
    replays an example exactly; the salts stay random (they change no card)."""
    rng = random.Random(seed)

    def deck() -> SecretDeck:
        cards = [str(card) for card in STANDARD_PACK]
        rng.shuffle(cards)
        return SecretDeck(tuple(cards), new_salts(len(cards)))

    with mock.patch.object(service, "new_secret_deck", deck):
        yield


def _check_accounts(table: str, state: TableState) -> None:
    """The ledger's balances of the table's accounts are the folded state's (D-IT-02)."""
    assert balance(f"pot:{table}") == state.pot
    assert balance(f"bets:{table}") == state.bets
    sides = dict(
        AccountBalance.objects.filter(account__startswith=f"sidepot:{table}:").values_list(
            "account", "balance"
        )
    )
    assert {a: b for a, b in sides.items() if b} == {
        f"sidepot:{table}:{n}": chips for n, chips in enumerate(state.side_pots, start=1) if chips
    }
    for seat in state.seats:
        assert balance(f"seat:{table}:{seat.player}") == seat.stack >= 0
    deal = state.live
    if deal is not None:
        held = [card for hand in deal.hands for card in hand]
        assert len(held) == len(set(held)), held  # no card twice, reshuffles included (IT-14)
        assert not set(held) & set(deal.discards)


def _check_award(table: str, data: dict[str, Any]) -> None:
    """Each pot to eligible contributors only, paid from its own account."""
    for pot in data["pots"]:
        assert pot["winners"]
        assert set(pot["winners"]) <= set(pot["eligible"]) <= set(pot["contributors"])
        assert sum(pot["shares"].values()) == pot["amount"]
        account = f"pot:{table}" if pot["pot"] == 0 else f"sidepot:{table}:{pot['pot']}"
        reason = "pot" if pot["pot"] == 0 else f"side_pot_{pot['pot']}"
        paid = [t for t in data["transfers"] if t["reason"] == reason]
        assert {t["from"] for t in paid} <= {account}
        assert sum(t["amount"] for t in paid) == pot["amount"]


def _command(data: st.DataObject, state: TableState, offer: dict[str, Any], player: str) -> Any:
    deal_no = state.deal_no
    if offer["action"] == "exchange":
        hand = list(state.live.hand_of(player))  # type: ignore[union-attr]
        discards = data.draw(st.permutations(hand), label="order")[: data.draw(st.integers(0, offer["max"]))]
        split = bool(set(discards) & set(offer.get("openers", ())))
        return cmd.Exchange(player, deal_no, discards, split_openers=split)
    staying = [c for c in offer["choices"] if c != "fold"] or offer["choices"]  # all-ins, side pots
    choices = offer["choices"] if data.draw(st.integers(0, 7), label="may fold") == 0 else staying
    action = data.draw(st.sampled_from(choices), label="bet")
    low, most = offer["amounts"][action], offer.get("most", {}).get(action, offer["amounts"][action])
    amount = data.draw(st.one_of(st.just(most), st.integers(low, most)), label="amount")
    return cmd.Bet(player, deal_no, action, amount)


def _play(data: st.DataObject, funded_player: Callable[..., int]) -> str:
    players = data.draw(st.integers(2, 6), label="players")
    limit = data.draw(st.sampled_from(["fixed", "pot"]), label="limit")
    table = service.table_open(
        variant="italian", options={"ante": 5, "min_buy_in": 10, "limit": limit}
    ).table_id
    for _ in range(players):
        buy_in = data.draw(st.integers(10, 50), label="buy_in")
        service.table_command(table_id=table, command=cmd.SitDown(str(funded_player(1000)), buy_in))
    clock = timezone.now()
    for _deal in range(data.draw(st.integers(1, 3), label="deals")):
        if len([s for s in load_table(table).state.seats if s.stack >= 5]) < 2:
            break
        service.table_command(table_id=table, command=cmd.StartDeal(), now=clock)
        for _turn in range(200):
            state = load_table(table).state
            deal = state.live
            if deal is None:
                break
            player = deal.awaiting[0]
            offers = [a for a in legal_actions(state, player, clock) if a["action"] in ("bet", "exchange")]
            if not offers or data.draw(st.integers(0, 15), label="timeout") == 0:
                clock += timedelta(hours=1)
                result = service.deal_expire(table_id=table, deal_no=deal.deal_no, now=clock)
            else:
                result = service.table_command(
                    table_id=table, command=_command(data, state, offers[0], player)
                )
            for event in result.events:
                if event.type == ev.POTS_AWARDED:
                    _check_award(table, event.data)
            _check_accounts(table, load_table(table).state)
            assert check_conservation() == []
        assert load_table(table).state.live is None
    return table


@settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_d_it_02_random_sessions_conserve_and_rebuild_equals_live(
    data: st.DataObject, funded_player: Callable[..., int]
) -> None:
    with _decks_from(data.draw(st.integers(0, 2**32), label="decks")):
        table = _play(data, funded_player)
    state = load_table(table).state
    stored = [ev.parse(e.type, e.data) for e in read_stream(f"table-{table}")]
    assert fold(stored) == state  # snapshot + tail (load_table) = the full fold
    live = {model: rows(model, key) for model, key in COMPARED}
    rebuild_all()
    for model, key in COMPARED:
        assert rows(model, key) == live[model], model.__name__
    cache.clear()
    assert load_table(table).state == state
    assert check_conservation() == []
