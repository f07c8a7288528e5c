"""Every operation's id and tag: what a generated client names its functions and modules after
(a test generates one, tests/client). A new route needs a line here."""

from __future__ import annotations

from api.http.openapi.parts import JSON

OPERATIONS: dict[tuple[str, str], tuple[str, str]] = {
    ("get", "/openapi.json"): ("get_openapi", "meta"),
    ("get", "/v1/health"): ("get_health", "meta"),
    ("get", "/v1/languages"): ("list_languages", "meta"),
    ("post", "/v1/players"): ("create_player", "players"),
    ("get", "/v1/me"): ("get_me", "players"),
    ("patch", "/v1/me"): ("rename_me", "players"),
    ("post", "/v1/me/token"): ("rotate_token", "players"),
    ("delete", "/v1/me/token"): ("sign_out", "players"),
    ("post", "/v1/queue"): ("join_queue", "matchmaking"),
    ("get", "/v1/queue"): ("get_queue", "matchmaking"),
    ("delete", "/v1/queue"): ("leave_queue", "matchmaking"),
    ("get", "/v1/lobbies/{lobby_id}"): ("get_lobby", "matchmaking"),
    ("post", "/v1/groups"): ("create_group", "groups"),
    ("post", "/v1/groups/join"): ("join_group", "groups"),
    ("get", "/v1/groups/{group_id}"): ("get_group", "groups"),
    ("post", "/v1/groups/{group_id}/start"): ("start_group", "groups"),
    ("post", "/v1/groups/{group_id}/invite"): ("new_invite", "groups"),
    ("delete", "/v1/groups/{group_id}/members/{member_id}"): ("remove_member", "groups"),
    ("get", "/v1/tournaments/{tournament_id}/state"): ("get_state", "tournaments"),
    ("get", "/v1/tournaments/{tournament_id}/history"): ("get_tournament_history", "tournaments"),
    ("post", "/v1/tournaments/{tournament_id}/guesses"): ("play_guess", "tournaments"),
    ("post", "/v1/tournaments/{tournament_id}/leave"): ("leave_tournament", "tournaments"),
    ("get", "/v1/tournaments/{tournament_id}/duels/{duel_id}"): ("watch_duel", "tournaments"),
    ("get", "/v1/tournaments/{tournament_id}/summary"): ("get_summary", "records"),
    ("get", "/v1/me/history"): ("get_my_history", "records"),
    ("get", "/v1/me/stats"): ("get_my_stats", "records"),
    ("get", "/v1/leaderboard"): ("get_leaderboard", "records"),
    ("get", "/v1/tournaments/{tournament_id}/duels/{duel_id}/analysis"): (
        "get_duel_analysis",
        "coach",
    ),
}


def name_operations(paths: JSON) -> None:
    """Give every operation of `paths` its id and tag (a KeyError names one without)."""
    for path, item in paths.items():
        for method, operation in item.items():
            operation_id, tag = OPERATIONS[(method, path)]
            operation["operationId"] = operation_id
            operation["tags"] = [tag]
