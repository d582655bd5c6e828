"""Buddha's Folly (RULES.md §13: BF-01..07, D-BF-01), given/when/then on the pure decider.

Players "abc": the first dealer is a, so cards go b, c, a, five each; then the stock's top card is
the middle card (`deck`). Ante 10: the pot is 30.
"""

from __future__ import annotations

from tables.engine.decider.commands import Declare, ExpireDeclare, Offer
from tables.engine.decider.events import (
    CARDS_DEALT,
    DECLARE_OPENED,
    GAME_ENDED,
    MIDDLE_CARD_TURNED,
    OFFER_ANSWERED,
    OFFER_OPENED,
    POT_SETTLED,
    SHOWDOWN_HELD,
)
from tables.engine.decider.view import Viewer, legal_actions, phase, redact_event, table_view
from tables.engine.decider.visibility import secret_keys
from tables.engine.variants import get_variant

from .helpers import T0, Session, later, of_type, one, stack_deck, start, table, transfers

ANTE = 10
HANDS = ("Ah Kh Qh Jh 2c", "9s 9d 4c 5d 7d", "As Ks 8s 8d 2d")  # b, c, a (dealer a)
MIDDLE = "Th"  # b's royal flush if he takes it


def bf(middle: str = MIDDLE, hands: tuple[str, ...] = HANDS, **options: object) -> Session:
    options.setdefault("ante", ANTE)
    return table("abc", decks=[[*stack_deck(*hands), middle]], variant="buddhas_folly", **options)


def offered(session: Session, *moves: str) -> list:
    """Each move "name" (leave) or "name:card" (take, giving that card), in turn."""
    out: list = []
    for move in moves:
        name, _, card = move.partition(":")
        out += session.do(Offer(name, 1, "take" if card else "leave", card or None))
    return out


def test_bf_01_five_cards_each() -> None:
    session = bf()
    events = start(session)
    assert [(e.data["player"], e.data["cards"]) for e in of_type(events, CARDS_DEALT)] == [
        ("b", HANDS[0].split()),
        ("c", HANDS[1].split()),
        ("a", HANDS[2].split()),
    ]


def test_bf_02_the_dealer_turns_the_top_card_up_and_offers_it_to_his_left() -> None:
    session = bf()
    events = start(session)
    turned = one(events, MIDDLE_CARD_TURNED)
    assert turned.data["card"] == MIDDLE
    assert secret_keys(turned.type, turned.data) == ()  # public at once
    assert (one(events, OFFER_OPENED).data["player"], one(events, OFFER_OPENED).data["card"]) == ("b", MIDDLE)
    assert phase(session.state) == "offer"
    assert session.state.live.dealt == 16


def test_bf_03_taking_the_card_puts_one_of_his_own_face_up_in_its_place() -> None:
    session = bf()
    start(session)
    events = offered(session, "b:2c")
    answered = one(events, OFFER_ANSWERED).data
    assert (answered["action"], answered["card"], answered["gave"]) == ("take", "Th", "2c")
    assert secret_keys(OFFER_ANSWERED, answered) == ()  # both cards public
    assert sorted(session.state.live.hand_of("b")) == sorted(["Ah", "Kh", "Qh", "Jh", "Th"])
    opened = one(events, OFFER_OPENED).data
    assert (opened["player"], opened["card"]) == ("c", "2c")


def test_bf_03_leaving_the_card_passes_the_offer_on() -> None:
    session = bf()
    start(session)
    events = offered(session, "b")
    assert one(events, OFFER_ANSWERED).data["action"] == "leave"
    assert one(events, OFFER_OPENED).data["player"] == "c"
    assert session.state.live.hand_of("b") == tuple(HANDS[0].split())


def test_bf_03_a_take_must_give_a_card_of_his_own_hand() -> None:
    session = bf()
    start(session)
    assert session.fails(Offer("b", 1, "take", "9s")) == "card_not_held"
    assert session.fails(Offer("b", 1, "take", "Zz")) == "invalid_card"
    assert session.fails(Offer("b", 1, "take", None)) == "invalid_card"
    assert session.fails(Offer("b", 1, "swap", "2c")) == "invalid_choice"
    assert session.fails(Offer("b", 1, "leave", "2c")) == "invalid_card"
    assert session.fails(Offer("c", 1, "leave")) == "not_your_turn"
    assert session.fails(Declare("b", 1, "in")) == "not_your_turn"


def test_bf_04_d_bf_01_the_offering_ends_when_everyone_declined_the_card_once() -> None:
    session = bf()
    start(session)
    events = offered(session, "b", "c")
    assert not of_type(events, DECLARE_OPENED)
    events = offered(session, "a")  # the dealer last
    assert one(events, DECLARE_OPENED).data["mode"] == "simultaneous"  # BF-05


def test_d_bf_01_after_a_take_the_round_is_of_everyone_but_the_giver() -> None:
    session = bf()
    start(session)
    events = offered(session, "b:2c", "c:4c")  # c takes b's two
    last = of_type(events, OFFER_OPENED)[-1].data
    assert (last["player"], last["card"]) == ("a", "4c")
    events = offered(session, "a", "b")  # c is not offered his own
    assert one(events, DECLARE_OPENED).data["players"] == ["b", "c", "a"]
    view = table_view(session.state, Viewer("a"), T0)["deal"]["offer"]
    assert view == {
        "middle": "4c",
        "turn": None,
        "declined": 2,
        "exchanges": [
            {"player": "b", "took": "Th", "gave": "2c"},
            {"player": "c", "took": "2c", "gave": "4c"},
        ],
    }


def test_bf_04_a_timeout_leaves_the_card() -> None:
    session = bf()
    start(session)
    events = session.do(ExpireDeclare(1), later(31))
    answered = one(events, OFFER_ANSWERED).data
    assert (answered["player"], answered["action"], answered["timed_out"]) == ("b", "leave", True)
    assert session.do(ExpireDeclare(1), later(31)) == []  # c's turn is not overdue


def test_bf_03_the_offer_action_lists_the_card_and_the_cards_to_give() -> None:
    session = bf()
    start(session)
    action = next(a for a in legal_actions(session.state, "b", T0) if a["action"] == "offer")
    assert (action["choices"], action["card"], action["give"]) == (
        ["take", "leave"],
        MIDDLE,
        HANDS[0].split(),
    )
    assert not [a for a in legal_actions(session.state, "c", T0) if a["action"] == "offer"]


def test_bf_03_the_rest_of_each_hand_stays_private() -> None:
    session = bf()
    start(session)
    offered(session, "b:2c")
    players = {p["player"]: p for p in table_view(session.state, Viewer("c"), T0)["deal"]["players"]}
    assert players["b"]["cards"] is None
    assert players["c"]["cards"] == HANDS[1].split()
    dealt = of_type(session.events, CARDS_DEALT)[0]
    assert redact_event(dealt.type, dealt.data, Viewer("c"), deal_over=False)["cards"] is None


def test_bf_05_bf_06_coin_declare_then_standard_poker_and_the_others_match() -> None:
    session = bf()
    start(session)
    offered(session, "b:2c", "c", "a")
    events = session.declare(1, ("b", "in"), ("c", "in"), ("a", "in"))
    showdown = one(events, SHOWDOWN_HELD).data
    assert [h["category"] for h in showdown["hands"]] == ["straight_flush", "pair", "pair"]  # D-BF-01
    assert showdown["winners"] == ["b"]
    assert transfers(of_type(events, POT_SETTLED)) == [
        ("pot", "seat:b", 30),
        ("seat:c", "pot", 30),
        ("seat:a", "pot", 30),
    ]
    assert not of_type(events, GAME_ENDED)


def test_bf_07_the_game_ends_when_a_single_player_declares_in() -> None:
    session = bf()
    start(session)
    offered(session, "b", "c", "a")
    events = session.declare(1, ("b", "out"), ("c", "in"), ("a", "out"))
    assert transfers(of_type(events, POT_SETTLED)) == [("pot", "seat:c", 30)]
    assert one(events, GAME_ENDED).data["reason"] == "uncontested"


def test_bf_variant_is_data() -> None:
    variant = get_variant("buddhas_folly")
    assert [s.kind for s in variant.program] == [
        "ante",
        "deal",
        "offer",
        "declare",
        "all_out",
        "showdown",
        "settle",
    ]
    assert variant.max_seats == 10  # D-GEN-02: 5 each + 1
    assert variant.game_ends == "lone_in_wins"
    assert "declare_mode" not in variant.option_index  # Coin Declare only
