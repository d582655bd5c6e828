"""Fair deals during the deal (deck schema 2, docs/deck.md §10.5): a card's opening is served to
exactly the readers who may see it, exactly when they may.

While a deal is played, its proof (GET /tables/{id}/deals/{n}/proof, `finished` false) gives the
holder the openings of his own cards as soon as they are dealt or drawn to him, the players of a
private comparison each other's hands once compared (D-357-03), and everyone a short pack's cards
out of play from the start (D-IT-01); docs/verify_deal.py checks such a partial proof. The attack:
after every command, an opponent, a player never seated, a player of another table, a club admin
and an auditor read everything served (feeds, SSE, replay, deal and table histories, the proof,
summaries, every hash and prev_hash, the audit feed) and try to learn a card not shown to them:
nothing matches, not a card, a salt or a commitment of a hidden position, and the openings they
get do not change, in number or in hash, when a card hidden from them is dealt or drawn.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import AbstractUser

from ledger.models import Event
from tables.audit.deals import deal_load
from tables.audit.fairness import deal_pack, dealing_order
from tables.engine import fairdeck
from tables.engine.decider.view import Viewer, legal_actions
from tables.engine.deck import italian_pack
from tables.state import load_table
from tests.audit.conftest import Club, client_for, open_session
from tests.audit.test_fair_deals import (
    PACK,
    assert_nothing_hidden_is_recoverable,
    new_player,
    post,
    run_verifier,
    seed_hex,
    seen_by,
    served,
    state_time,
    strings,
    tampered,
)


def proof_of(user: AbstractUser, table_id: str, deal_no: int) -> dict[str, Any]:
    response = client_for(user).get(f"/api/v1/tables/{table_id}/deals/{deal_no}/proof")
    assert response.status_code == 200, response.content
    return response.json()


def opened(proof: dict[str, Any]) -> set[str]:
    return {opening["card"] for opening in proof["openings"]}


def position_secrets(table_id: str, deal_no: int, hidden: set[str]) -> set[str]:
    """The salt and commitment of every committed position of the deal whose card is hidden, and
    every salt of the next deal's deck: read behind the API, never to be served."""
    found: set[str] = set()
    rows = Event.objects.filter(stream=f"table-{table_id}", type="DeckCommitted")
    for data in rows.values_list("data", flat=True):
        for card, salt in zip(data["cards"], data["salts"], strict=True):
            if data["deal_no"] == deal_no + 1 or (data["deal_no"] == deal_no and card in hidden):
                found |= {salt, fairdeck.card_commitment(salt, card)}
    return found


def assert_nothing_hidden_is_served(
    table_id: str, deal_no: int, reader: AbstractUser, viewer: Viewer, staff: bool = False
) -> dict[str, Any]:
    """Everything served to `reader` now hides every card he was not shown; returns his proof."""
    record = deal_load(table_id=table_id, deal_no=deal_no)
    assert not record.over
    out_of_play = set(PACK) - {str(card) for card in deal_pack(record)}  # a short pack's: public
    hidden = set(PACK) - seen_by(table_id, deal_no, viewer) - out_of_play
    bodies, texts = served(reader, table_id, deal_no)
    if staff:
        bodies.append(client_for(reader).get("/api/v1/audit/events?limit=500").json())
    assert_nothing_hidden_is_recoverable(bodies, texts, hidden, dealing_order(record.events))
    values = {text for body in bodies for _, text in strings(body)}
    assert not values & position_secrets(table_id, deal_no, hidden)
    proof = proof_of(reader, table_id, deal_no)
    assert (proof["finished"], proof["deck"], proof["reshuffles"]) == (False, None, None)
    assert not opened(proof) & hidden
    return proof


def act_once(
    table_id: str, users: dict[str, AbstractUser], choose: dict[str, str], draws: dict[str, int]
) -> str:
    """The first awaited player's draw or declare (with a client_seed); returns who acted."""
    state = load_table(table_id).state
    deal = state.live
    assert deal is not None
    for player in deal.awaiting:
        for action in legal_actions(state, player, state_time()):
            body: dict[str, Any] = {"deal_no": deal.deal_no, "client_seed": seed_hex(len(deal.awaiting))}
            if action["action"] == "exchange":
                body["discards"] = action["choices"][: draws.get(player, 0)]
                post(users[player], table_id, "exchanges", body)
                return player
            if action["action"] == "declare":
                stages = choose.get(player, "out").split("/")
                wanted = stages[min(action["stage"], len(stages)) - 1]
                body["choice"] = wanted if wanted in action["choices"] else action["choices"][0]
                post(users[player], table_id, "declares", body)
                return player
    raise AssertionError("nobody can act")


def test_during_the_deal_nobody_gets_an_opening_of_a_card_he_may_not_see_through_any_read_path(
    club: Club, tmp_path: Path
) -> None:  # GH-02, EXC-01, DESIGN §2.6
    session = open_session(club.ids(), variant="guts2", ghost="always", exchange="draw")
    users = {str(user.pk): user for user in club.players}
    order = list(users)
    holder, opponent = club.players[0], club.players[1]
    me = str(holder.pk)
    deal_no = post(holder, session.table_id, "deals", {"client_seed": seed_hex(1)})["deal"]["deal_no"]
    elsewhere = new_player("eve")
    open_session([elsewhere.pk, club.outsider.pk])
    readers = [
        (opponent, Viewer(str(opponent.pk)), False),
        (club.outsider, Viewer(None), False),
        (elsewhere, Viewer(None), False),
        (club.admin, Viewer(None, "admin"), True),
        (club.auditor, Viewer(None, "auditor"), True),
    ]
    choose = dict(zip(order, ("in", "out", "out"), strict=True))
    draws = dict(zip(order, (2, 1, 3), strict=True))
    before: dict[int, Any] = {}
    acted = None
    for _ in range(20):
        if load_table(session.table_id).state.live is None:
            break
        for reader, viewer, staff in readers:
            proof = assert_nothing_hidden_is_served(session.table_id, deal_no, reader, viewer, staff)
            own_cards = {
                card.card
                for card in dealing_order(deal_load(table_id=session.table_id, deal_no=deal_no).events)
                if card.player == viewer.player_id
            }
            assert opened(proof) <= own_cards  # nothing is shown before the showdown
            if viewer.player_id is None:
                assert proof["openings"] == [], reader
            if reader.pk in before and acted != viewer.player_id:  # another player's hidden cards
                # moved: the reader's openings change neither in number nor in any hash
                assert proof["openings"] == before[reader.pk]["openings"]
                assert proof["root"] == before[reader.pk]["root"]
            before[reader.pk] = proof
        own = proof_of(holder, session.table_id, deal_no)  # the holder: his cards as soon as held
        hand = load_table(session.table_id).state.live.hand_of(me)
        assert set(hand) <= opened(own)
        assert opened(own) <= seen_by(session.table_id, deal_no, Viewer(me))
        result = run_verifier(tmp_path, own)
        assert result.returncode == 0, result.stdout
        assert "OK as player" in result.stdout
        assert "deal still being played" in result.stdout
        acted = act_once(session.table_id, users, choose, draws)
        if acted == me and draws[me]:  # drawn cards are opened to him at once (EXC-01)
            drawn = next(
                e.data["drawn"]
                for e in Event.objects.filter(stream=f"table-{session.table_id}", type="CardsDrawn")
                if e.data["player"] == me
            )
            assert set(drawn) <= opened(proof_of(holder, session.table_id, deal_no))
    else:
        raise AssertionError("the deal did not end")


def test_d_357_03_a_private_comparison_is_opened_to_the_players_compared_once_compared(club: Club) -> None:
    session = open_session(club.ids(), variant="three_five_seven")
    users = {str(user.pk): user for user in club.players}
    order = list(users)
    deal_no = post(club.players[0], session.table_id, "deals", {})["deal"]["deal_no"]
    choose = dict(zip(order, ("in/out", "in/out", "out"), strict=True))
    stream = f"table-{session.table_id}"
    while not Event.objects.filter(stream=stream, type="ShowdownHeld", data__deal_no=deal_no).exists():
        act_once(session.table_id, users, choose, {})
    assert load_table(session.table_id).state.live is not None  # stage 2 follows (357)
    compared = Event.objects.get(stream=stream, type="ShowdownHeld", data__deal_no=deal_no).data
    assert compared["private"]
    hands = {hand["player"]: set(hand["cards"]) for hand in compared["hands"]}
    assert len(hands) == 2
    for player, user in users.items():
        proof = proof_of(user, session.table_id, deal_no)
        for other, cards in hands.items():
            if other == player:
                continue
            if player in hands:  # D-357-03: the hand compared with his, while the deal goes on
                assert cards <= opened(proof), (player, other)
            else:
                assert not cards & opened(proof), (player, other)
    for reader, viewer in ((club.outsider, Viewer(None)), (club.auditor, Viewer(None, "auditor"))):
        proof = assert_nothing_hidden_is_served(session.table_id, deal_no, reader, viewer)
        assert not opened(proof) & set().union(*hands.values())


@pytest.mark.parametrize("players", [4, 6])
def test_d_it_01_a_short_packs_cards_out_of_play_are_opened_to_everyone_from_the_start(
    club: Club, tmp_path: Path, players: int
) -> None:
    seated = [*club.players, *(new_player(f"p{n}") for n in range(players - 3))]
    session = open_session([user.pk for user in seated], variant="italian")
    holder = seated[0]
    deal_no = post(holder, session.table_id, "deals", {})["deal"]["deal_no"]
    pack = [str(card) for card in italian_pack(players)]
    outside = set(PACK) - set(pack)
    started = Event.objects.get(stream=f"table-{session.table_id}", type="DealStarted").data
    assert started["deck_schema"] == 2  # no seed to reveal: the short pack is committed card by card
    for reader in (holder, seated[1], club.outsider, club.auditor):
        proof = proof_of(reader, session.table_id, deal_no)
        assert proof["pack"] == pack
        assert {opening["card"] for opening in proof["out_of_play"]} == outside
        assert not opened(proof) & outside
    own = proof_of(holder, session.table_id, deal_no)
    hand = load_table(session.table_id).state.live.hand_of(str(holder.pk))
    assert opened(own) == set(hand)
    result = run_verifier(tmp_path, own)
    assert result.returncode == 0, result.stdout
    assert f"short pack of {len(pack)} cards: {len(outside)} cards out of play" in result.stdout
    assert "OK as player: 5 cards checked" in result.stdout
    opponent = proof_of(seated[1], session.table_id, deal_no)
    assert not opened(opponent) & set(hand)
    for reader, viewer in ((seated[1], Viewer(str(seated[1].pk))), (club.outsider, Viewer(None))):
        assert_nothing_hidden_is_served(session.table_id, deal_no, reader, viewer)
    dropped = json.loads(json.dumps(own))
    dropped["out_of_play"] = dropped["out_of_play"][1:]  # one card out of play withheld
    swapped = json.loads(json.dumps(own))
    swapped["out_of_play"][0]["card"] = pack[0]  # a card of the pack claimed out of play
    for document in (dropped, swapped):
        result = run_verifier(tmp_path, document)
        assert result.returncode == 1, result.stdout
        assert "MISMATCH" in result.stdout


@pytest.mark.parametrize("how", ["swapped card", "wrong salt", "position used twice"])
def test_a_tampered_opening_of_a_live_deal_fails_verify_deal(club: Club, tmp_path: Path, how: str) -> None:
    session = open_session(club.ids(), variant="guts3")
    holder = club.players[0]
    deal_no = post(holder, session.table_id, "deals", {})["deal"]["deal_no"]
    proof = proof_of(holder, session.table_id, deal_no)
    assert len(proof["openings"]) == 3
    assert run_verifier(tmp_path, proof).returncode == 0
    result = run_verifier(tmp_path, tampered(proof, how))
    assert result.returncode == 1, result.stdout
    assert "MISMATCH" in result.stdout


def test_a_live_deal_of_the_seed_recipe_has_no_proof_until_it_ends(club: Club) -> None:
    session = open_session(club.ids(), legacy=True)
    deal_no = session.start()
    response = client_for(club.players[0]).get(f"/api/v1/tables/{session.table_id}/deals/{deal_no}/proof")
    assert response.status_code == 409
    assert response.json()["code"] == "deal_not_finished"
    session.declare_all(lambda player: "out")
    proof = proof_of(club.players[0], session.table_id, deal_no)
    assert (proof["deck_schema"], proof["provable"]) == (1, True)


def test_an_auditor_gets_the_whole_deck_only_once_the_deal_is_over(club: Club, tmp_path: Path) -> None:
    session = open_session(club.ids())
    deal_no = session.start()
    live = proof_of(club.auditor, session.table_id, deal_no)
    assert (live["finished"], live["deck"], live["openings"]) == (False, None, [])
    session.declare_all(lambda player: "out")
    over = proof_of(club.auditor, session.table_id, deal_no)
    assert over["finished"] is True
    assert len(over["deck"]) == len(over["openings"]) == 52
    result = run_verifier(tmp_path, over)
    assert result.returncode == 0, result.stdout
    assert "whole deck OK" in result.stdout
