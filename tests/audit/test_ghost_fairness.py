"""DESIGN §2.7 with a ghost hand (D-GH-03): the fairness proof of a seeded deal counts the ghost's
cards in dealing order (the last recipient of each round), so every card verifies against the seed;
the ghost's cards are in the proof for auditors only (GH-02)."""

from __future__ import annotations

from ledger.models import Event
from tests.audit.conftest import Club, client_for, everyone_in, hole_cards, open_session


def ghost_cards(table_id: str, deal_no: int) -> list[str]:
    rows = Event.objects.filter(stream=f"table-{table_id}", type="GhostDealt").values_list("data", flat=True)
    return next(data["cards"] for data in rows if data["deal_no"] == deal_no)


def test_the_proof_deals_the_ghost_last_in_each_round(club: Club) -> None:
    session = open_session(club.ids(), ghost="always")
    deal_no = session.play(everyone_in)
    url = f"/api/v1/tables/{session.table_id}/deals/{deal_no}/proof"
    proof = client_for(club.auditor).get(url).json()
    assert (proof["provable"], proof["ok"], proof["commitment_ok"]) == (True, True, True)
    hands = hole_cards(session.table_id, deal_no)
    recipients = [*hands, "ghost"]
    held = {**hands, "ghost": ghost_cards(session.table_id, deal_no)}
    expected = [(recipients[i % 4], held[recipients[i % 4]][i // 4]) for i in range(8)]  # D-GH-03
    assert [(card["player"], card["card"]) for card in proof["dealt"]] == expected
    assert all(card["matches"] for card in proof["dealt"])
    assert proof["deck"][:8] == [card for _, card in expected]


def test_a_player_gets_every_verdict_but_not_the_ghosts_cards(club: Club) -> None:
    session = open_session(club.ids(), ghost="always")
    deal_no = session.play(lambda player: "out")  # GH-06: nobody in, no showdown
    url = f"/api/v1/tables/{session.table_id}/deals/{deal_no}/proof"
    proof = client_for(club.players[0]).get(url).json()
    ghost = [card for card in proof["dealt"] if card["player"] == "ghost"]
    assert [(card["card"], card["expected"], card["matches"]) for card in ghost] == [(None, None, True)] * 2
    assert proof["ok"] is True
