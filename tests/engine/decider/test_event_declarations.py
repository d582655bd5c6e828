"""Events declare themselves: the type name is the class's (one place), the secret keys and their
audience sit on the class, and `visibility` reads the declarations (DESIGN §2.2, §2.6)."""

from __future__ import annotations

import random

from tables.engine import fairdeck
from tables.engine.decider import commands as cmd
from tables.engine.decider import events as ev
from tables.engine.decider.visibility import Viewer, may_see, redact_event, secret_keys
from tables.engine.deck import STANDARD_PACK
from tests.engine.decider.helpers import table

AUDITOR = Viewer(None, "auditor")


def secret_deck(rng: random.Random) -> fairdeck.SecretDeck:
    cards = [str(card) for card in STANDARD_PACK]
    rng.shuffle(cards)
    return fairdeck.SecretDeck(tuple(cards), tuple(f"{rng.getrandbits(128):032x}" for _ in cards))


def test_every_event_class_is_registered_under_its_own_name() -> None:
    import tournaments.engine.events as tev

    assert {cls.__name__: cls for cls in ev.EVENT_TYPES} == ev.BY_TYPE
    assert "Unknown" not in ev.REGISTRY
    assert "" not in ev.REGISTRY
    assert ev.DEAL_STARTED == ev.DealStarted.TYPE == "DealStarted"
    assert set(tev.EVENT_TYPES) <= set(ev.REGISTRY)
    assert tev.EVENT_TYPES["TournamentCreated"] is tev.TournamentCreated
    assert not set(tev.EVENT_TYPES) & set(ev.BY_TYPE)  # the table catalogue stays the table's


def test_the_tournament_seating_seed_is_declared_secret_by_its_own_class() -> None:
    import tournaments.engine.events as tev

    data = tev.TournamentCreated("t", {}, "c", seating_seed="s").to_json()
    assert secret_keys("TournamentCreated", data) == ("seating_seed",)
    assert not may_see("TournamentCreated", data, AUDITOR, deal_over=True)
    assert secret_keys("TournamentCreated", {**data, "seating_seed": None}) == ()


def test_d_gen_02_a_reshuffled_stocks_salts_stay_sealed_with_its_cards() -> None:
    """The salts of a reshuffled stock beside its public Merkle root would let anyone try the few
    orders of a small stock against the root: they are sealed with the cards, and opened only
    to auditors once the deal is over."""
    players = "abcdefghijklmnopqrstuvwxy"  # 25: the stock runs out during the draws
    rng = random.Random(7)
    session = table(players, exchange="draw", ante=1, seats=25, declare_mode="simultaneous")
    first = len(session.events)
    session.do(cmd.StartDeal(deck=secret_deck(rng), next_deck=secret_deck(rng)))
    deal = session.state.live
    assert deal is not None
    for player in deal.order:
        hand = list(session.state.live.hand_of(player))
        session.do(cmd.Exchange(player, 1, hand, salts=fairdeck.new_salts(52)))
    reshuffled = next(e for e in session.events[first:] if e.type == "StockReshuffled")
    assert reshuffled.salts
    data = reshuffled.to_json()
    assert set(secret_keys("StockReshuffled", data)) == {"cards", "salts"}
    for viewer in (Viewer("a"), Viewer("zz"), Viewer(None, "admin")):
        for over in (False, True):
            shown = redact_event("StockReshuffled", data, viewer, deal_over=over)
            assert shown["salts"] is None
            assert shown["cards"] is None
            assert shown["root"] == reshuffled.root
            assert shown["count"] == reshuffled.count
    assert redact_event("StockReshuffled", data, AUDITOR, deal_over=True)["salts"] == reshuffled.salts
    assert redact_event("StockReshuffled", data, AUDITOR, deal_over=False)["salts"] is None
