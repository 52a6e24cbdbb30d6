"""HTTP routes of the social app: /friends/, follow and unfollow under /players/, and
/notifications/."""

from django.urls import path

from . import views

app_name = "social"
urlpatterns = [
    path("friends/", views.friends, name="friends"),
    path("players/<str:username>/follow/", views.follow, name="follow"),
    path("players/<str:username>/unfollow/", views.unfollow, name="unfollow"),
    path("notifications/", views.notifications, name="notifications"),
    path("notifications/<int:notification_id>/", views.notification_open,
         name="notification_open"),
    path("notifications/read/", views.read_all, name="read_all"),
    path("notifications/settings/", views.social_settings, name="settings"),
    path("notifications/unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
