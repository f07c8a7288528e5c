"""R18, R19, D6, D7 (lobbies), R22, D11 (groups)."""

from __future__ import annotations

import pytest

from core import errors, groups, lobby
from core.lobby import Lobby, LobbySeat
from core.timing import PLAYERS_PER_TOURNAMENT
from tests.core.helpers import start


def filled(lobby_id: str, ratings: list[int], language: str = "en", created_at: int = 0) -> Lobby:
    lb = Lobby(lobby_id, language, created_at)
    for i, r in enumerate(ratings):
        lb = lobby.seat(lb, f"{lobby_id}-{i}", r, language)
    return lb


def test_r18_only_lobbies_within_200_points_are_offered() -> None:
    lb = filled("a", [1000, 1100])  # rating 1050
    assert lobby.eligible(lb, 850, "en") and lobby.eligible(lb, 1250, "en")
    assert not lobby.eligible(lb, 849, "en") and not lobby.eligible(lb, 1251, "en")
    with pytest.raises(errors.NotEligible):
        lobby.seat(lb, "far", 1251, "en")
    assert lobby.choose([lb], 1251, "en") is None


def test_r18_the_window_never_widens() -> None:
    assert lobby.RATING_WINDOW == 200
    ancient = filled("old", [1000], created_at=-(10**12))
    assert not lobby.eligible(ancient, 1201, "en")  # however long it has waited


def test_d6_lobby_rating_is_the_mean_and_moves_as_seats_fill() -> None:
    lb = filled("a", [1000])
    lb = lobby.seat(lb, "b", 1200, "en")
    assert lb.rating == 1100
    assert lobby.eligible(lb, 1300, "en")  # 1300 was out of reach of the first player alone
    with pytest.raises(ValueError):
        _ = Lobby("empty", "en", 0).rating


def test_d6_language_must_be_the_one_asked_for() -> None:
    lb = filled("a", [1000], language="de")
    assert not lobby.eligible(lb, 1000, "en")
    with pytest.raises(errors.NotEligible):
        lobby.seat(lb, "x", 1000, "en")


def test_d6_a_fresh_lobby_takes_only_players_of_its_language() -> None:
    with pytest.raises(errors.NotEligible):
        lobby.seat(Lobby("fresh", "de", 0), "x", 1000, "en")
    assert lobby.seat(Lobby("fresh", "de", 0), "x", 1000, "de").has("x")


def test_d6_prefer_fullest_then_closest_then_oldest() -> None:
    fuller = filled("fuller", [1190, 1190, 1190])
    closer = filled("closer", [1000, 1000])
    older_far = filled("older-far", [1050, 1050], created_at=-5)
    newer_far = filled("newer-far", [1050, 1050], created_at=5)
    pool = [closer, newer_far, older_far, fuller]
    assert lobby.choose(pool, 1000, "en") == fuller
    assert lobby.choose(pool[:3], 1000, "en") == closer
    assert lobby.choose(pool[1:3], 1000, "en") == older_far
    assert lobby.choose([], 1000, "en") is None


def test_d7_lobby_is_full_with_eight_and_refuses_a_ninth() -> None:
    lb = filled("a", [1000] * 7)
    assert not lb.full and lb.open_seats == 1
    lb = lobby.seat(lb, "eighth", 1000, "en")
    assert lb.full and lb.open_seats == 0 and len(lb.seats) == PLAYERS_PER_TOURNAMENT
    assert not lobby.eligible(lb, 1000, "en")
    with pytest.raises(errors.LobbyFull):
        lobby.seat(lb, "ninth", 1000, "en")


def test_d7_the_tournament_starts_at_once_with_round_ones_intro() -> None:
    t = start(now=123_456)
    assert t.created_at == t.round.intro_at == 123_456
    assert t.phase(123_456) == "intro"


def test_r19_leaving_the_lobby_before_the_start_costs_nothing() -> None:
    lb = filled("a", [1000, 1100, 1200])
    left = lobby.unseat(lb, "a-2")
    assert [s.player for s in left.seats] == ["a-0", "a-1"] and left.rating == 1050
    with pytest.raises(errors.NotSeated):
        lobby.unseat(left, "a-2")
    assert lobby.seat(left, "a-2", 1200, "en").has("a-2")  # and may come straight back


def test_d14_a_player_holds_one_seat() -> None:
    lb = filled("a", [1000])
    with pytest.raises(errors.AlreadySeated):
        lobby.seat(lb, "a-0", 1000, "en")


# ---------------------------------------------------------------------------- groups


def test_r22_group_gathers_up_to_eight_and_lands_in_one_lobby() -> None:
    g = groups.create("g", "en", "lead", "code-1", 0)
    for i in range(7):
        g = groups.join(g, f"m{i}")
    with pytest.raises(errors.GroupFull):
        groups.join(g, "m7")
    with pytest.raises(errors.AlreadyMember):
        groups.join(groups.remove(g, "m6", "m6"), "m0")
    members = [LobbySeat(m, 1000 + 100 * i) for i, m in enumerate(g.members[:3])]
    lb = lobby.seat_group(Lobby("L", "en", 0, group_id=g.id), members)
    assert [s.player for s in lb.seats] == ["lead", "m0", "m1"]
    assert lb.rating == 1100 and lb.open_seats == 5
    with pytest.raises(ValueError):
        lobby.seat_group(lb, members)  # only into a fresh lobby
    with pytest.raises(ValueError):
        lobby.seat_group(Lobby("L2", "en", 0), [])


def test_r22_only_the_leader_starts_and_only_once_nobody_is_still_playing() -> None:
    g = groups.join(groups.join(groups.create("g", "en", "lead", "c", 0), "a"), "b")
    with pytest.raises(errors.NotLeader):
        groups.check_start(g, "a", busy=())
    with pytest.raises(errors.MembersBusy) as e:
        groups.check_start(g, "lead", busy={"b", "stranger"})
    assert e.value.busy == ("b",)
    groups.check_start(g, "lead", busy={"stranger"})


def test_d11_group_lobby_is_rated_by_its_members_and_r18_applies_to_fillers() -> None:
    members = [LobbySeat("x", 1000), LobbySeat("y", 1600)]  # the members' spread is fine
    lb = lobby.seat_group(Lobby("L", "en", 0, group_id="g"), members)
    assert lb.rating == 1300
    assert lobby.eligible(lb, 1500, "en") and not lobby.eligible(lb, 1000, "en")
    lb = lobby.seat(lb, "filler", 1500, "en")
    assert lb.rating == 1300  # still the group's mean, whoever fills the seats


def test_d11_longest_standing_member_leads_when_the_leader_leaves() -> None:
    g = groups.join(groups.join(groups.create("g", "en", "lead", "c", 0), "a"), "b")
    assert g.leader == "lead"
    with pytest.raises(errors.NotLeader):
        groups.remove(g, "a", "b")
    g = groups.remove(g, "lead", "lead")
    assert g.leader == "a"
    g = groups.remove(g, "a", "b")  # the new leader may remove others
    assert g.members == ("a",)
    with pytest.raises(errors.NotMember):
        groups.remove(g, "a", "b")
    assert groups.remove(g, "a", "a").empty and groups.remove(g, "a", "a").leader is None


def test_d11_only_the_leader_revokes_the_invite_code() -> None:
    g = groups.join(groups.create("g", "en", "lead", "old", 0), "a")
    with pytest.raises(errors.NotLeader):
        groups.new_invite(g, "a", "new")
    assert groups.new_invite(g, "lead", "new").invite_code == "new"
