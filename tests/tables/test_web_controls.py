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
