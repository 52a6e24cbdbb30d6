"""Root URL configuration."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("players/", include("accounts.urls")),
    path("leaderboards/", include("leaderboards.urls")),
    path("", include("games.urls")),
]
