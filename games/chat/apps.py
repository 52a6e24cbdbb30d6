from django.apps import AppConfig


class ChatConfig(AppConfig):
    name = "games.chat"
    label = "chat"
    verbose_name = "Chat"
