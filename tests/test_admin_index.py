"""What staff read on the admin's index: each application once, under a name of its
own, and every model named in plural English ("Matches", not "Matchs")."""

from __future__ import annotations

import re

import pytest
from django.apps import apps

pytestmark = pytest.mark.django_db


def admin_index(client, django_user_model) -> str:
    admin = django_user_model.objects.create_superuser("root", "root@example.com", "pw-Root-42")
    client.force_login(admin)
    response = client.get("/admin/")
    assert response.status_code == 200
    return response.content.decode()


def test_each_application_appears_once_on_the_admin_index(client, django_user_model):
    html = admin_index(client, django_user_model)
    sections = re.findall(r'class="section" title="Models in the [^"]+">([^<]+)</a>', html)
    assert len(sections) >= 6
    assert len(sections) == len({s.strip().lower() for s in sections}), sections
    assert "Players and moderation" in sections


def test_every_model_is_named_in_plural_english(client, django_user_model):
    html = admin_index(client, django_user_model)
    for wrong in ("Matchs", "Board entrys", "Computer board entrys", "entrys"):
        assert wrong not in html
    assert "Matches" in html and "Board entries" in html
    bad = [
        str(model._meta.verbose_name_plural)
        for model in apps.get_models()
        if re.search(r"(ch|sh|x|ss|[^aeiou]y)s$", str(model._meta.verbose_name_plural))
    ]
    assert bad == []
