"""Every route of the site with sample arguments, so the security tests can cover
each one and notice a new route that nobody classified."""

from __future__ import annotations

from collections.abc import Iterator

from django.urls import URLPattern, URLResolver, get_resolver

from tests.security.world import World


def route_names() -> set[str]:
    """``namespace:name`` (or ``name``) of every route outside the admin."""

    def walk(patterns: list, namespace: str | None) -> Iterator[str]:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                if pattern.namespace != "admin":
                    yield from walk(pattern.url_patterns, pattern.namespace or namespace)
            elif isinstance(pattern, URLPattern) and pattern.name:
                yield f"{namespace}:{pattern.name}" if namespace else pattern.name

    return set(walk(get_resolver().url_patterns, None))


def sample_paths(world: World) -> dict[str, str]:
    """A path for every route name (the matches, invitation and messages of ``world``)."""
    m, f, token = world.match.pk, world.finished.pk, world.waiting.invite_token
    return {
        "health": "/healthz",
        "games:home": "/",
        "games:play_guest": "/play/guest/",
        "games:play_computer": "/play/computer/",
        "games:play_friend": "/play/friend/",
        "games:play_quick": "/play/quick/",
        "games:quick_cancel": "/play/quick/cancel/",
        "games:quick_status": "/play/quick/status/",
        "games:cancel_invite": f"/match/{world.waiting.pk}/cancel/",
        "games:join": f"/join/{token}/",
        "games:table": f"/match/{m}/",
        "games:my_matches": "/matches/",
        "games:sheet": f"/match/{m}/sheet/",
        "games:replay": f"/match/{f}/hand/1/replay/",
        "games:deal": f"/match/{f}/hand/1/deal.json",
        "games:fairness": "/fairness/",
        "privacy": "/privacy/",
        "language": "/language/",
        "javascript_catalog": "/jsi18n/es.js",
        "fairplay:notice_read": "/fairplay/notices/999999/read",
        "games:offline": "/play/offline/",
        "games:offline_account": "/play/offline/account/",
        "games:offline_upload": "/play/offline/upload/",
        "games:service_worker": "/sw.js",
        "games:manifest": "/manifest.webmanifest",
        "learn:lessons": "/learn/",
        "learn:puzzles": "/learn/puzzles/",
        "learn:puzzle_next": "/learn/puzzles/next/",
        "learn:puzzle_answer": "/learn/puzzles/999999/answer/",
        "learn:api_puzzle_next": "/api/puzzle/next",
        "learn:api_puzzle_daily": "/api/puzzle/daily",
        "learn:api_puzzle_answer": "/api/puzzle/999999/answer",
        "learn:progress": "/learn/progress/",
        "analysis:api_match": f"/api/match/{m}/analysis",
        "analysis:hand_review": f"/match/{f}/hand/1/analysis.json",
        "analysis:hint": f"/match/{m}/hint",
        "accounts:settings": "/players/settings/",
        "accounts:table_settings": "/players/settings/table/",
        "accounts:delete": "/players/settings/delete/",
        "accounts:etiquette": "/players/etiquette/",
        "accounts:profile": "/players/alice/",
        "chat:report": f"/chat/messages/{world.message.pk}/report/",
        "chat:block": "/chat/block/",
        "chat:unblock": "/chat/unblock/",
        "tournaments:list": "/tournaments/",
        "tournaments:new": "/tournaments/new/",
        "tournaments:detail": "/tournaments/999999/",
        "tournaments:join": "/tournaments/999999/join/",
        "tournaments:withdraw": "/tournaments/999999/withdraw/",
        "tournaments:pause": "/tournaments/999999/pause/",
        "tournaments:round": "/tournaments/999999/rounds/1/",
        "tournaments:watch": "/watch/",
        "leaderboards:index": "/leaderboards/",
        "leaderboards:current_week": "/leaderboards/week/",
        "leaderboards:week": "/leaderboards/week/2026/48/",
        "leaderboards:current_month": "/leaderboards/month/",
        "leaderboards:month": "/leaderboards/month/2026/11/",
        "leaderboards:rating": "/leaderboards/rating/",
        "leaderboards:bot_rating": "/leaderboards/rating/bots/",
        "leaderboards:correspondence": "/leaderboards/rating/correspondence/",
        "leaderboards:computer": "/leaderboards/computer/",
        "leaderboards:computer_level": "/leaderboards/computer/hard/",
        "api:match_export": f"/match/{f}/export.json",
        "api:api_match_export": f"/api/match/{f}/export",
        "api:openapi_document": "/api/openapi.json",
        "api:reference": "/api/docs/",
        "api:export_key": "/export/key.json",
        "api:export_verifier": "/export/verify_gin.py",
        "api:user_matches": "/api/user/alice/matches",
        "api:account": "/api/account",
        "api:bot_upgrade": "/api/bot/account/upgrade",
        "api:event_stream": "/api/stream/event",
        "api:challenge_computer": "/api/challenge/computer",
        "api:challenge_create": "/api/challenge/alice",
        "api:challenge_accept": "/api/challenge/999999/accept",
        "api:challenge_decline": "/api/challenge/999999/decline",
        "api:challenge_cancel": "/api/challenge/999999/cancel",
        "api:match_stream": f"/api/bot/match/{m}/stream",
        "api:match_state": f"/api/bot/match/{m}/state",
        "api:match_action": f"/api/bot/match/{m}/action",
        "api:match_resign": f"/api/bot/match/{m}/resign",
        "api:match_chat": f"/api/bot/match/{m}/chat",
        "api:tokens": "/players/settings/tokens/",
        "api:token_revoke": "/players/settings/tokens/999999/revoke/",
        "api:profile_challenge": "/players/alice/challenge/",
        "api:challenge_page": "/challenge/999999/",
        "api:challenge_status": "/challenge/999999/status.json",
        "api:challenge_page_cancel": "/challenge/999999/cancel/",
        "api:challenge_page_accept": "/challenge/999999/accept/",
        "api:challenge_page_decline": "/challenge/999999/decline/",
        "social:friends": "/friends/",
        "games:vacation": "/correspondence/vacation/",
        "social:follow": "/players/carol/follow/",
        "social:unfollow": "/players/carol/unfollow/",
        "social:notifications": "/notifications/",
        "social:notification_open": f"/notifications/{world.notification.pk}/",
        "social:read_all": "/notifications/read/",
        "social:settings": "/notifications/settings/",
        "social:unsubscribe": "/notifications/unsubscribe/forged-link/",
        "account_signup": "/accounts/signup/",
        "account_login": "/accounts/login/",
        "account_logout": "/accounts/logout/",
        "account_inactive": "/accounts/inactive/",
        "account_reauthenticate": "/accounts/reauthenticate/",
        "account_request_reauthentication_code": "/accounts/reauthenticate/code/",
        "account_confirm_reauthentication_code": "/accounts/reauthenticate/code/confirm/",
        "account_email": "/accounts/email/",
        "account_email_verification_sent": "/accounts/confirm-email/",
        "account_change_password": "/accounts/password/change/",
        "account_set_password": "/accounts/password/set/",
        "account_reset_password": "/accounts/password/reset/",
        "account_confirm_login_code": "/accounts/login/code/confirm/",
        "account_confirm_email": "/accounts/confirm-email/abc123/",
        "account_reset_password_from_key_done": "/accounts/password/reset/key/done/",
        "account_reset_password_from_key": "/accounts/password/reset/key/1-abc/",
        "account_reset_password_done": "/accounts/password/reset/done/",
    }
