from django.apps import AppConfig

from games import events, pages


class AnalysisConfig(AppConfig):
    name = "games.analysis"
    label = "analysis"
    verbose_name = "Analysis"

    def ready(self) -> None:
        # Once the models are loaded: the handlers' module imports them.
        from . import hooks

        events.subscribe(events.HandFinished, hooks.on_hand_finished, events.AFTER_COMMIT)
        pages.add_table_part("hint_url", hooks.table_hint_url)
        pages.add_sheet_part("accuracy", hooks.sheet_accuracy)
