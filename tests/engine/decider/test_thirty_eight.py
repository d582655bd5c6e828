"""Thirty Eight (RULES.md §13): T38-01..05, EX-08, Q-T38-01/02 and D-T38-01, given/when/then on
the pure decider with stacked decks.

Players "abcde" sit in seats 0..4; the first dealer is a, so cards go b, c, d, e, a. EX-08's
players 1..5 are b, c, d, e, a (player 3, d, is "out").
"""

from __future__ import annotations

from tables.engine.decider.commands import Declare, ExpireDeclare, SitDown
from tables.engine.decider.events import (
    CARDS_DEALT,
    DEAL_ENDED,
    ESCALATED,
    ESCALATION_OPENED,
    GAME_ENDED,
    POT_SETTLED,
    SHOWDOWN_HELD,
)
from tables.engine.decider.money import Round
from tables.engine.decider.settlement import RULES
from tables.engine.decider.steps.escalation import Escalate, escalation_of
from tables.engine.decider.view import Viewer, legal_actions, table_view
from tables.engine.decider.visibility import secret_keys
from tables.engine.variants import get_variant, validate_options

from .helpers import T0, Session, facts, later, of_type, one, stack_deck, start, table, transfers

FILL = ["2c", "2d", "2h", "4c", "4d", "4h", "5c", "5d", "6c", "6d"]  # the two more cards, unused


def five(*hands: str) -> list[str]:
    """Three cards each in deal order, then two more each in deal order (T25-01, T25-02)."""
    split = [h.split() for h in hands]
    first = stack_deck(*(" ".join(h[:3]) for h in split))
    return [*first, *stack_deck(*(" ".join(h[3:]) for h in split))]


def game(*decks: list[str], players: str = "abc", **options: object) -> Session:
    return table(players, decks=decks, variant="thirty_eight", buy_in=200, **options)


def escalate(session: Session, deal_no: int, *moves: tuple[str, str]) -> list:
    out: list = []
    for player, action in moves:
        out += session.do(Escalate(player, deal_no, action))
    return out


def awaiting(session: Session) -> tuple[str, ...]:
    deal = session.state.deal
    assert deal is not None
    return deal.awaiting


# b: aces full, c: kings, a: queens (no wild cards among them)
HANDS = ("As Ad Ac Kd Kc", "Ks Kh 9c 7d 2s", "Qs Qh Jc 6s 4s")


# --- T38-01, T38-02: Three to Five with 3s and 8s wild ---------------------------------------------


def test_t38_01_three_cards_then_two_more_for_the_in_players() -> None:  # T25-01, T25-02
    session = game(five(*HANDS))
    dealt = of_type(start(session), CARDS_DEALT)
    assert [(e.data["player"], len(e.data["cards"])) for e in dealt] == [("b", 3), ("c", 3), ("a", 3)]
    new = session.declare(1, ("b", "in"), ("c", "out"), ("a", "in"))
    dealt = of_type(new, CARDS_DEALT)
    assert [(e.data["player"], len(e.data["cards"])) for e in dealt] == [("b", 5), ("a", 5)]
    assert one(new, ESCALATION_OPENED).data["player"] == "b"


def test_t38_01_a_lone_in_takes_the_pot_without_more_cards() -> None:  # G2-11, T25-03
    session = game(five(*HANDS))
    start(session)
    new = session.declare(1, ("b", "out"), ("c", "in"), ("a", "out"))
    assert facts(new)[-3:] == [POT_SETTLED, DEAL_ENDED, GAME_ENDED]  # G2-15: the pot is empty
    assert transfers(new) == [("pot", "seat:c", 3)]
    assert not of_type(new, ESCALATION_OPENED)


def test_t38_02_threes_and_eights_are_wild() -> None:
    # b: 3 and 8 wild with A A K: four aces beats c's natural three kings
    session = game(five("As Ad 3c 8d Kc", "Ks Kh Kd 7d 2s", "Qs Qh Jc 6s 4s"))
    start(session)
    session.declare(1, ("b", "in"), ("c", "in"), ("a", "out"))
    new = escalate(session, 1, ("b", "single"), ("c", "single"))
    shown = one(new, SHOWDOWN_HELD).data
    assert shown["winners"] == ["b"]
    assert shown["hands"][0]["category"] in ("four_of_a_kind", "five_of_a_kind")


def test_t38_02_the_variant_is_data() -> None:  # T38-01, T38-02, D-T38-01
    variant = get_variant("thirty_eight")
    kinds = [s.kind for s in variant.program]
    assert kinds == ["ante", "deal", "declare", "lone_in", "deal", "escalation", "showdown", "settle"]
    showdown = variant.program[6]
    assert showdown.param("wild", variant.defaults) == (3, 8)
    assert showdown.param("ranking", variant.defaults) == "poker"
    assert variant.max_seats == 10  # D-GEN-02: five cards each


# --- T38-03, Q-T38-02, D-T38-01: the escalation ----------------------------------------------------


def test_t38_03_turns_go_clockwise_among_in_players_from_the_dealers_left() -> None:  # D-T38-01
    session = game(five(*HANDS, "Js Jh Tc 9s 9h"), players="abcd")  # order b, c, d, a
    start(session)
    session.declare(1, ("b", "out"), ("c", "in"), ("d", "in"), ("a", "in"))
    assert awaiting(session) == ("c",)
    escalate(session, 1, ("c", "single"))
    assert awaiting(session) == ("d",)
    escalate(session, 1, ("d", "double"))
    assert awaiting(session) == ("a",)
    escalate(session, 1, ("a", "double"))
    assert awaiting(session) == ("c",)  # round again: c said single


def test_t38_03_everyone_accepting_single_ends_the_escalation() -> None:
    session = game(five(*HANDS))
    start(session)
    session.declare(1, ("b", "in"), ("c", "in"), ("a", "in"))
    new = escalate(session, 1, ("b", "single"), ("c", "single"), ("a", "single"))
    settled = one(new, POT_SETTLED).data
    assert settled["winners"] == ["b"]
    assert transfers(new) == [("pot", "seat:b", 3), ("seat:c", "pot", 3), ("seat:a", "pot", 3)]


def test_t38_03_a_player_who_said_single_may_raise_later() -> None:  # EX-08 step 5
    session = game(five(*HANDS))
    start(session)
    session.declare(1, ("b", "in"), ("c", "in"), ("a", "in"))
    escalate(session, 1, ("b", "single"), ("c", "double"), ("a", "double"))
    escalate(session, 1, ("b", "triple"))
    assert session.state.deal is not None
    assert escalation_of(session.state.deal).esc_level == 3
    assert awaiting(session) == ("c",)


def test_t38_03_a_raise_may_skip_a_level() -> None:
    session = game(five(*HANDS))
    start(session)
    session.declare(1, ("b", "in"), ("c", "in"), ("a", "in"))
    escalate(session, 1, ("b", "triple"))
    assert session.state.deal is not None
    assert escalation_of(session.state.deal).esc_level == 3


def test_t38_03_triple_is_the_maximum_and_lowering_is_refused() -> None:  # D-T38-01
    session = game(five(*HANDS))
    start(session)
    session.declare(1, ("b", "in"), ("c", "in"), ("a", "in"))
    assert session.fails(Escalate("b", 1, "quadruple")) == "invalid_choice"
    escalate(session, 1, ("b", "double"))
    assert session.fails(Escalate("c", 1, "single")) == "level_too_low"
    assert session.fails(Escalate("b", 1, "triple")) == "not_your_turn"  # out of turn
    assert session.fails(Escalate("a", 1, "double")) == "not_your_turn"
    assert session.fails(Escalate("c", 2, "double")) == "wrong_deal"
    assert session.fails(Escalate("z", 1, "double")) == "not_seated"
    escalate(session, 1, ("c", "triple"))
    assert session.fails(Escalate("a", 1, "double")) == "level_too_low"


def test_t38_03_no_escalation_outside_its_step() -> None:
    session = game(five(*HANDS))
    start(session)
    assert session.fails(Escalate("b", 1, "single")) == "not_your_turn"  # still declaring


# --- T38-04, T38-05, EX-08, D-T38-01: who pays what -------------------------------------------------


def test_ex_08_thirty_eight_exactly() -> None:  # EX-08, T38-03..05, Q-T38-01/02, D-T38-01
    first = [*stack_deck("2s 5h 7c", "Kh Kd 4c"), "9h", "9d", "Qs", "Js"]
    second = five(
        "As Ad Ac Kd Kc",  # player 1 (c): aces full, the best hand
        "Ks Kh 9c 7d 2h",  # player 2 (d): a pair of kings
        "Qs Qh Jc 6s 4s",  # player 3 (e): out
        "Js Jh Tc 9s 7h",  # player 4 (x)
        "Th Td 9d 6h 5s",
    )  # player 5 (b)
    session = table(
        "x",
        decks=[first, second],
        variant="thirty_eight",
        buy_in=100,
        min_buy_in=1,
        stack_policy="pay_what_you_have",
    )
    session.do(SitDown("y", 2))
    # Given a pot of $1: y and x ante 1 each, both "in", x wins, y pays the 1 chip he has left
    # (D-GEN-06 pay_what_you_have) and, broke, is not dealt in again.
    start(session)
    session.declare(1, ("y", "in"), ("x", "in"))
    escalate(session, 1, ("y", "single"), ("x", "single"))
    assert (session.state.pot, session.stack("y")) == (1, 0)
    for player in "bcde":
        session.do(SitDown(player, 100))
    # b deals deal 2; no ante (the pot is not empty, G2-05): the order is c, d, e, x, b, EX-08's
    # players 1 to 5. Players 1, 2, 4 and 5 declare "in".
    new = start(session)
    assert session.state.deal is not None
    assert session.state.deal.order == ("c", "d", "e", "x", "b")
    session.declare(2, ("c", "in"), ("d", "in"), ("e", "out"), ("x", "in"), ("b", "in"))
    steps = [
        ("c", "single"),  # 1. player 1: single
        ("d", "double"),  # 2. player 2: double; the pot is worth $2
        ("x", "fold"),  # 3. player 4 folds: he pays $1 (T38-04)
        ("b", "double"),  # 4. player 5 accepts double
        ("c", "triple"),  # 5. player 1 raises to triple; the pot is worth $3
        ("d", "triple"),  # 6. player 2 accepts triple
        ("b", "fold"),
    ]  # 7. player 5 folds: he pays $2
    new = escalate(session, 2, *steps)
    answered = [(e.data["player"], e.data["action"], e.data["level"]) for e in of_type(new, ESCALATED)]
    assert answered == [
        ("c", "single", 1),
        ("d", "double", 2),
        ("x", "fold", 1),
        ("b", "double", 2),
        ("c", "triple", 3),
        ("d", "triple", 3),
        ("b", "fold", 2),
    ]
    shown = one(new, SHOWDOWN_HELD).data  # 8. players 1 and 2 show
    assert [h["player"] for h in shown["hands"]] == ["c", "d"]
    assert shown["winners"] == ["c"]
    assert transfers(of_type(new, POT_SETTLED)) == [
        ("pot", "seat:c", 1),  # player 1 takes the existing pot (Q-T38-01)
        ("seat:d", "pot", 3),  # player 2 matches at triple
        ("seat:x", "pot", 1),  # the folders at their levels
        ("seat:b", "pot", 2),
    ]
    assert session.state.pot == 6  # $1 + $2 + $3 form the next pot


def test_d_t38_01_the_rule_alone_gives_ex_08() -> None:  # D-T38-01, settlement.match_escalated
    round_ = Round(
        table="t1",
        order=("b", "c", "d", "e", "a"),
        choices=("in", "in", "out", "out", "out"),
        winners=("b",),
        pot=1,
        reserve=0,
        stacks=dict.fromkeys("abcde", 100),
        terms={
            "ante": 1,
            "pot_limit": 0,
            "max_loss": 0,
            "cap_rule": "reserve",
            "stack_policy": "default",
            "ties": "split",
            "replenish_cap": 0,
        },
        escalated={"b": 3, "c": 3, "e": 1, "a": 2},
    )
    result = RULES["match_escalated"](round_)
    assert [(t.source, t.target, t.amount) for t in result.transfers] == [
        ("pot:t1", "seat:t1:b", 1),
        ("seat:t1:c", "pot:t1", 3),
        ("seat:t1:e", "pot:t1", 1),
        ("seat:t1:a", "pot:t1", 2),
    ]
    assert result.pot == 6  # $1 + $2 + $3


def three_in() -> Session:
    session = game(five(*HANDS))
    start(session)
    session.declare(1, ("b", "in"), ("c", "in"), ("a", "in"))
    return session


def test_t38_04_a_folder_pays_the_level_he_had_accepted() -> None:
    session = three_in()  # pot 3
    new = escalate(session, 1, ("b", "single"), ("c", "triple"), ("a", "fold"), ("b", "triple"))
    assert transfers(of_type(new, POT_SETTLED)) == [
        ("pot", "seat:b", 3),
        ("seat:c", "pot", 9),
        ("seat:a", "pot", 3),
    ]


def test_t38_04_being_in_is_accepting_single_so_a_first_fold_pays_single() -> None:  # EX-08 note
    session = three_in()
    new = escalate(session, 1, ("b", "fold"), ("c", "double"), ("a", "fold"))
    settled = one(new, POT_SETTLED).data
    assert (settled["outcome"], settled["winners"]) == ("uncontested", ["c"])  # nobody shows
    assert one(new, SHOWDOWN_HELD).data["hands"] == []
    assert transfers([one(new, POT_SETTLED)]) == [
        ("pot", "seat:c", 3),
        ("seat:b", "pot", 3),
        ("seat:a", "pot", 3),
    ]
    assert session.state.pot == 6


def test_t38_05_the_remaining_players_show_and_the_losers_pay_the_final_level() -> None:
    session = three_in()
    new = escalate(session, 1, ("b", "double"), ("c", "double"), ("a", "double"))
    assert [h["player"] for h in one(new, SHOWDOWN_HELD).data["hands"]] == ["b", "c", "a"]
    assert transfers(of_type(new, POT_SETTLED)) == [
        ("pot", "seat:b", 3),
        ("seat:c", "pot", 6),
        ("seat:a", "pot", 6),
    ]


def test_t38_05_tied_best_hands_split_the_existing_pot() -> None:  # G2-14, D-GEN-01
    session = game(five("As Ad Kc Kd 9s", "Ah Ac Ks Kh 9h", "Qs Qh Jc 6s 4s"))
    start(session)
    session.declare(1, ("b", "in"), ("c", "in"), ("a", "in"))
    new = escalate(session, 1, ("b", "double"), ("c", "double"), ("a", "double"))
    assert transfers(of_type(new, POT_SETTLED)) == [
        ("pot", "seat:b", 2),
        ("pot", "seat:c", 1),
        ("seat:a", "pot", 6),
    ]


def test_t38_05_no_split_pots_keep_the_pot_and_the_losers_pay() -> None:  # NSP-01
    session = game(five("As Ad Kc Kd 9s", "Ah Ac Ks Kh 9h", "Qs Qh Jc 6s 4s"), ties="no_split")
    start(session)
    session.declare(1, ("b", "in"), ("c", "in"), ("a", "in"))
    new = escalate(session, 1, ("b", "single"), ("c", "single"), ("a", "single"))
    assert one(new, POT_SETTLED).data["outcome"] == "no_split"
    assert transfers(of_type(new, POT_SETTLED)) == [("seat:a", "pot", 3)]


def test_t38_max_loss_caps_each_payment() -> None:  # CAP-02
    session = game(five(*HANDS), max_loss=5)
    start(session)
    session.declare(1, ("b", "in"), ("c", "in"), ("a", "in"))
    new = escalate(session, 1, ("b", "triple"), ("c", "triple"), ("a", "fold"))
    assert transfers(of_type(new, POT_SETTLED)) == [
        ("pot", "seat:b", 3),
        ("seat:c", "pot", 5),
        ("seat:a", "pot", 3),
    ]


def test_t38_everyone_out_carries_the_pot() -> None:  # AO-01
    session = game(five(*HANDS), dealer_forced_in=False)
    start(session)
    new = session.declare(1, ("b", "out"), ("c", "out"), ("a", "out"))
    assert not of_type(new, ESCALATION_OPENED)
    assert session.state.pot == 3
    assert session.state.live is None


# --- D-GEN-06: table stakes at the highest level --------------------------------------------------


def test_d_gen_06_declaring_in_needs_a_stack_for_the_pot_at_triple() -> None:
    session = table("abc", decks=[five(*HANDS)], variant="thirty_eight", buy_in=100, ante=20, min_buy_in=20)
    start(session)  # pot 60: "in" can cost 180
    assert session.fails(Declare("b", 1, "in")) == "insufficient_stack"
    actions = legal_actions(session.state, "b", T0)
    assert next(a for a in actions if a["action"] == "declare")["in_cost"] == 180


# --- timeouts (interpretation: accept when it costs nothing more, else fold) ------------------------


def test_t38_a_timed_out_first_turn_accepts_single() -> None:
    session = three_in()
    new = session.do(ExpireDeclare(1), later(31))
    assert [(e.data["player"], e.data["action"], e.data["timed_out"]) for e in of_type(new, ESCALATED)] == [
        ("b", "single", True)
    ]
    assert awaiting(session) == ("c",)


def test_t38_a_timed_out_player_facing_a_raise_folds_at_his_level() -> None:
    session = three_in()
    escalate(session, 1, ("b", "single"), ("c", "double"), ("a", "double"))
    assert session.do(ExpireDeclare(1), later(1)) == []  # not yet overdue
    new = session.do(ExpireDeclare(1), later(31))
    assert [(e.data["player"], e.data["action"], e.data["level"]) for e in of_type(new, ESCALATED)] == [
        ("b", "fold", 1)
    ]
    assert transfers(of_type(new, POT_SETTLED)) == [
        ("pot", "seat:c", 3),
        ("seat:b", "pot", 3),
        ("seat:a", "pot", 6),
    ]
    assert session.do(ExpireDeclare(1), later(99)) == []  # idempotent


# --- what a player is offered ----------------------------------------------------------------------


def test_t38_legal_actions_show_what_each_choice_risks() -> None:
    session = three_in()  # pot 3
    escalate(session, 1, ("b", "single"), ("c", "double"))
    action = next(a for a in legal_actions(session.state, "a", T0) if a["action"] == "escalate")
    assert action["choices"] == ["double", "triple", "fold"]
    assert action["risks"] == {"double": 6, "triple": 9, "fold": 3}
    assert (action["level"], action["accepted"]) == ("double", "single")
    assert not [a for a in legal_actions(session.state, "b", T0) if a["action"] == "escalate"]
    view = table_view(session.state, Viewer("b"), T0)
    assert view["phase"] == "escalation"
    assert view["deal"]["escalation"] == {
        "level": "double",
        "multiple": 2,
        "value": 6,
        "players": [
            {"player": "b", "accepted": "single", "folded": False},
            {"player": "c", "accepted": "double", "folded": False},
            {"player": "a", "accepted": "single", "folded": False},
        ],
    }


def test_t38_escalation_answers_are_public() -> None:
    session = three_in()
    new = escalate(session, 1, ("b", "single"))
    for event in new:
        assert secret_keys(event.type, event.data) == ()


def test_t38_options() -> None:
    options = validate_options("thirty_eight", {})
    assert options["declare_mode"] == "sequential"
    assert options["dealer_forced_in"] is True
    assert get_variant("thirty_eight").capacity(options) == 10
