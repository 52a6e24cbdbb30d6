"""HTTP routes of fair play (mounted at /fairplay/)."""

from django.urls import path

from . import views

app_name = "fairplay"
urlpatterns = [
    path("notices/<int:notice_id>/read", views.notice_read, name="notice_read"),
]
