"""Statements that explain themselves: running balances linked to the event and the deal."""

from __future__ import annotations

from ledger.models import AccountBalance
from tests.audit.conftest import Club, Session, client_for, everyone_in


def statement(api: object, account: str, **query: object) -> object:
    return api.get(f"/api/v1/audit/accounts/{account}/statement", query)


def test_a_seat_statement_explains_the_stack_line_by_line(club: Club, session: Session) -> None:
    deal_no = session.play(everyone_in)
    me = club.players[0].pk
    account = f"seat:{session.table_id}:{me}"
    body = statement(client_for(club.players[0]), account).json()
    lines = body["results"]
    assert body["account"] == account
    assert body["count"] == len(lines) >= 3
    assert lines[0]["reason"] == "buy_in"
    assert lines[0]["deal"] is None
    assert lines[0]["event"]["type"] == "PlayerSeated"
    running = 0
    for line in lines:
        running += line["amount"]
        assert line["balance_after"] == running
        assert line["event"]["stream"] == f"table-{session.table_id}"
    in_deal = [line for line in lines if line["deal"] is not None]
    assert {line["event"]["type"] for line in in_deal} >= {"AntesPosted", "PotSettled"}
    assert all(line["deal"] == {"table_id": session.table_id, "deal_no": deal_no} for line in in_deal)
    assert f"in deal {deal_no} at table {session.table_id}" in in_deal[0]["explanation"]
    assert running == AccountBalance.objects.get(account=account).balance


def test_a_bankroll_statement_links_buy_ins_to_the_table(club: Club, session: Session) -> None:
    me = club.players[0].pk
    lines = statement(client_for(club.players[0]), f"player:{me}").json()["results"]
    assert [(line["reason"], line["amount"]) for line in lines] == [("deposit", 100_000), ("buy_in", -1000)]
    assert lines[1]["table_id"] == session.table_id
    assert lines[1]["counterparty"] == f"seat:{session.table_id}:{me}"
    assert lines[1]["balance_after"] == 99_000


def test_players_read_only_their_own_accounts(club: Club, session: Session) -> None:
    other = club.players[1].pk
    api = client_for(club.players[0])
    for account in (
        f"player:{other}",
        f"seat:{session.table_id}:{other}",
        f"pot:{session.table_id}",
        "cashier",
    ):
        response = statement(api, account)
        assert response.status_code == 403, account
        assert response.json()["code"] == "forbidden"


def test_auditors_and_admins_read_any_account(club: Club, session: Session) -> None:
    session.play(everyone_in)
    for user in (club.auditor, club.admin):
        pot = statement(client_for(user), f"pot:{session.table_id}", unit="chips").json()
        assert pot["count"] >= 2
        assert all(line["deal"]["deal_no"] == 1 for line in pot["results"])


def test_statements_page_with_limit_and_offset(club: Club, session: Session) -> None:
    session.play(everyone_in)
    session.play(everyone_in)
    account = f"seat:{session.table_id}:{club.players[0].pk}"
    api = client_for(club.auditor)
    everything = statement(api, account).json()["results"]
    first = statement(api, account, limit=2).json()
    second = statement(api, account, limit=2, offset=2).json()
    assert first["results"] + second["results"] == everything[:4]
    assert "offset=2" in first["next"]
