"""HTTP routes of the chat panel (mounted at /chat/)."""

from django.urls import path

from . import views

app_name = "chat"
urlpatterns = [
    path("messages/<int:message_id>/report/", views.report, name="report"),
    path("block/", views.block, name="block"),
    path("unblock/", views.unblock, name="unblock"),
]
