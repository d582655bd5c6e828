"""The ghost hand, Kitty or Ghost (RULES.md §7: GH-01..08, D-GH-02, D-GH-03, D-GEN-02), given/when/then
on the pure decider.

Players "abc": the first dealer is a, so cards go b, c, a, and the ghost last in each round
(D-GH-03): `ghost_deck(b, c, a, ghost)` stacks exactly that. Ante 10, so the first pot is 30.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tables.engine.decider.commands import OpenTable, SitDown
from tables.engine.decider.errors import DomainError
from tables.engine.decider.events import (
    ANTES_POSTED,
    CARDS_DEALT,
    DEAL_ENDED,
    DECLARED,
    GAME_ENDED,
    GHOST_DEALT,
    POT_SETTLED,
    SHOWDOWN_HELD,
    TableOpened,
)
from tables.engine.decider.evolve import fold
from tables.engine.decider.snapshot import state_from_json, state_to_json
from tables.engine.decider.view import Viewer, redact_event, table_view
from tables.engine.decider.visibility import secret_keys
from tables.engine.variants import get_variant, validate_options, variant_catalog

from .helpers import (
    T0,
    TABLE,
    Session,
    later,
    of_type,
    one,
    roundtrip,
    stack_deck,
    start,
    table,
    transfers,
    turns,
)
from .test_properties import Books, random_command

ANTE = 10


def ghost_deck(*hands: str) -> list[str]:
    """The players' hands in deal order, the ghost's last: one card a round (D-GH-03)."""
    return stack_deck(*hands)


def ghost_table(*decks: list[str], ghost: str = "always", players: str = "abc", **options: object) -> Session:
    options.setdefault("ante", ANTE)
    return table(players, decks=list(decks), ghost=ghost, **options)


def showdown_of(events: list) -> dict:
    return one(events, SHOWDOWN_HELD).data


def settled(events: list) -> dict:
    return one(events, POT_SETTLED).data


VIEWERS = [
    Viewer("a"),
    Viewer("b"),
    Viewer("c"),
    Viewer(None),
    Viewer(None, "admin"),
    Viewer(None, "auditor"),
]


# --- dealing (D-GH-03, GH-02) -----------------------------------------------------------------------


def test_d_gh_03_the_ghost_is_dealt_last_in_each_round() -> None:
    deck = ["As", "Ks", "2c", "Qh", "Ad", "Kd", "3d", "Qd"]
    session = ghost_table(deck)
    events = start(session)
    dealt = [(e.data["player"], e.data["cards"]) for e in of_type(events, CARDS_DEALT)]
    assert dealt == [("b", ["As", "Ad"]), ("c", ["Ks", "Kd"]), ("a", ["2c", "3d"])]
    assert one(events, GHOST_DEALT).data == {"deal_no": 1, "cards": ["Qh", "Qd"]}
    assert [e.type for e in events if e.type in (CARDS_DEALT, GHOST_DEALT)][-1] == GHOST_DEALT
    assert session.state.deal.ghost == ("Qh", "Qd")
    assert session.state.deal.dealt == 8  # the ghost's cards left the deck


def test_d_gh_03_three_card_guts_deals_the_ghost_three_rounds() -> None:
    deck = ghost_deck("As Ad Ac", "Ks Kd Kc", "2c 3d 4h", "Qh Qd Qc")
    session = table("abc", decks=[deck], variant="guts3", ghost="always", ante=ANTE)
    events = start(session)
    assert one(events, GHOST_DEALT).data["cards"] == ["Qh", "Qd", "Qc"]
    assert session.state.deal.hand_of("a") == ("2c", "3d", "4h")


def test_gh_02_the_ghost_belongs_to_no_player() -> None:
    session = ghost_table(ghost_deck("As Ad", "Ks Kd", "2c 3d", "Qh Qd"))
    start(session)
    deal = session.state.deal
    assert deal.order == ("b", "c", "a")  # no seat, no declare, no stack
    assert [s.player for s in session.state.seats] == ["a", "b", "c"]
    view = table_view(session.state, Viewer("b"), T0)
    assert [p["player"] for p in view["deal"]["players"]] == ["b", "c", "a"]
    assert view["deal"]["ghost"] == {
        "cards": None,
        "card_count": 2,
        "shown": False,
        "won": False,
        "face_up": False,
    }


def test_no_ghost_by_default() -> None:
    session = table("abc", decks=[ghost_deck("As Ad", "Ks Kd", "2c 3d")], ante=ANTE)
    events = start(session)
    assert not of_type(events, GHOST_DEALT)
    assert session.state.opts["ghost"] == "none"
    assert table_view(session.state, Viewer("b"), T0)["deal"]["ghost"] is None


# --- secrecy (GH-02, GH-03) -------------------------------------------------------------------------


def test_gh_03_the_ghost_is_secret_to_everyone_until_the_showdown() -> None:
    session = ghost_table(ghost_deck("As Ad", "Ks Kd", "2c 3d", "Qh Qd"))
    event = one(start(session), GHOST_DEALT)
    assert secret_keys(event.type, event.data) == ("cards",)
    for viewer in VIEWERS:
        assert redact_event(event.type, event.data, viewer, deal_over=False)["cards"] is None, viewer
        view = table_view(session.state, viewer, T0)
        assert view["deal"]["ghost"]["cards"] is None, viewer
        text = json.dumps(view)
        assert [card for card in ('"Qh"', '"Qd"') if card in text] == [], viewer


def test_gh_03_the_ghost_is_shown_to_everyone_at_the_showdown() -> None:
    session = ghost_table(ghost_deck("As Ad", "Ks Kd", "2c 3d", "Qh Qd"))
    start(session)
    events = session.declare(1, ("b", "in"), ("c", "out"), ("a", "out"))
    ghost = showdown_of(events)["ghost"]
    assert ghost == {"cards": ["Qh", "Qd"], "value": ghost["value"], "category": "pair", "won": False}
    for viewer in VIEWERS:
        assert table_view(session.state, viewer, T0)["deal"]["ghost"]["cards"] == ["Qh", "Qd"], viewer


def test_the_dealt_ghost_event_stays_sealed_for_players_and_opens_to_auditors_after_the_deal() -> None:
    session = ghost_table(ghost_deck("As Ad", "Ks Kd", "2c 3d", "Qh Qd"))
    event = one(start(session), GHOST_DEALT)
    session.declare(1, ("b", "out"), ("c", "out"), ("a", "out"))  # no showdown
    for viewer in VIEWERS[:-1]:
        assert redact_event(event.type, event.data, viewer, deal_over=True)["cards"] is None, viewer
        assert table_view(session.state, viewer, T0)["deal"]["ghost"]["cards"] is None, viewer
    auditor = Viewer(None, "auditor")
    assert redact_event(event.type, event.data, auditor, deal_over=True)["cards"] == ["Qh", "Qd"]
    assert table_view(session.state, auditor, T0)["deal"]["ghost"]["cards"] == ["Qh", "Qd"]


# --- the showdown (GH-01, GH-04, GH-05, GH-07, D-GH-02) ---------------------------------------------


def test_gh_01_gh_07_a_lone_in_player_must_beat_the_ghost_and_does_so() -> None:
    session = ghost_table(ghost_deck("As Ad", "Ks Kd", "2c 3d", "Qh Qd"))
    start(session)
    events = session.declare(1, ("b", "in"), ("c", "out"), ("a", "out"))
    showdown = showdown_of(events)
    assert showdown["reason"] == "contested"  # not G2-11's uncontested win
    assert [h["player"] for h in showdown["hands"]] == ["b"]  # he shows, to beat the ghost
    assert (showdown["winners"], showdown["losers"]) == (["b"], [])
    assert settled(events)["outcome"] == "won"
    assert transfers(of_type(events, POT_SETTLED)) == [("pot", "seat:b", 30)]


def test_gh_01_gh_05_a_lone_in_player_who_loses_to_the_ghost_matches_the_pot() -> None:
    session = ghost_table(ghost_deck("Ks Kd", "As Ad", "2c 3d", "Qh Qd"))
    start(session)
    events = session.declare(1, ("b", "out"), ("c", "out"), ("a", "in"))
    showdown = showdown_of(events)
    assert (showdown["winners"], showdown["losers"], showdown["ghost"]["won"]) == ([], ["a"], True)
    assert settled(events)["outcome"] == "ghost_won"
    assert settled(events)["matchers"] == ["a"]
    assert transfers(of_type(events, POT_SETTLED)) == [("seat:a", "pot", 30)]
    assert session.state.pot == 60  # GH-05: the pot stays, matched
    assert not of_type(events, GAME_ENDED)


def test_gh_04_a_player_must_beat_the_ghost_as_well_as_every_other_player() -> None:
    session = ghost_table(ghost_deck("As Ad", "Ks Kd", "2c 3d", "Qh Qd"))
    start(session)
    events = session.declare(1, ("b", "in"), ("c", "in"), ("a", "in"))
    showdown = showdown_of(events)
    assert (showdown["winners"], showdown["losers"]) == (["b"], ["c", "a"])
    assert transfers(of_type(events, POT_SETTLED)) == [
        ("pot", "seat:b", 30),
        ("seat:c", "pot", 30),
        ("seat:a", "pot", 30),
    ]


def test_gh_04_the_best_player_who_beats_the_ghost_wins_though_others_lost_to_it() -> None:
    session = ghost_table(ghost_deck("Ks Kd", "4s 4d", "2c 3d", "Qh Qd"))
    start(session)
    events = session.declare(1, ("b", "in"), ("c", "in"), ("a", "out"))
    assert (showdown_of(events)["winners"], showdown_of(events)["losers"]) == (["b"], ["c"])
    assert transfers(of_type(events, POT_SETTLED)) == [("pot", "seat:b", 30), ("seat:c", "pot", 30)]


def test_gh_05_gh_07_when_the_ghost_wins_every_in_player_matches_the_pot() -> None:
    session = ghost_table(ghost_deck("Js Jd", "4s 4d", "2c 3d", "Qh Qd"))
    start(session)
    events = session.declare(1, ("b", "in"), ("c", "in"), ("a", "out"))
    showdown = showdown_of(events)
    assert (showdown["winners"], showdown["losers"], showdown["ghost"]["won"]) == ([], ["b", "c"], True)
    result = settled(events)
    assert (result["outcome"], result["winners"], result["matchers"]) == ("ghost_won", [], ["b", "c"])
    assert transfers(of_type(events, POT_SETTLED)) == [("seat:b", "pot", 30), ("seat:c", "pot", 30)]
    assert session.state.pot == 90
    assert table_view(session.state, Viewer("a"), T0)["deal"]["ghost"]["won"] is True


def test_d_gh_02_a_tie_with_the_ghost_is_a_loss() -> None:
    session = ghost_table(ghost_deck("As Kd", "4s 5d", "2c 3d", "Ah Kc"))
    start(session)
    events = session.declare(1, ("b", "in"), ("c", "out"), ("a", "out"))
    showdown = showdown_of(events)
    assert showdown["hands"][0]["value"] == showdown["ghost"]["value"]  # A-K each
    assert (showdown["winners"], showdown["losers"], showdown["ghost"]["won"]) == ([], ["b"], True)
    assert transfers(of_type(events, POT_SETTLED)) == [("seat:b", "pot", 30)]


def test_d_gh_02_players_tied_above_the_ghost_split_the_pot() -> None:
    session = ghost_table(ghost_deck("As Kd", "Ah Kc", "2c 3d", "Qh Jd"))
    start(session)
    events = session.declare(1, ("b", "in"), ("c", "in"), ("a", "out"))
    assert showdown_of(events)["winners"] == ["b", "c"]
    assert settled(events)["outcome"] == "all_tied"  # G2-14, D-G2-02
    assert transfers(of_type(events, POT_SETTLED)) == [("pot", "seat:b", 15), ("pot", "seat:c", 15)]


# --- GH-08: only when one player is in --------------------------------------------------------------


def test_gh_08_with_two_in_the_ghost_does_not_play_and_is_not_shown() -> None:
    session = ghost_table(ghost_deck("Js Jd", "4s 4d", "2c 3d", "Ah Ad"), ghost="only_if_one_in")
    start(session)
    events = session.declare(1, ("b", "in"), ("c", "in"), ("a", "out"))
    showdown = showdown_of(events)
    assert "ghost" not in showdown  # they compete among themselves
    assert (showdown["winners"], showdown["losers"]) == (["b"], ["c"])
    assert transfers(of_type(events, POT_SETTLED)) == [("pot", "seat:b", 30), ("seat:c", "pot", 30)]
    assert table_view(session.state, Viewer("b"), T0)["deal"]["ghost"]["cards"] is None


def test_gh_08_a_lone_in_player_plays_the_ghost() -> None:
    session = ghost_table(ghost_deck("Js Jd", "4s 4d", "2c 3d", "Ah Ad"), ghost="only_if_one_in")
    start(session)
    events = session.declare(1, ("b", "in"), ("c", "out"), ("a", "out"))
    assert showdown_of(events)["ghost"]["won"] is True
    assert transfers(of_type(events, POT_SETTLED)) == [("seat:b", "pot", 30)]


# --- GH-06: everyone out ------------------------------------------------------------------------------


def test_gh_06_the_dealer_is_not_forced_in_so_everyone_may_go_out() -> None:
    session = ghost_table(ghost_deck("4s 5d", "6s 7d", "2c 3d", "Ah Ad"))
    assert session.state.opts["dealer_forced_in"] is False
    start(session)
    events = session.declare(1, ("b", "out"), ("c", "out"))
    assert turns(events)[-1] == ["a"]  # not G2-10
    events = session.declare(1, ("a", "out"))
    assert not [e for e in of_type(events, DECLARED) if e.data["forced"]]
    assert settled(events)["outcome"] == "all_out_carry"
    assert "ghost" not in showdown_of(events)  # no showdown to show it
    assert session.state.pot == 30


def test_gh_06_everyone_out_then_every_player_antes_anew() -> None:
    first = ghost_deck("4s 5d", "6s 7d", "2c 3d", "Ah Ad")
    second = ghost_deck("7h 9h", "Tc 8c", "Qs Jh", "2h 3s")
    session = ghost_table(first, second)
    start(session)
    session.declare(1, ("b", "out"), ("c", "out"), ("a", "out"))
    events = start(session)
    antes = one(events, ANTES_POSTED).data
    assert (antes["due"], antes["paid"]) == (True, ["c", "a", "b"])  # the pot was not empty
    assert session.state.pot == 60


def test_gh_06_after_a_deal_someone_was_in_the_pot_carries_without_antes() -> None:
    first = ghost_deck("Ks Kd", "As Ad", "2c 3d", "Qh Qd")
    second = ghost_deck("7h 9h", "Tc 8c", "Qs Jh", "2h 3s")
    session = ghost_table(first, second)
    start(session)
    session.declare(1, ("b", "out"), ("c", "out"), ("a", "in"))  # a loses to the ghost
    events = start(session)
    assert one(events, ANTES_POSTED).data["paid"] == []  # G2-05: the pot carries


def test_gh_06_with_antes_every_deal_everyone_antes_once() -> None:
    first = ghost_deck("4s 5d", "6s 7d", "2c 3d", "Ah Ad")
    second = ghost_deck("7h 9h", "Tc 8c", "Qs Jh", "2h 3s")
    session = ghost_table(first, second, ante_rule="every_deal", declare_mode="simultaneous")
    start(session)
    session.declare(1, ("b", "out"), ("c", "out"), ("a", "out"))
    events = start(session)
    assert transfers(of_type(events, ANTES_POSTED)) == [
        ("seat:c", "pot", 10),
        ("seat:a", "pot", 10),
        ("seat:b", "pot", 10),
    ]


def test_gh_06_without_a_ghost_all_out_carries_the_pot_without_antes() -> None:
    first, second = ghost_deck("4s 5d", "6s 7d", "2c 3d"), ghost_deck("7h 9h", "Tc 8c", "Qs Jh")
    session = table("abc", decks=[first, second], ante=ANTE, declare_mode="simultaneous")
    start(session)
    session.declare(1, ("b", "out"), ("c", "out"), ("a", "out"))
    assert one(start(session), ANTES_POSTED).data["paid"] == []  # AO-01


# --- options (D-GEN-02, conflicts, catalogue) ---------------------------------------------------------


def error_of(variant: str, options: dict) -> DomainError:
    with pytest.raises(DomainError) as caught:
        validate_options(variant, options)
    return caught.value


def test_d_gen_02_the_ghost_hand_counts_when_capping_seats() -> None:
    assert get_variant("guts2").capacity(validate_options("guts2", {"ghost": "always"})) == 25
    assert get_variant("guts3").capacity(validate_options("guts3", {"ghost": "only_if_one_in"})) == 16
    assert validate_options("guts2", {"ghost": "always", "seats": 25})["seats"] == 25
    error = error_of("guts2", {"ghost": "always", "seats": 26})
    assert (error.code, error.detail["option"], error.detail["maximum"]) == ("invalid_option", "seats", 25)
    assert error_of("guts3", {"ghost": "always", "seats": 17}).detail["maximum"] == 16
    assert validate_options("guts2", {"seats": 26})["seats"] == 26  # no ghost: 26


@pytest.mark.parametrize(
    "all_out", ["extra_ante", "wimp_all", "wimp_others", "best_matches", "extra_card", "pass_right"]
)
def test_gh_06_another_all_out_rule_conflicts_with_the_ghost(all_out: str) -> None:
    error = error_of("guts2", {"ghost": "always", "all_out": all_out})
    assert (error.code, error.detail["option"], error.detail["conflict"]) == (
        "invalid_option",
        "ghost",
        "all_out",
    )


def test_gh_06_forcing_the_dealer_in_conflicts_with_the_ghost() -> None:
    error = error_of("guts3", {"ghost": "only_if_one_in", "dealer_forced_in": True})
    assert (error.code, error.detail["option"], error.detail["conflict"]) == (
        "invalid_option",
        "ghost",
        "dealer_forced_in",
    )
    chosen = validate_options("guts3", {"ghost": "always", "dealer_forced_in": False})
    assert chosen["dealer_forced_in"] is False
    assert validate_options("guts3", {"ghost": "always", "all_out": "carry"})["all_out"] == "carry"


def test_the_ghost_option_is_checked_and_recorded_when_the_table_opens() -> None:
    assert error_of("guts2", {"ghost": "sometimes"}).detail["option"] == "ghost"
    assert error_of("two_plus_one", {"ghost": "always"}).detail["option"] == "ghost"
    session = Session()
    opened = session.do(OpenTable(TABLE, "guts3", {"ghost": "only_if_one_in"}))[0]
    assert (opened.data["options"]["ghost"], opened.data["options"]["dealer_forced_in"]) == (
        "only_if_one_in",
        False,
    )


def test_get_variants_lists_the_ghost_with_its_rules() -> None:
    by_name = {v["name"]: v for v in json.loads(json.dumps(variant_catalog()))}
    for name in ("guts2", "guts3"):
        option = next(o for o in by_name[name]["options"] if o["name"] == "ghost")
        assert (option["default"], option["choices"]) == ("none", ["none", "always", "only_if_one_in"])
        assert option["rule"] == "GH-01..08, D-GH-02, D-GH-03"
        assert by_name[name]["options_schema"]["properties"]["ghost"]["enum"] == option["choices"]
    assert "ghost" not in by_name["two_plus_one"]["defaults"]


# --- the log ------------------------------------------------------------------------------------------


def test_a_table_opened_before_the_ghost_option_existed_plays_without_one() -> None:
    options = validate_options("guts2", {"ante": ANTE, "min_buy_in": 100})
    del options["ghost"]
    opened = TableOpened(
        table_id=TABLE,
        variant="guts2",
        options=options,
        stacked=True,
        stacked_decks=[ghost_deck("As Ad", "Ks Kd", "2c 3d")],
    )
    session = Session([opened])
    for player in "abc":
        session.do(SitDown(player, 1000))
    events = start(session)
    assert not of_type(events, GHOST_DEALT)
    assert session.state.opts["ghost"] == "none"
    assert "ghost" not in dict(session.state.options)  # the log as written
    events = session.declare(1, ("b", "in"), ("c", "out"), ("a", "out"))
    assert settled(events)["outcome"] == "uncontested"  # G2-11


def test_a_snapshot_keeps_the_ghost_hand() -> None:
    session = ghost_table(ghost_deck("As Ad", "Ks Kd", "2c 3d", "Qh Qd"))
    start(session)
    restored = state_from_json(json.loads(json.dumps(state_to_json(session.state))))
    assert restored == session.state
    events = session.declare(1, ("b", "in"), ("c", "in"), ("a", "out"))
    assert of_type(events, DEAL_ENDED)
    assert session.state.deal.ghost_shown
    assert not session.state.deal.ghost_won
    again = state_from_json(json.loads(json.dumps(state_to_json(session.state))))
    assert again == session.state


# --- properties -----------------------------------------------------------------------------------------

GHOST_OPTIONS = st.fixed_dictionaries(
    {
        "ghost": st.sampled_from(["always", "only_if_one_in"]),
        "ante": st.integers(1, 20),
        "pot_limit": st.sampled_from([0, 0, 30, 100]),
        "max_loss": st.sampled_from([0, 0, 25]),
        "cap_rule": st.sampled_from(["reserve", "pay_limit_only"]),
        "declare_mode": st.sampled_from(["sequential", "simultaneous"]),
        "ante_rule": st.sampled_from(["pot_empty", "every_deal"]),
        "ties": st.sampled_from(["split", "no_split"]),
        "stack_policy": st.sampled_from(["default", "allow_debt", "pay_what_you_have"]),
        "min_buy_in": st.just(20),
    }
)


def no_card_twice(session: Session) -> None:
    deal = session.state.deal
    if deal is None:
        return
    cards = [card for hand in deal.hands for card in hand] + list(deal.ghost)
    assert len(cards) == len(set(cards)) == deal.dealt


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.data(),
    options=GHOST_OPTIONS,
    variant=st.sampled_from(["guts2", "guts3"]),
    players=st.integers(2, 6),
)
def test_random_ghost_sessions_conserve_chips_deal_each_card_once_and_rebuild(
    data: st.DataObject, options: dict, variant: str, players: int
) -> None:
    session, books = Session(), Books()
    commands = [OpenTable(TABLE, variant, options)]
    commands += [SitDown(f"s{i}", data.draw(st.integers(20, 400))) for i in range(players)]
    clock = 0
    for tick in range(60):
        command = commands[tick] if tick < len(commands) else random_command(data, session, tick)
        clock += data.draw(st.sampled_from([1, 40]))
        try:
            new = session.do(command, later(clock))
        except DomainError:
            continue
        for event in new:
            books.post(event)
        books.check(session, options)
        no_card_twice(session)
        if session.state.status == "closed":
            break
    assert fold(roundtrip(session.events)) == session.state
    restored = state_from_json(json.loads(json.dumps(state_to_json(session.state))))
    assert restored == session.state
