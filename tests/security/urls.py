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
        "games:join": f"/join/{token}/",
        "games:table": f"/match/{m}/",
        "games:my_matches": "/matches/",
        "games:sheet": f"/match/{m}/sheet/",
        "games:replay": f"/match/{f}/hand/1/replay/",
        "games:deal": f"/match/{f}/hand/1/deal.json",
        "games:fairness": "/fairness/",
        "accounts:settings": "/players/settings/",
        "accounts:delete": "/players/settings/delete/",
        "accounts:etiquette": "/players/etiquette/",
        "accounts:profile": "/players/alice/",
        "chat:report": f"/chat/messages/{world.message.pk}/report/",
        "chat:block": "/chat/block/",
        "chat:unblock": "/chat/unblock/",
        "leaderboards:index": "/leaderboards/",
        "leaderboards:current_week": "/leaderboards/week/",
        "leaderboards:week": "/leaderboards/week/2026/48/",
        "leaderboards:current_month": "/leaderboards/month/",
        "leaderboards:month": "/leaderboards/month/2026/11/",
        "leaderboards:rating": "/leaderboards/rating/",
        "leaderboards:computer": "/leaderboards/computer/",
        "leaderboards:computer_level": "/leaderboards/computer/hard/",
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
