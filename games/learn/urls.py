"""HTTP routes of learning (mounted at /learn/)."""

from django.urls import path

from . import views

app_name = "learn"
urlpatterns = [
    path("", views.lessons, name="lessons"),
    path("progress/", views.progress, name="progress"),
]
