"""Player pages, mounted at /players/ (``settings`` and ``etiquette`` are reserved
usernames: ACCOUNT_USERNAME_BLACKLIST)."""

from django.urls import path

from . import views

app_name = "accounts"
urlpatterns = [
    path("settings/", views.account_settings, name="settings"),
    path("settings/table/", views.table_settings, name="table_settings"),
    path("settings/delete/", views.account_delete, name="delete"),
    path("etiquette/", views.etiquette, name="etiquette"),
    path("<str:username>/", views.profile, name="profile"),
]
