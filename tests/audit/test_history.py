"""Hand-history export: readable text and canonical JSON, per deal and per table (download)."""

from __future__ import annotations

import json

from tests.audit.conftest import Club, Session, client_for, everyone_in, hole_cards


def history(api: object, session: Session, deal_no: int, fmt: str) -> object:
    return api.get(f"/api/v1/tables/{session.table_id}/deals/{deal_no}/history", {"format": fmt})


def test_the_text_history_tells_the_whole_deal(club: Club, session: Session) -> None:
    deal_no = session.play(everyone_in)
    me = club.players[0]
    response = history(client_for(me), session, deal_no, "text")
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    text = response.content.decode()
    mine = " ".join(hole_cards(session.table_id, deal_no)[str(me.pk)])
    document = json.loads(history(client_for(me), session, deal_no, "json").content)
    after = document["after"]
    showdown, settlement = (only(document, kind) for kind in ("ShowdownHeld", "PotSettled"))
    for expected in (
        f"Deal {deal_no} (game 1) at table {session.table_id}",
        "Variant guts2",
        f"seat 0: {me.username} (#{me.pk}) stack 1000",
        "Antes of 10:",
        f"{me.username} (#{me.pk}): {mine}; declared in",
        "Showdown (contested):",
        "best hand:",
        f"Settlement: {settlement['outcome']}",
        f"After the deal: pot {after['pot']}, reserve {after['reserve']}",
        "every dealt card matches",
    ):
        assert expected in text, expected
    assert all(f"shows {' '.join(hand['cards'])}: {hand['value']}" in text for hand in showdown["hands"])
    assert all(f"-> {t['to']}: {t['amount']} ({t['reason']})" in text for t in settlement["transfers"])


def test_the_json_history_is_canonical_and_complete(club: Club, session: Session) -> None:
    deal_no = session.play(everyone_in)
    response = history(client_for(club.auditor), session, deal_no, "json")
    assert response["Content-Type"] == "application/json"
    document = json.loads(response.content)
    canonical = json.dumps(document, sort_keys=True, indent=1, ensure_ascii=False) + "\n"
    assert response.content.decode() == canonical
    assert document["format"] == "guts-deal-history/2"
    assert (document["deal_no"], document["finished"], document["variant"]) == (deal_no, True, "guts2")
    assert document["before"]["pot"] == 0
    assert document["after"]["pot"] == only(document, "PotSettled")["pot"]
    assert only(document, "AntesPosted")["paid"] == document["participants"]
    hands = hole_cards(session.table_id, deal_no)
    assert [hand["cards"] for hand in document["hands"]] == list(hands.values())
    assert document["proof"]["ok"] is True
    assert document["events"][0]["type"] == "DealStarted"
    assert document["players"][str(club.players[0].pk)] == club.players[0].username


def test_a_live_deal_history_has_no_proof_yet(club: Club, session: Session) -> None:
    deal_no = session.start()
    document = json.loads(history(client_for(club.auditor), session, deal_no, "json").content)
    assert (document["finished"], document["proof"]) == (False, None)
    assert [r["type"] for r in document["results"]] == ["AntesPosted"]
    text = history(client_for(club.auditor), session, deal_no, "text").content.decode()
    assert "its proof is served once the deal ends" in text


def test_the_whole_table_downloads_as_text_or_json(club: Club, session: Session) -> None:
    session.play(everyone_in)
    session.play(everyone_in)
    api = client_for(club.players[2])
    base = f"/api/v1/tables/{session.table_id}"
    for url, kind, extension in (
        (f"{base}/history.txt", "text/plain; charset=utf-8", "txt"),
        (f"{base}/history?format=text", "text/plain; charset=utf-8", "txt"),
        (f"{base}/history.json", "application/json", "json"),
        (f"{base}/history", "application/json", "json"),
    ):
        response = api.get(url)
        assert response.status_code == 200, url
        assert response["Content-Type"] == kind
        assert response["Content-Disposition"] == (
            f'attachment; filename="table-{session.table_id}-history.{extension}"'
        )
    document = json.loads(api.get(f"{base}/history.json").content)
    assert [deal["deal_no"] for deal in document["deals"]] == [1, 2]
    assert api.get(f"{base}/history.txt").content.decode().count("Deal ") == 2


def test_text_by_accept_header_and_unknown_formats(club: Club, session: Session) -> None:
    deal_no = session.play(everyone_in)
    api = client_for(club.auditor)
    url = f"/api/v1/tables/{session.table_id}/deals/{deal_no}/history"
    assert api.get(url, headers={"Accept": "text/plain"})["Content-Type"].startswith("text/plain")
    unknown = api.get(url, {"format": "xml"})
    assert unknown.status_code == 406
    assert json.loads(unknown.content)["code"] == "not_acceptable"
    missing = api.get(f"/api/v1/tables/{session.table_id}/deals/7/history", {"format": "text"})
    assert missing.status_code == 404
    assert json.loads(missing.content)["code"] == "unknown_deal"


def only(document: dict, kind: str) -> dict:
    """The data of the deal's one result of this type (a one-stage game)."""
    found = [r["data"] for r in document["results"] if r["type"] == kind]
    assert len(found) == 1, [r["type"] for r in document["results"]]
    return found[0]
