"""HTTP routes of the tournaments app: the list, creation, a tournament's page and its
buttons, a Swiss round's pairings (a fragment), the Watch page."""

from django.urls import path

from . import views

app_name = "tournaments"
urlpatterns = [
    path("tournaments/", views.tournament_list, name="list"),
    path("tournaments/new/", views.tournament_new, name="new"),
    path("tournaments/<int:tournament_id>/", views.tournament_page, name="detail"),
    path("tournaments/<int:tournament_id>/rounds/<int:number>/", views.tournament_round,
         name="round"),
    path("tournaments/<int:tournament_id>/join/", views.join, name="join"),
    path("tournaments/<int:tournament_id>/withdraw/", views.withdraw, name="withdraw"),
    path("tournaments/<int:tournament_id>/pause/", views.pause, name="pause"),
    path("watch/", views.watch, name="watch"),
]
