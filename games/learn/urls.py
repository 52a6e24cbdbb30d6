"""HTTP routes of learning (mounted at the site's root): the lessons under /learn/,
the puzzles under /learn/puzzles/, and the puzzle API under /api/puzzle/."""

from django.urls import path

from . import views

app_name = "learn"
urlpatterns = [
    path("learn/", views.lessons, name="lessons"),
    path("learn/progress/", views.progress, name="progress"),
    path("learn/puzzles/", views.puzzles, name="puzzles"),
    path("learn/puzzles/next/", views.puzzle_next, name="puzzle_next"),
    path("learn/puzzles/<int:puzzle_id>/answer/", views.puzzle_answer, name="puzzle_answer"),
    path("api/puzzle/next", views.api_puzzle_next, name="api_puzzle_next"),
    path("api/puzzle/daily", views.api_puzzle_daily, name="api_puzzle_daily"),
    path("api/puzzle/<int:puzzle_id>/answer", views.api_puzzle_answer, name="api_puzzle_answer"),
]
