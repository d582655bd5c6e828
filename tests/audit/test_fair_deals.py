"""Fair deals of deck schema 2 through the real service and API (docs/deck.md §10, DESIGN §2.7).

The attack the seed recipe allowed: after a deal ends, an opponent, a player never seated at the
table and a player of another table read everything served to them (feeds, SSE, replay, deal and
table histories as JSON and text, the proof, the deal summaries, the table, every hash and
prev_hash) and try to learn a card never shown to them: a folded hand, the ghost hand, a private
comparison (D-357-03), a discard (EXC-01/02) and the undealt stock. Nothing matches: no such card
is served, no served salt opens a hidden commitment, no served hex value is a seed that deals the
hidden cards. An auditor recovers the whole deck and it checks.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.test import override_settings

from ledger.cashier import cashier_deposit, player_create
from ledger.models import Event
from tables import service
from tables.audit.deals import deal_load
from tables.audit.fairness import dealing_order
from tables.engine import fairdeck
from tables.engine.decider import commands as cmd
from tables.engine.decider.events import parse
from tables.engine.decider.evolve import fold
from tables.engine.decider.view import Viewer, legal_actions, table_view
from tables.engine.deck import STANDARD_PACK, italian_pack, shuffled_deck
from tables.state import load_table
from tests.audit.conftest import Club, client_for, open_session
from tests.audit.test_sse import events_of
from tests.audit.test_sse import parse as parse_sse

VERIFIER = Path(settings.BASE_DIR) / "docs" / "verify_deal.py"
CARD = re.compile(r"^[2-9TJQKA][cdhs]$")
TOKEN = re.compile(r"(?<![0-9A-Za-z])[2-9TJQKA][cdhs](?![0-9A-Za-z])")
HEX64, HEX32 = re.compile(r"^[0-9a-f]{64}$"), re.compile(r"^[0-9a-f]{32}$")
PACK = [str(card) for card in STANDARD_PACK]
SSE = {"GUTS_SSE_MAX_DURATION": 0.1, "GUTS_SSE_POLL": 0.01}
_names = itertools.count(1)


def new_player(name: str) -> AbstractUser:
    user = player_create(username=f"{name}{next(_names)}x", password="pw-not-used", display_name=name)
    cashier_deposit(player_id=user.pk, amount=100_000)
    return user


def post(user: AbstractUser, table_id: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    response = client_for(user).post(f"/api/v1/tables/{table_id}/{path}", body, format="json")
    assert response.status_code in (200, 201), response.content
    return response.json()


def seed_hex(n: int) -> str:
    return hashlib.sha256(f"client {n}".encode()).hexdigest()


def play(
    table_id: str,
    users: dict[str, AbstractUser],
    choose: dict[str, str],
    discards: dict[str, int] | None = None,
    *,
    seeded: bool = True,
) -> int:
    """One deal through the API: started by the first player, every draw and declare posted with
    a client_seed (unless not `seeded`), "in"/"out" as `choose` says (else what is legal)."""
    first = next(iter(users.values()))
    deal_no = post(first, table_id, "deals", {"client_seed": seed_hex(0)} if seeded else {})["deal"][
        "deal_no"
    ]
    for turn in range(60):
        state = load_table(table_id).state
        deal = state.live
        if deal is None:
            return deal_no
        for player in deal.awaiting:
            for action in legal_actions(state, player, state_time()):
                body: dict[str, Any] = {"deal_no": deal_no}
                if seeded:
                    body["client_seed"] = seed_hex(turn)
                if action["action"] == "exchange":
                    body["discards"] = action["choices"][: (discards or {}).get(player, 0)]
                    post(users[player], table_id, "exchanges", body)
                elif action["action"] == "declare":
                    stages = choose.get(player, "out").split("/")  # one choice per stage
                    wanted = stages[min(action["stage"], len(stages)) - 1]
                    body["choice"] = wanted if wanted in action["choices"] else action["choices"][0]
                    post(users[player], table_id, "declares", body)
                else:
                    continue
                break
    raise AssertionError("the deal did not end")


def state_time() -> Any:
    from django.utils import timezone

    return timezone.now()


def seen_by(table_id: str, deal_no: int, viewer: Viewer) -> set[str]:
    """Every card the engine's table view showed this viewer at some point of the deal."""
    record = deal_load(table_id=table_id, deal_no=deal_no)
    state, cards = record.before, set()
    for event in record.events:
        state = fold([parse(event.type, event.data)], state)
        view = table_view(state, viewer, state_time())["deal"]
        for player in view["players"]:
            cards |= set(player["cards"] or ()) | set(player["face_up"])
        cards |= set(view["board"]) | set((view["ghost"] or {}).get("cards") or ())
        for result in view["results"]:
            for hand in result["data"].get("hands") or ():
                cards |= set(hand.get("cards") or ())
            cards |= set((result["data"].get("ghost") or {}).get("cards") or ())
    return cards


def served(user: AbstractUser, table_id: str, deal_no: int) -> tuple[list[Any], list[str]]:
    """Everything the API serves this user about the table: JSON bodies and texts."""
    api, base = client_for(user), f"/api/v1/tables/{table_id}"
    bodies = [
        api.get(url).json()
        for url in (
            f"{base}/events?limit=500",
            base,
            f"{base}/deals",
            f"/api/v1/players/{user.pk}/deals",
            f"{base}/deals/{deal_no}/replay",
            f"{base}/deals/{deal_no}/proof",
            f"{base}/deals/{deal_no}/history?format=json",
            f"{base}/history.json",
        )
    ]
    texts = [
        api.get(url).content.decode()
        for url in (f"{base}/deals/{deal_no}/history?format=text", f"{base}/history.txt")
    ]
    with override_settings(**SSE):
        response = api.get(f"{base}/stream")
        stream = b"".join(response.streaming_content).decode()
    bodies.append([message["data"] for message in events_of(parse_sse(stream))])
    return bodies, texts


def strings(value: Any, key: str = "") -> Iterator[tuple[str, str]]:
    """Every (key, string) in a JSON value, the key being the nearest dict key above it."""
    if isinstance(value, str):
        yield key, value
    elif isinstance(value, dict):
        for name, item in value.items():
            yield from strings(item, name)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item, key)


def card_tokens(bodies: list[Any], texts: list[str]) -> set[str]:
    """Every card named in what was served (the public pack listing aside)."""
    found = {text for body in bodies for key, text in strings(body) if CARD.match(text) and key != "pack"}
    return found | {token for text in texts for token in TOKEN.findall(text)}


def assert_nothing_hidden_is_recoverable(
    bodies: list[Any], texts: list[str], hidden: set[str], dealt: list[Any]
) -> None:
    assert not card_tokens(bodies, texts) & hidden
    values = [text for body in bodies for _, text in strings(body)]
    hashes = {text for text in values if HEX64.match(text)}
    salts = {text for text in values if HEX32.match(text)}
    leaves = {hashlib.sha256(b"\x00" + bytes.fromhex(h)).hexdigest() for h in hashes}
    for salt, card in itertools.product(salts, hidden):  # a served salt opening a hidden card
        commitment = fairdeck.card_commitment(salt, card)
        assert commitment not in hashes
        assert commitment not in leaves
    hidden_slots = [(card.index, card.card) for card in dealt if card.card in hidden]
    for candidate in hashes:  # the seed recipe's attack
        deck = shuffled_deck(candidate)
        assert sum(deck[index] == card for index, card in hidden_slots if index < 52) < 2
    assert all(text is None for body in bodies for key, text in _keyed(body, "seed"))


def _keyed(value: Any, wanted: str) -> Iterator[tuple[str, Any]]:
    if isinstance(value, dict):
        for name, item in value.items():
            if name == wanted:
                yield name, item
            yield from _keyed(item, wanted)
    elif isinstance(value, list):
        for item in value:
            yield from _keyed(item, wanted)


def run_verifier(tmp_path: Path, document: object) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "proof.json"
    path.write_text(json.dumps(document))
    return subprocess.run(
        [sys.executable, str(VERIFIER), str(path)], capture_output=True, text=True, timeout=60, check=False
    )


def next_salts(table_id: str, deal_no: int) -> set[str]:
    """The salts of the deck committed for the next deal (server-side, never served)."""
    row = Event.objects.get(stream=f"table-{table_id}", type="DeckCommitted", data__deal_no=deal_no + 1)
    return set(row.data["salts"])


@pytest.mark.parametrize(
    ("variant", "options", "choose", "draws"),
    [
        ("guts2", {"ghost": "always", "exchange": "draw"}, ("in", "out", "out"), (1, 2, 0)),  # GH-02, EXC-01
        ("three_five_seven", {}, ("in/out", "in/out", "out"), (0, 0, 0)),  # D-357-03
    ],
    ids=["ghost-draw-fold", "private-comparison"],
)
def test_the_attack_nobody_but_an_auditor_learns_a_card_never_shown_to_him(
    club: Club,
    tmp_path: Path,
    variant: str,
    options: dict[str, Any],
    choose: tuple[str, ...],
    draws: tuple[int, ...],
) -> None:
    session = open_session(club.ids(), variant=variant, **options)
    users = {str(user.pk): user for user in club.players}
    order = list(users)
    deal_no = play(
        session.table_id, users, dict(zip(order, choose, strict=True)), dict(zip(order, draws, strict=True))
    )
    elsewhere = new_player("eve")  # a player of another table
    other = open_session([elsewhere.pk, club.outsider.pk])
    assert other.table_id != session.table_id
    record = deal_load(table_id=session.table_id, deal_no=deal_no)
    dealt = dealing_order(record.events)
    deck = set(PACK)
    secret_next = next_salts(session.table_id, deal_no)
    opponent = club.players[1]
    for user in (opponent, club.outsider, elsewhere):
        viewer = Viewer(str(user.pk)) if user is opponent else Viewer(None)
        hidden = deck - seen_by(session.table_id, deal_no, viewer)
        assert len(hidden) >= 30  # the stock at least
        bodies, texts = served(user, session.table_id, deal_no)
        assert_nothing_hidden_is_recoverable(bodies, texts, hidden, dealt)
        assert not {text for body in bodies for _, text in strings(body)} & secret_next
    hidden_from_opponent = deck - seen_by(session.table_id, deal_no, Viewer(str(opponent.pk)))
    if variant == "guts2":
        folded = {card.card for card in dealt if card.player == order[2]}
        assert folded <= hidden_from_opponent  # a folded hand stays hidden
        discarded = {
            c
            for e in record.events
            if e.type == "CardsDrawn" and e.data["player"] == order[0]
            for c in e.data["discarded"]
        }
        assert discarded
        assert discarded <= hidden_from_opponent  # another player's discard
        ghost = {card.card for card in dealt if card.player == "ghost"}
        shown = any(e.data.get("ghost") for e in record.events if e.type == "ShowdownHeld")
        assert ghost
        assert (ghost <= hidden_from_opponent) is not shown  # GH-02: hidden unless shown
    else:
        compared = [e for e in record.events if e.type == "ShowdownHeld" and e.data.get("private")]
        assert compared
        private = {c for e in compared for hand in e.data["hands"] for c in hand["cards"]}
        public = {
            c
            for e in record.events
            if e.type == "ShowdownHeld" and not e.data.get("private")
            for hand in e.data["hands"] or ()
            for c in hand["cards"]
        }
        outsider_hidden = deck - seen_by(session.table_id, deal_no, Viewer(None))
        assert private - public
        assert private - public <= outsider_hidden  # the private comparison
    auditor = client_for(club.auditor)
    proof = auditor.get(f"/api/v1/tables/{session.table_id}/deals/{deal_no}/proof").json()
    stored = Event.objects.get(
        stream=f"table-{session.table_id}", type="DeckCommitted", data__deal_no=deal_no
    ).data
    key = proof["permutation_key"]
    assert proof["deck"][:52] == fairdeck.dealing_sequence(stored["cards"], key)
    assert sorted(proof["deck"][:52]) == sorted(PACK)
    result = run_verifier(tmp_path, proof)
    assert result.returncode == 0, result.stdout
    assert "whole deck OK" in result.stdout
    assert not {text for _, text in strings(proof)} & secret_next  # the next deck stays sealed


def test_every_role_verifies_what_it_was_served(club: Club, tmp_path: Path) -> None:
    session = open_session(club.ids())
    users = {str(user.pk): user for user in club.players}
    play(session.table_id, users, {})
    deal_no = play(session.table_id, users, {})
    url = f"/api/v1/tables/{session.table_id}/deals/{deal_no}/proof"
    for user, role in ((club.players[0], "player"), (club.outsider, "anyone"), (club.auditor, "auditor")):
        proof = client_for(user).get(url).json()
        assert (proof["deck_schema"], proof["seed"], proof["player_entropy"]) == (2, None, True)
        result = run_verifier(tmp_path, proof)
        assert result.returncode == 0, result.stdout
        assert f"OK as {role}" in result.stdout
        assert "player entropy: " in result.stdout


def test_a_deal_nobody_sent_a_seed_for_says_it_had_no_player_entropy(club: Club, tmp_path: Path) -> None:
    session = open_session(club.ids())
    users = {str(user.pk): user for user in club.players}
    deal_no = play(session.table_id, users, {}, seeded=False)
    started = Event.objects.get(stream=f"table-{session.table_id}", type="DealStarted").data
    assert (started["deck_schema"], started["entropy"]) == (2, [])
    proof = client_for(club.players[0]).get(f"/api/v1/tables/{session.table_id}/deals/{deal_no}/proof").json()
    assert proof["player_entropy"] is False
    result = run_verifier(tmp_path, proof)
    assert result.returncode == 0
    assert "no player entropy" in result.stdout


def test_seeds_sent_when_sitting_down_key_the_first_deal(club: Club) -> None:
    opened = service.table_open(variant="guts2", options={"ante": 10})
    seeds = {}
    for n, user in enumerate(club.players):
        seeds[str(user.pk)] = seed_hex(100 + n)
        post(user, opened.table_id, "seats", {"buy_in": 1000, "client_seed": seeds[str(user.pk)]})
    users = {str(user.pk): user for user in club.players}
    deal_no = play(opened.table_id, users, {}, seeded=False)
    started = Event.objects.get(stream=f"table-{opened.table_id}", type="DealStarted", data__deal_no=deal_no)
    assert {item["player"]: item["client_seed"] for item in started.data["entropy"]} == seeds
    committed = Event.objects.get(stream=f"table-{opened.table_id}", type="DeckCommitted", data__deal_no=1)
    assert committed.version < started.version
    assert started.data["root"] == committed.data["root"]


def test_client_seeds_are_sealed_until_they_key_the_deal_then_published(club: Club) -> None:
    session = open_session(club.ids())
    users = {str(user.pk): user for user in club.players}
    play(session.table_id, users, {}, seeded=False)
    me, other = club.players[0], club.players[1]
    mine = "ab" * 32
    post(me, session.table_id, "sit-out", {"client_seed": mine})
    post(me, session.table_id, "sit-in", {"client_seed": "cd" * 32})  # only his first seed counts
    contributed = Event.objects.filter(stream=f"table-{session.table_id}", type="SeedContributed")
    assert [(e.data["player"], e.data["client_seed"]) for e in contributed] == [(str(me.pk), mine)]
    feed = client_for(other).get(f"/api/v1/tables/{session.table_id}/events?limit=500").json()["results"]
    assert mine not in json.dumps(feed)
    own = client_for(me).get(f"/api/v1/tables/{session.table_id}/events?limit=500").json()["results"]
    assert mine in json.dumps(own)
    deal_no = play(session.table_id, users, {})
    started = Event.objects.get(stream=f"table-{session.table_id}", type="DealStarted", data__deal_no=deal_no)
    assert {"player": str(me.pk), "client_seed": mine} in started.data["entropy"]


def test_a_bad_client_seed_is_refused_and_appends_nothing(club: Club) -> None:
    session = open_session(club.ids())
    before = Event.objects.count()
    response = client_for(club.players[0]).post(
        f"/api/v1/tables/{session.table_id}/deals", {"client_seed": "not hex"}, format="json"
    )
    assert response.status_code == 400
    assert Event.objects.count() == before


def tampered(proof: dict[str, Any], how: str) -> dict[str, Any]:
    document = json.loads(json.dumps(proof))
    openings = document["openings"]
    first, second = openings[0], openings[1]
    if how == "swapped card":
        first["card"], second["card"] = second["card"], first["card"]
    elif how == "wrong salt":
        first["salt"] = "00" * 16
    else:  # a position used twice
        second["position"], second["salt"], second["path"] = first["position"], first["salt"], first["path"]
        second["card"] = first["card"]
    return document


@pytest.mark.parametrize("how", ["swapped card", "wrong salt", "position used twice"])
@pytest.mark.parametrize("role", ["player", "auditor"])
def test_a_tampered_opening_fails_verify_deal(club: Club, tmp_path: Path, how: str, role: str) -> None:
    session = open_session(club.ids())
    users = {str(user.pk): user for user in club.players}
    deal_no = play(session.table_id, users, {})
    user = club.players[0] if role == "player" else club.auditor
    proof = client_for(user).get(f"/api/v1/tables/{session.table_id}/deals/{deal_no}/proof").json()
    assert run_verifier(tmp_path, proof).returncode == 0
    result = run_verifier(tmp_path, tampered(proof, how))
    assert result.returncode == 1, result.stdout
    assert "MISMATCH" in result.stdout


@override_settings(GUTS_ALLOW_STACKED_DECKS=True)
def test_a_stacked_deck_is_marked_and_verifies_as_such(club: Club, tmp_path: Path) -> None:
    opened = service.table_open(
        variant="guts2", options={"ante": 10}, stacked_decks=[["As", "Kd", "Qh", "Js", "Tc", "9d"]]
    )
    for player in club.ids():
        service.table_command(table_id=opened.table_id, command=cmd.SitDown(str(player), 1000))
    users = {str(user.pk): user for user in club.players}
    deal_no = play(opened.table_id, users, {})
    started = Event.objects.get(stream=f"table-{opened.table_id}", type="DealStarted").data
    assert started["stacked"] is True
    assert not Event.objects.filter(stream=f"table-{opened.table_id}", type="DeckCommitted").exists()
    proof = client_for(club.auditor).get(f"/api/v1/tables/{opened.table_id}/deals/{deal_no}/proof").json()
    assert (proof["stacked"], proof["provable"]) == (True, False)
    result = run_verifier(tmp_path, proof)
    assert result.returncode == 2
    assert "no proof possible" in result.stdout


def test_the_verifier_checks_a_whole_tables_history_as_its_reader(club: Club, tmp_path: Path) -> None:
    session = open_session(club.ids())
    users = {str(user.pk): user for user in club.players}
    play(session.table_id, users, {})
    play(session.table_id, users, {})
    response = client_for(club.players[0]).get(f"/api/v1/tables/{session.table_id}/history.json")
    result = run_verifier(tmp_path, json.loads(response.content))
    assert result.returncode == 0, result.stdout
    assert result.stdout.count("Deal ") == 2
    assert result.stdout.count("OK as player") == 2


def test_d_it_01_an_old_italian_deal_of_the_seed_recipe_keeps_verifying_by_it(
    club: Club, tmp_path: Path
) -> None:
    """A deal logged before the short pack was committed card by card (schema 1: the seed shuffled
    the short pack and DealEnded revealed it) is proven by that recipe, its event schema says so."""
    session = open_session(club.ids(), variant="italian", legacy=True)
    deal_no = session.start()
    while (deal := load_table(session.table_id).state.live) is not None:
        state = load_table(session.table_id).state
        player = deal.awaiting[0]
        action = next(a for a in legal_actions(state, player, state_time()) if a["action"] == "bet")
        choice = "check" if "check" in action["choices"] else "fold"
        service.table_command(table_id=session.table_id, command=cmd.Bet(player, deal.deal_no, choice))
    proof = client_for(club.players[0]).get(f"/api/v1/tables/{session.table_id}/deals/{deal_no}/proof").json()
    assert (proof["deck_schema"], proof["provable"], proof["ok"]) == (1, True, True)
    assert proof["pack"] == [str(card) for card in italian_pack(3)]  # D-IT-01: 8s to aces
    assert proof["seed"] is not None
    result = run_verifier(tmp_path, proof)
    assert result.returncode == 0, result.stdout
    assert "commitment OK" in result.stdout
