"""The timeouts of Buddha's Folly's offer and Wolfie's Lou's trump and tricks with a real Celery
worker and beat, Redis and PostgreSQL (DESIGN §2.8): nobody acts, and every turn times out within
its deadline + 1 s by the rule of its kind (BF: the card is left; WL: the trump is no_trump, a
play is the lowest legal card), turn after turn, to the settlement.
"""

from __future__ import annotations

import pytest

from tables import service
from tables.engine.decider import commands as cmd
from tests.e2e.conftest import CeleryStack
from tests.e2e.helpers import MARGIN, TIMEOUT, deadline_of, events, players, wait_for_events

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.e2e,
    pytest.mark.xdist_group("e2e-timers"),
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fast_password_hashing"),
]


def open_table(variant: str) -> str:
    table = service.table_open(variant=variant, options={"ante": 10, "declare_timeout": TIMEOUT}).table_id
    for player in players(3):
        service.table_command(table_id=table, command=cmd.SitDown(str(player), 200))
    service.table_command(table_id=table, command=cmd.StartDeal())
    return table


def test_bf_every_offer_left_alone_times_out_and_leaves_the_card(timers: CeleryStack) -> None:
    table = open_table("buddhas_folly")
    answered = wait_for_events(table, "OfferAnswered", 3, 3 * TIMEOUT + 5)
    opened = events(table, "OfferOpened")
    for turn, expired in zip(opened, answered, strict=True):
        assert (expired.data["action"], expired.data["timed_out"]) == ("leave", True)
        assert deadline_of(turn) <= expired.recorded_at <= deadline_of(turn) + MARGIN
    assert wait_for_events(table, "DeclareTimedOut", 1, TIMEOUT + 5)  # then the coin declare


def test_wl_the_trump_and_every_card_time_out_to_the_settlement(timers: CeleryStack) -> None:
    table = open_table("wolfies_lou")
    order = events(table, "DealStarted")[0].data["participants"]
    for player in order:
        service.table_command(table_id=table, command=cmd.Exchange(player, 1, []))
    for player in order:
        service.table_command(table_id=table, command=cmd.Declare(player, 1, "in"))
    [chosen] = wait_for_events(table, "TrumpChosen", 1, TIMEOUT + 5)
    assert (chosen.data["trump"], chosen.data["timed_out"]) == ("no_trump", True)
    played = wait_for_events(table, "CardPlayed", 15, 15 * TIMEOUT + 15)
    for turn, expired in zip(events(table, "PlayOpened"), played, strict=True):
        assert expired.data["timed_out"]
        assert deadline_of(turn) <= expired.recorded_at <= deadline_of(turn) + MARGIN
    assert len(events(table, "TrickWon")) == 5
    assert wait_for_events(table, "PotSettled", 1, 5)
