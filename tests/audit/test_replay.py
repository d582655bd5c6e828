"""Replay equals what the live projections showed; one step (?at=); pinned rules; problems."""

from __future__ import annotations

import random

import pytest

from tables.models import TableSnapshot
from tables.state import cache
from tests.audit.conftest import Club, Session, client_for, open_session


def random_choices(seed: int) -> object:
    rng = random.Random(seed)
    return lambda player: rng.choice(["in", "in", "out"])


@pytest.fixture
def recorded(club: Club) -> Session:
    """Eight deals with random declares, the projections recorded after every command."""
    session = open_session(club.ids(), pot_limit=60)
    choose = random_choices(7)
    for _ in range(8):
        session.play(choose)
    return session


def replay(api: object, session: Session, deal_no: int, **query: object) -> dict:
    response = api.get(f"/api/v1/tables/{session.table_id}/deals/{deal_no}/replay", query)
    assert response.status_code == 200, response.content
    return response.json()


def summary(state: dict) -> tuple:
    return (
        state["deal_no"],
        state["pot"],
        state["reserve"],
        state["phase"],
        {seat["player"]: seat["stack"] for seat in state["seats"]},
    )


def test_replaying_every_deal_equals_the_projections_at_each_point(club: Club, recorded: Session) -> None:
    api = client_for(club.auditor)
    steps: dict[int, dict] = {}
    for deal_no in range(1, 9):
        for step in replay(api, recorded, deal_no)["steps"]:
            steps[step["event"]["version"]] = step["state"]
    points = [seen for seen in recorded.seen if seen.deal_no >= 1]
    assert len(points) > 16
    for seen in points:
        version = max(v for v in steps if v <= seen.version)  # GameEnded may follow DealEnded
        assert summary(steps[version]) == (seen.deal_no, seen.pot, seen.reserve, seen.phase, seen.stacks)


def test_each_deal_starts_where_the_last_one_ended(club: Club, recorded: Session) -> None:
    api = client_for(club.players[0])
    previous = None
    for deal_no in range(1, 9):
        body = replay(api, recorded, deal_no)
        assert body["finished"] is True
        assert body["steps"][0]["event"]["type"] == "DealStarted"
        assert body["steps"][-1]["event"]["type"] == "DealEnded"
        if previous is not None:
            before, after = summary(body["before"]), summary(previous["steps"][-1]["state"])
            assert before[1:3] == after[1:3]
            assert before[4] == after[4]
        previous = body


def test_one_step_with_at(club: Club, recorded: Session) -> None:
    api = client_for(club.players[1])
    full = replay(api, recorded, 3)
    middle = full["steps"][len(full["steps"]) // 2]
    one = replay(api, recorded, 3, at=middle["event"]["version"])
    assert one["steps"] == [middle]
    outside = api.get(f"/api/v1/tables/{recorded.table_id}/deals/3/replay", {"at": 1})
    assert outside.status_code == 404
    assert outside.json()["code"] == "version_not_in_deal"


def test_replay_does_not_depend_on_snapshots(club: Club, recorded: Session) -> None:
    """A snapshot is a cache: without any, the fold from the start gives the same replay."""
    api = client_for(club.auditor)
    with_snapshots = replay(api, recorded, 6)
    assert TableSnapshot.objects.filter(table_id=recorded.table_id).exists()
    TableSnapshot.objects.filter(table_id=recorded.table_id).delete()
    cache.clear()
    assert replay(api, recorded, 6) == with_snapshots


def test_replay_is_pinned_to_the_recorded_rules(club: Club) -> None:
    session = open_session(club.ids(), ante=7, pot_limit=70, declare_mode="simultaneous")
    session.play(lambda player: "in")
    body = replay(client_for(club.auditor), session, 1)
    assert body["rules"]["variant"] == "guts2"
    assert (body["rules"]["options"]["ante"], body["rules"]["options"]["pot_limit"]) == (7, 70)
    antes = next(step for step in body["steps"] if step["event"]["type"] == "AntesPosted")
    assert antes["state"]["pot"] == 21


def test_a_live_deal_replays_up_to_now(club: Club, recorded: Session) -> None:
    deal_no = recorded.start()
    body = replay(client_for(club.auditor), recorded, deal_no)
    assert body["finished"] is False
    assert body["steps"][-1]["state"]["phase"] == "declare"
    assert all(player["cards"] is None for player in body["steps"][-1]["state"]["deal"]["players"])


@pytest.mark.parametrize(("deal_no", "code"), [(0, "unknown_deal"), (9, "unknown_deal")])
def test_unknown_deals_are_404(club: Club, recorded: Session, deal_no: int, code: str) -> None:
    response = client_for(club.auditor).get(f"/api/v1/tables/{recorded.table_id}/deals/{deal_no}/replay")
    assert response.status_code == 404
    assert response.json()["code"] == code
