"""Property over random deals of every variant (deck schema 2, docs/deck.md §10): each role's proof
verifies with docs/verify_deal.py, and the openings served to anyone but an auditor never hold a
card that viewer could not see in the table as the engine's visibility rule showed it to him at
some point of the deal (his own cards, face-up and shown cards, a private comparison's hands)."""

from __future__ import annotations

import importlib.util
import io
import json
import random
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from django.conf import settings
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from tables.audit.deals import DealRecord
from tables.audit.fairness import proof_json
from tables.engine import fairdeck
from tables.engine.decider import commands as cmd
from tables.engine.decider.errors import DomainError
from tables.engine.decider.evolve import fold
from tables.engine.decider.fair import committed_pack
from tables.engine.decider.table import eligible_players
from tables.engine.decider.variants import VARIANTS
from tables.engine.decider.view import Viewer, legal_actions, table_view
from tables.engine.deck import STANDARD_PACK
from tests.engine.decider.helpers import T0, Session, later, table

VERIFIER = Path(settings.BASE_DIR) / "docs" / "verify_deal.py"
_spec = importlib.util.spec_from_file_location("verify_deal", VERIFIER)
assert _spec is not None
assert _spec.loader is not None
verify_deal = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(verify_deal)

PLAYERS = "abcd"
PACK_CARDS = [str(card) for card in STANDARD_PACK]
OUTSIDER, AUDITOR = Viewer("zz"), Viewer(None, "auditor")
DEAL_ACTIONS = ("declare", "pass", "exchange", "bid", "escalate", "bet")
VARIANT_OPTIONS: dict[str, list[dict[str, Any]]] = {
    "guts2": [{}, {"ghost": "always"}, {"exchange": "draw"}, {"all_out": "pass_right"}],
    "guts3": [{}, {"exchange": "draw"}, {"exchange": "pass_left"}],
}


def secret_deck(rng: random.Random) -> fairdeck.SecretDeck:
    """A secret deck drawn from hypothesis' randomness (the service uses the OS CSPRNG)."""
    cards = [str(card) for card in STANDARD_PACK]
    rng.shuffle(cards)
    return fairdeck.SecretDeck(tuple(cards), tuple(f"{rng.getrandbits(128):032x}" for _ in cards))


def act(session: Session, data: st.DataObject, rng: random.Random, now: Any) -> bool:
    """One random legal deal action of a random awaited player (False: nobody can act)."""
    deal = session.state.live
    assert deal is not None
    moves = [
        (player, action)
        for player in deal.order
        for action in legal_actions(session.state, player, now)
        if action["action"] in DEAL_ACTIONS
    ]
    if not moves:
        return False
    player, action = data.draw(st.sampled_from(moves))
    kind, deal_no = action["action"], deal.deal_no
    if kind == "declare":
        command: cmd.Command = cmd.Declare(player, deal_no, data.draw(st.sampled_from(action["choices"])))
    elif kind == "pass":
        command = cmd.PassCard(player, deal_no, data.draw(st.sampled_from(action["choices"])))
    elif kind == "exchange":
        hand = list(action["choices"])
        count = data.draw(st.integers(0, action["max"]))
        salts = fairdeck.new_salts(52)
        command = cmd.Exchange(player, deal_no, rng.sample(hand, count), salts=salts)
    elif kind == "bid":
        amount = None if action["max"] is not None and action["max"] < action["min"] else action["min"]
        command = cmd.Bid(player, deal_no, data.draw(st.sampled_from([None, amount])))
    elif kind == "escalate":
        command = cmd.Escalate(player, deal_no, data.draw(st.sampled_from(action["choices"])))
    else:
        command = cmd.Bet(player, deal_no, data.draw(st.sampled_from(action["choices"])))
    try:
        session.do(command, now)
    except DomainError:
        return False
    return True


def play_deal(session: Session, data: st.DataObject, rng: random.Random) -> list[Any]:
    """Start a schema-2 deal and play it to its end with random legal actions (timeouts when
    nobody may act); returns its events."""
    first = len(session.events)
    session.do(cmd.StartDeal(deck=secret_deck(rng), next_deck=secret_deck(rng)))
    for turn in range(300):
        if session.state.live is None:
            break
        if not act(session, data, rng, later(turn)):
            session.do(cmd.ExpireDeclare(session.state.live.deal_no), later(turn + 3600))
    assert session.state.live is None
    return session.events[first:]


def record_of(session: Session, events: list[Any]) -> DealRecord:
    before = fold(session.events[: len(session.events) - len(events)])
    start = next(i for i, e in enumerate(events) if e.type == "DealStarted")
    end = next(i for i, e in enumerate(events) if e.type == "DealEnded")
    base = len(session.events) - len(events)
    before = fold(events[:start], before)
    stored = tuple(
        SimpleNamespace(type=e.type, data=e.to_json(), version=base + i + 1)
        for i, e in enumerate(events[start : end + 1], start=start)
    )
    return DealRecord(
        table_id="t1", deal_no=stored[0].data["deal_no"], before=before, events=stored, over=True
    )  # type: ignore[arg-type]


def seen_cards(session: Session, events: list[Any], viewer: Viewer) -> set[str]:
    """Every card the table view showed this viewer at some point of the deal."""
    state = fold(session.events[: len(session.events) - len(events)])
    cards: set[str] = set()
    for event in events:
        state = fold([event], state)
        if state.deal is None:
            continue
        view = table_view(state, viewer, T0)["deal"]
        if view is None:
            continue
        for player in view["players"]:
            cards |= set(player["cards"] or ()) | set(player["face_up"] or ())
        cards |= set(view["board"])
        if view["ghost"] is not None:
            cards |= set(view["ghost"]["cards"] or ())
        for result in view["results"]:
            data = result["data"]
            for hand in data.get("hands") or ():
                cards |= set(hand.get("cards") or ())
            cards |= set(data.get("deck_cards") or ()) | set((data.get("ghost") or {}).get("cards") or ())
    return cards


def verified(proof: dict[str, Any]) -> tuple[int, str]:
    out = io.StringIO()
    return verify_deal.verify(proof, out), out.getvalue()


# Every variant whose deals are committed card by card (a short pack keeps the seed recipe:
# fair.committed_pack) and whose turns this driver plays; Buddha's Folly's offers and Wolfie's Lou's
# trump and tricks have their own redaction walk and chain attack (tests/audit).
DRIVEN = [
    name
    for name, variant in VARIANTS.items()
    if committed_pack(variant) and name not in ("buddhas_folly", "wolfies_lou")
]
VARIANT_CASES = [(name, options) for name in DRIVEN for options in VARIANT_OPTIONS.get(name, [{}])]


@pytest.mark.parametrize(("variant", "options"), VARIANT_CASES)
@given(seed=st.integers(0, 2**32), data=st.data())
@hypothesis_settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_every_roles_proof_verifies_and_opens_only_what_it_may_see(
    variant: str, options: dict[str, Any], seed: int, data: st.DataObject
) -> None:
    rng = random.Random(seed)
    floor = max(100, VARIANTS[variant].min_buy_in_antes * 5)
    session = table(
        PLAYERS, variant=variant, ante=5, declare_timeout=30, min_buy_in=floor, buy_in=10 * floor, **options
    )
    play_deal(session, data, rng)
    contributed = [p for p in PLAYERS if data.draw(st.booleans())]
    for player in contributed:
        session.do(cmd.ContributeSeed(player, f"{rng.getrandbits(256):064x}"))
    if session.state.status != "open":
        return
    if len(eligible_players(session.state)) < 2:  # a table that cannot deal again (stacks)
        return
    events = play_deal(session, data, rng)
    record = record_of(session, events)
    started = record.events[0].data
    assert [item["player"] for item in started["entropy"]] == contributed
    auditor = proof_json(record, AUDITOR)
    result, printed = verified(auditor)
    assert result == verify_deal.OK, printed
    assert auditor["ok"] is True
    assert len(auditor["openings"]) == len(auditor["deck"]) >= 52
    assert "whole deck OK" in printed
    for viewer in [*(Viewer(p) for p in record.events[0].data["participants"]), OUTSIDER]:
        proof = proof_json(record, viewer)
        result, printed = verified(proof)
        assert result == verify_deal.OK, printed
        assert proof["deck"] is None
        assert proof["reshuffles"] is None
        opened = {opening["card"] for opening in proof["openings"]}
        assert opened <= seen_cards(session, events, viewer)
        dealt = {card["index"] for card in proof["dealt"]}
        assert {opening["index"] for opening in proof["openings"]} <= dealt


def test_d_gen_02_a_reshuffled_stock_is_committed_afresh_and_each_role_verifies_it() -> None:
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
    for player in deal.order:
        session.do(cmd.Declare(player, 1, "out"))
    events = session.events[first:]
    reshuffled = [e for e in events if e.type == "StockReshuffled"]
    assert reshuffled
    assert all(e.root and len(e.salts) == e.count for e in reshuffled)
    record = record_of(session, events)
    auditor = proof_json(record, AUDITOR)
    result, printed = verified(auditor)
    assert result == verify_deal.OK, printed
    assert "reshuffled stock 1 OK" in printed
    drawer = next(
        e for e in events if e.type == "CardsDrawn" and e.drawn and e.drawn[-1] in reshuffled[0].cards
    )
    proof = proof_json(record, Viewer(drawer.player))
    result, printed = verified(proof)
    assert result == verify_deal.OK, printed
    assert any(opening["tree"] == 1 for opening in proof["openings"])
    # the player who discarded a card another drew after the reshuffle is not told who drew it
    card = drawer.drawn[-1]
    discarder = next(e.player for e in events if e.type == "CardsDrawn" and card in e.discarded)
    if discarder != drawer.player:
        theirs = proof_json(record, Viewer(discarder))
        assert not any(o["tree"] == 1 and o["card"] == card for o in theirs["openings"])
    tampered = json.loads(json.dumps(proof))
    opening = next(o for o in tampered["openings"] if o["tree"] == 1)
    opening["card"] = next(c for c in PACK_CARDS if c != opening["card"])
    assert verified(tampered)[0] == verify_deal.MISMATCH
