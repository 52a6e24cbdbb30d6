"""Leaderboard pages, under /leaderboards/."""

from django.urls import path

from leaderboards import views

app_name = "leaderboards"
urlpatterns = [
    path("", views.week_board, name="index"),
    path("week/", views.week_board, name="current_week"),
    path("week/<int:year>/<int:week>/", views.week_board, name="week"),
    path("month/", views.month_board, name="current_month"),
    path("month/<int:year>/<int:month>/", views.month_board, name="month"),
    path("rating/", views.rating_board, name="rating"),
    path("rating/bots/", views.bot_rating_board, name="bot_rating"),
    path("rating/correspondence/", views.correspondence_board, name="correspondence"),
    path("computer/", views.computer_board, name="computer"),
    path("computer/<slug:level>/", views.computer_board, name="computer_level"),
]
