"""The live table page's forms for Wolfie's Lou's actions (WL-06, WL-07, D-WL-04): built from the
API's legal actions, the trump as one button per choice and a play as one button per card the
server accepts; Buddha's Folly's offer (take with a card, or leave) has no form yet and is shown,
not offered."""

from __future__ import annotations

from tables.web.controls import control_for


def test_wl_06_the_trump_is_a_choice_posted_to_the_trump_endpoint() -> None:
    control = control_for(
        {"action": "trump", "deal_no": 3, "choices": ["c", "d", "h", "s", "no_trump", "reverse"]}
    )
    assert (control.path, control.kind, control.field, control.fixed) == (
        "trump",
        "choice",
        "trump",
        {"deal_no": 3},
    )
    assert [o.value for o in control.options] == ["c", "d", "h", "s", "no_trump", "reverse"]


def test_d_wl_04_a_play_offers_exactly_the_legal_cards() -> None:
    control = control_for({"action": "play", "deal_no": 3, "trick": 2, "choices": ["Qs", "Js"]})
    assert (control.path, control.kind, control.field) == ("plays", "card", "card")
    assert [o.value for o in control.options] == ["Qs", "Js"]
    assert control.title == "Play a card to trick 2"


def test_bf_03_the_offer_is_shown_not_offered() -> None:
    control = control_for(
        {"action": "offer", "deal_no": 3, "choices": ["take", "leave"], "card": "Th", "give": ["2c"]}
    )
    assert (control.kind, control.path) == ("unknown", "")


def test_it_16_d_it_03_the_openers_draw_asks_whether_he_splits_his_openers() -> None:
    opener = control_for(
        {
            "action": "exchange",
            "deal_no": 2,
            "min": 0,
            "max": 4,
            "choices": ["Jh", "Js", "9c"],
            "openers": ["Jh", "Js"],
        }
    )
    assert (opener.path, opener.kind, opener.field, opener.flag) == (
        "exchanges",
        "cards",
        "discards",
        "split_openers",
    )
    assert "split my openers" in opener.flag_label
    other = control_for({"action": "exchange", "deal_no": 2, "min": 0, "max": 4, "choices": ["Kh", "Kd"]})
    assert other.flag == ""


def test_d_it_02_a_pot_limit_bet_sends_the_chips_chosen_between_the_least_and_the_most() -> None:
    control = control_for(
        {
            "action": "bet",
            "deal_no": 1,
            "choices": ["call", "raise", "fold"],
            "amounts": {"call": 20, "raise": 40, "fold": 0},
            "most": {"call": 20, "raise": 100, "fold": 0},
            "to_call": 20,
            "raises_left": 2,
        }
    )
    assert [(o.value, o.label, o.sized) for o in control.options] == [
        ("call", "call 20", False),
        ("raise", "raise 40+", True),
        ("fold", "fold", False),
    ]
    assert (control.min, control.max) == (40, 100)
    fixed = control_for(
        {"action": "bet", "deal_no": 1, "choices": ["check", "open"], "amounts": {"check": 0, "open": 10}}
    )
    assert (fixed.min, fixed.max, [o.sized for o in fixed.options]) == (None, None, [False, False])
