from django.apps import AppConfig


class AnalysisConfig(AppConfig):
    name = "games.analysis"
    label = "analysis"
    verbose_name = "Analysis"
