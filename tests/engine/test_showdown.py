"""showdown(): winners, losers, worst hands, ghost hands (G2-12, G2-14, SV-03, GH-04, D-GH-02, IT-30)."""

from __future__ import annotations

from tables.engine import HandValue, Showdown, evaluate, showdown


def guts2(*hands: str) -> list[HandValue]:
    return [evaluate(hand, "guts2") for hand in hands]


def test_g2_12_best_hand_wins_everyone_else_loses():
    result = showdown(guts2("Qs Qd", "As Kd", "7s 7c"))
    assert result == Showdown(winners=(0,), losers=(1, 2), worst=(1,), ghost_wins=False)


def test_g2_14_tied_best_hands_share():
    result = showdown(guts2("As Kd", "Ah Kc", "Qs Jd"))
    assert result.winners == (0, 1)
    assert result.losers == (2,)


def test_sv_03_tied_worst_hands_share():
    result = showdown(guts2("As Ad", "3s 2d", "3h 2c"))
    assert result.winners == (0,)
    assert result.worst == (1, 2)


def test_g2_15_all_tie_everyone_wins():
    result = showdown(guts2("As Kd", "Ah Kc"))
    assert result.winners == (0, 1)
    assert result.losers == ()
    assert result.worst == (0, 1)


def test_single_hand_wins_and_is_worst():
    assert showdown(guts2("3s 2d")) == Showdown(winners=(0,), losers=(), worst=(0,))


def test_gh_04_player_must_beat_the_ghost():
    result = showdown(guts2("Qs Qd", "As Kd"), ghost=evaluate("Js Jd", "guts2"))
    assert result.winners == (0,)
    assert not result.ghost_wins


def test_d_gh_02_a_tie_with_the_ghost_is_a_loss():
    result = showdown(guts2("Qs Qd", "As Kd"), ghost=evaluate("Qh Qc", "guts2"))
    assert result == Showdown(winners=(), losers=(0, 1), worst=(1,), ghost_wins=True)


def test_ghost_beats_everyone():
    result = showdown(guts2("Qs Jd"), ghost=evaluate("2h 2c", "guts2"))
    assert result.ghost_wins
    assert result.winners == ()
    assert result.losers == (0,)


class CycleValue(HandValue):
    """Rock-paper-scissors: a ranking whose `beats` is not a total order (like IT-28)."""

    WINS = {"rock": "scissors", "scissors": "paper", "paper": "rock"}

    def __init__(self, name: str) -> None:
        super().__init__("cycle", 0, "high_card", text=name)

    def beats(self, other: HandValue) -> bool:
        self._check(other)
        if other.describe() == "nothing":
            return self.describe() != "nothing"
        return self.WINS.get(self.describe()) == other.describe()


def test_it_30_non_transitive_cycle_winners_are_the_cycle():
    values = [CycleValue("rock"), CycleValue("nothing"), CycleValue("paper"), CycleValue("scissors")]
    result = showdown(values)
    assert result.winners == (0, 2, 3)
    assert result.losers == (1,)
    assert result.worst == (1,)


def test_cycle_without_a_bottom_hand_has_the_cycle_as_worst():
    values = [CycleValue("rock"), CycleValue("paper"), CycleValue("scissors")]
    result = showdown(values)
    assert result.winners == (0, 1, 2)
    assert result.worst == (0, 1, 2)


def test_a_hand_unbeaten_in_a_partial_cycle_wins_alone():
    values = [CycleValue("rock"), CycleValue("scissors"), CycleValue("nothing")]
    assert showdown(values).winners == (0,)


def test_no_hands():
    assert showdown([]) == Showdown(winners=(), losers=(), worst=())
