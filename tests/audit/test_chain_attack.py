"""DESIGN §2.6, the served hash chain gives away no hidden fact.

The attack, as an opponent runs it: read the feed during a live deal, then for every event whose
secret part is hidden from him, hash each possible value (2,652 ordered two-card hands, "in" or
"out", a passed card, ...) with everything else the event serves (stream, version, type, meta,
recorded_at, prev_hash, the public data) and compare with the served `hash`, or with the next
event's `prev_hash`. Before salted commitments, 2,652 guesses found the cards and 2 the declare.
Now no guess matches, not even the true value, because the hash covers a commitment under a
128-bit salt that is never served to him; yet every link of the chain re-checks from what is
served (docs/verify_deal.py), and once the facts are shown their commitments check too.
"""

from __future__ import annotations

import importlib.util
import io
import itertools
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import AbstractUser
from django.core.management import call_command

from ledger.models import Event
from ledger.verify import verify_ledger
from tables import service
from tables.engine.decider import commands as cmd
from tests.audit.conftest import Club, client_for, open_session

RANKS, SUITS = "23456789TJQKA", "cdhs"
PACK = [rank + suit for rank in RANKS for suit in SUITS]
TWO_CARD_HANDS = [list(hand) for hand in itertools.permutations(PACK, 2)]  # 2,652

_VERIFIER = Path(__file__).parents[2] / "docs" / "verify_deal.py"  # the standalone client-side check
_spec = importlib.util.spec_from_file_location("verify_deal", _VERIFIER)
assert _spec is not None
assert _spec.loader is not None
verify_deal = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(verify_deal)


def feed(user: AbstractUser, table_id: str) -> list[dict[str, Any]]:
    response = client_for(user).get(f"/api/v1/tables/{table_id}/events", {"limit": 500})
    assert response.status_code == 200
    return response.json()["results"]


def guess_hashes(event: dict[str, Any], key: str, candidates: list[Any]) -> set[str]:
    """The hashes an attacker gets by putting each candidate in place of the hidden value, in the
    clear (the old recipe) and as an unsalted commitment (in case the salt were empty)."""
    hashes = set()
    for value in candidates:
        for stand_in in (value, verify_deal.sealed_commitment("", key, value)):
            guess = {**event, "commitments": {}, "data": {**event["data"], key: stand_in}}
            guess["data"].pop("secret", None)
            hashes.add(verify_deal.chain_hash(guess))
            guess["data"]["secret"] = event["data"].get("secret")
            hashes.add(verify_deal.chain_hash(guess))
    return hashes


def served_hashes_of(events: list[dict[str, Any]], event: dict[str, Any]) -> set[str]:
    """The event's hash as served, and the next event's prev_hash in its stream."""
    found = {event["hash"]}
    found |= {
        e["prev_hash"]
        for e in events
        if e["stream"] == event["stream"] and e["version"] == event["version"] + 1
    }
    return found - {None}


def salts(table_id: str) -> list[str]:
    rows = Event.objects.filter(stream=f"table-{table_id}").values_list("data", flat=True)
    return [data["salt"] for data in rows if "salt" in data]


def assert_unrecoverable(
    events: list[dict[str, Any]], kind: str, key: str, candidates: list[Any], truth: dict[str, Any]
) -> int:
    """No candidate (the true value included) reproduces a served hash of a hidden `kind` event."""
    attacked = 0
    for event in events:
        if event["type"] != kind or event["data"].get(key) is not None:
            continue
        attacked += 1
        served = served_hashes_of(events, event)
        assert len(event["hash"]) == 64  # the chain IS served
        assert event["hash"] in served
        true_value = truth[event["data"]["player"]]
        guesses = guess_hashes(event, key, [*candidates, true_value])
        assert not served & guesses, f"{kind}.{key} recovered from the chain"
    return attacked


def assert_chain_checks(events: list[dict[str, Any]]) -> None:
    out = io.StringIO()
    assert verify_deal.verify_chain(events, out) == verify_deal.OK, out.getvalue()


def own_salts(table_id: str, player: str | None) -> set[str]:
    rows = Event.objects.filter(stream=f"table-{table_id}", type="CardsDealt").values_list("data", flat=True)
    return {data["salt"] for data in rows if data["player"] == player}


def assert_no_salt_served(text: str, table_id: str, may_see: set[str]) -> None:
    for salt in salts(table_id):
        if salt not in may_see:
            assert salt not in text


@pytest.fixture
def live_deal(club: Club, settings: Any) -> tuple[str, dict[str, list[str]]]:
    """A three-player simultaneous-declare deal on a known deck; the first player declared in."""
    settings.GUTS_ALLOW_STACKED_DECKS = True
    deck = ["As", "Qd", "2c", "Ks", "Jd", "7h"]
    opened = service.table_open(
        variant="guts2", stacked_decks=[deck], options={"ante": 10, "declare_mode": "simultaneous"}
    )
    for player in club.ids():
        service.table_command(table_id=opened.table_id, command=cmd.SitDown(str(player), 500))
    service.table_command(table_id=opened.table_id, command=cmd.StartDeal())
    service.table_command(table_id=opened.table_id, command=cmd.Declare(str(club.players[0].pk), 1, "in"))
    rows = Event.objects.filter(stream=f"table-{opened.table_id}", type="CardsDealt")
    return opened.table_id, {data["player"]: data["cards"] for data in rows.values_list("data", flat=True)}


@pytest.mark.parametrize("role", ["opponent", "outsider", "admin", "auditor"])
def test_hole_cards_and_sealed_declares_cannot_be_brute_forced_from_the_chain(
    club: Club, live_deal: tuple[str, dict[str, list[str]]], role: str
) -> None:
    table_id, hands = live_deal
    viewer = {
        "opponent": club.players[1],
        "outsider": club.outsider,
        "admin": club.admin,
        "auditor": club.auditor,
    }[role]
    events = feed(viewer, table_id)
    own = str(viewer.pk) if role == "opponent" else None
    hidden_hands = {player: cards for player, cards in hands.items() if player != own}
    assert assert_unrecoverable(events, "CardsDealt", "cards", TWO_CARD_HANDS, hands) == len(hidden_hands)
    declarer = str(club.players[0].pk)
    assert assert_unrecoverable(events, "Declared", "choice", ["in", "out"], {declarer: "in"}) == 1
    assert_chain_checks(events)
    assert_no_salt_served(json.dumps(events), table_id, may_see=own_salts(table_id, own))


def test_a_player_sees_his_own_salt_and_checks_his_cards_against_the_chain(
    club: Club, live_deal: tuple[str, dict[str, list[str]]]
) -> None:
    table_id, hands = live_deal
    player = club.players[1]
    events = feed(player, table_id)
    mine = next(e for e in events if e["type"] == "CardsDealt" and e["data"]["player"] == str(player.pk))
    assert mine["data"]["cards"] == hands[str(player.pk)]
    assert len(mine["data"]["salt"]) == 32
    assert (
        verify_deal.sealed_commitment(mine["data"]["salt"], "cards", mine["data"]["cards"])
        == mine["commitments"]["cards"]
    )
    assert_chain_checks(events)
    others = [e for e in events if e["type"] == "CardsDealt" and e["data"]["player"] != str(player.pk)]
    text = json.dumps(events)
    assert all(e["data"]["cards"] is None and "salt" not in e["data"] for e in others)
    stored = {
        data["player"]: data["salt"]
        for data in Event.objects.filter(stream=f"table-{table_id}", type="CardsDealt").values_list(
            "data", flat=True
        )
    }
    assert all(salt not in text for who, salt in stored.items() if who != str(player.pk))


def test_passed_and_exchanged_cards_cannot_be_brute_forced(club: Club, settings: Any) -> None:  # AO-06
    settings.GUTS_ALLOW_STACKED_DECKS = True
    opened = service.table_open(
        variant="guts2",
        stacked_decks=[["As", "Qd", "2c", "Ks", "Jd", "7h"]],
        options={"ante": 5, "declare_mode": "simultaneous", "all_out": "pass_right"},
    )
    table_id, players = opened.table_id, club.ids()
    for player in players:
        service.table_command(table_id=table_id, command=cmd.SitDown(str(player), 200))
    service.table_command(table_id=table_id, command=cmd.StartDeal())
    for player in players:
        service.table_command(table_id=table_id, command=cmd.Declare(str(player), 1, "out"))
    rows = {
        data["player"]: data["cards"]
        for data in Event.objects.filter(stream=f"table-{table_id}", type="CardsDealt").values_list(
            "data", flat=True
        )
    }
    passes = {str(player): rows[str(player)][0] for player in players}
    for player in players:
        service.table_command(table_id=table_id, command=cmd.PassCard(str(player), 1, passes[str(player)]))
    exchanged = {
        data["player"]: data
        for data in Event.objects.filter(stream=f"table-{table_id}", type="CardsExchanged").values_list(
            "data", flat=True
        )
    }
    assert len(exchanged) == 3
    viewer = club.outsider
    events = feed(viewer, table_id)
    assert assert_unrecoverable(events, "CardPassed", "card", PACK, passes) == 3
    for key in ("gave", "received"):
        truth = {player: data[key] for player, data in exchanged.items()}
        assert assert_unrecoverable(events, "CardsExchanged", key, PACK, truth) == 3
    assert_chain_checks(events)
    assert_no_salt_served(json.dumps(events), table_id, may_see=set())


def test_after_the_deal_an_auditor_checks_every_commitment_and_the_whole_chain(
    club: Club, live_deal: tuple[str, dict[str, list[str]]]
) -> None:
    table_id, hands = live_deal
    for player in club.players[1:]:
        service.table_command(table_id=table_id, command=cmd.Declare(str(player.pk), 1, "out"))
    events = feed(club.auditor, table_id)
    sealed = [e for e in events if e["commitments"]]
    assert {e["type"] for e in sealed} == {"TableOpened", "CardsDealt", "Declared"}
    shown = [e for e in sealed if "salt" in e["data"]]
    assert {e["type"] for e in shown} == {"CardsDealt", "Declared"}  # never the stacked decks
    assert {e["data"]["player"]: e["data"]["cards"] for e in shown if e["type"] == "CardsDealt"} == hands
    out = io.StringIO()
    assert verify_deal.verify_chain(events, out) == verify_deal.OK
    assert "match their commitments" in out.getvalue()
    assert verify_ledger().ok
    assert client_for(club.auditor).get("/api/v1/audit/verify").json()["ok"] is True
    call_command("verify_ledger", stdout=io.StringIO())


def test_a_changed_card_fails_its_commitment(club: Club, live_deal: tuple[str, dict[str, list[str]]]) -> None:
    table_id, _ = live_deal
    for player in club.players[1:]:
        service.table_command(table_id=table_id, command=cmd.Declare(str(player.pk), 1, "out"))
    events = feed(club.auditor, table_id)
    dealt = next(e for e in events if e["type"] == "CardsDealt")
    dealt["data"]["cards"] = ["2c", "2d"]  # what a lying server would show
    out = io.StringIO()
    assert verify_deal.verify_chain(events, out) == verify_deal.MISMATCH
    assert "not the value committed" in out.getvalue()


def test_salts_are_128_bits_and_never_repeat(club: Club, live_deal: tuple[str, dict[str, list[str]]]) -> None:
    table_id, _ = live_deal
    found = salts(table_id)
    assert len(found) >= 5
    assert len(set(found)) == len(found)
    assert all(len(salt) == 32 and set(salt) <= set("0123456789abcdef") for salt in found)


def test_the_seed_is_sealed_until_the_deal_ends_then_checks_against_the_chain(club: Club) -> None:  # §2.7
    session = open_session(club.ids(), legacy=True)  # an old deal: deck schema 1
    session.start()
    table_id = session.table_id
    seed = Event.objects.get(stream=f"table-{table_id}", type="DealStarted").data["seed"]
    live = [e for e in feed(club.players[0], table_id) if e["type"] == "DealStarted"]
    assert live[0]["data"]["seed"] is None
    assert len(live[0]["commitments"]["seed"]) == 64
    assert seed not in json.dumps(live)
    session.declare_all(lambda player: "out")
    events = feed(club.outsider, table_id)
    started = next(e for e in events if e["type"] == "DealStarted")
    assert started["data"]["seed"] == seed
    salt = started["data"]["salt"]
    assert verify_deal.sealed_commitment(salt, "seed", seed) == started["commitments"]["seed"]
    assert_chain_checks(events)


def test_legacy_unsealed_events_withhold_their_hash_and_the_next_prev_hash(
    club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Events stored before sealing existed hash their hidden facts in the clear."""
    monkeypatch.setattr(service, "secret_keys", lambda *_: ())
    session = open_session(club.ids())
    session.start()
    events = feed(club.outsider, session.table_id)
    by_version = {e["version"]: e for e in events}
    dealt = [e for e in events if e["type"] == "CardsDealt"]
    assert all(e["commitments"] == {} and e["hash"] is None for e in dealt)
    following = [by_version[e["version"] + 1] for e in dealt if e["version"] + 1 in by_version]
    assert following
    assert all(e["prev_hash"] is None for e in following)
    page = (
        client_for(club.outsider)
        .get(f"/api/v1/tables/{session.table_id}/events", {"after": dealt[0]["position"], "limit": 1})
        .json()["results"]
    )
    assert page[0]["prev_hash"] is None  # also when the hidden event is off the page


def test_the_standalone_verifier_checks_a_served_feed(
    club: Club, live_deal: tuple[str, dict[str, list[str]]], tmp_path: Path
) -> None:
    table_id, _ = live_deal
    page = client_for(club.outsider).get(f"/api/v1/tables/{table_id}/events", {"limit": 500}).content
    path = tmp_path / "feed.json"
    path.write_bytes(page)
    run = subprocess.run(
        [sys.executable, str(_VERIFIER), "--chain", str(path)], capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stdout + run.stderr
    path.write_bytes(page.replace(b'"version":1,', b'"version":2,', 1))
    tampered = subprocess.run(
        [sys.executable, str(_VERIFIER), "--chain", str(path)], capture_output=True, text=True, check=False
    )
    assert tampered.returncode == 1


def test_an_idempotency_key_never_reaches_the_served_meta(
    club: Club, live_deal: tuple[str, dict[str, list[str]]]
) -> None:
    """A client's key may spell out its sealed choice; meta carries only an HMAC tag of it."""
    table_id, _ = live_deal
    bob = club.players[1]
    answer = client_for(bob).post(
        f"/api/v1/tables/{table_id}/declares",
        {"deal_no": 1, "choice": "out"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="declare-out-by-bob",
    )
    assert answer.status_code == 200, answer.content
    for viewer in (club.players[0], club.players[2], club.outsider, club.auditor, club.admin):
        events = feed(viewer, table_id)
        assert "declare-out-by-bob" not in json.dumps(events)
        declared = [e for e in events if e["type"] == "Declared" and e["data"]["player"] == str(bob.pk)]
        assert len(declared[0]["meta"]["idempotency"]) == 32
