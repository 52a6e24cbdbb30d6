"""HTTP routes of the games app: home, lobby, tables, replays."""

from django.urls import path

from . import views

app_name = "games"
urlpatterns = [
    path("", views.home, name="home"),
]
