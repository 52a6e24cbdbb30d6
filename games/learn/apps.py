from django.apps import AppConfig


class LearnConfig(AppConfig):
    name = "games.learn"
    label = "learn"
    verbose_name = "Lessons and puzzles"
