"""Player pages (profiles)."""

app_name = "accounts"
urlpatterns: list = []
