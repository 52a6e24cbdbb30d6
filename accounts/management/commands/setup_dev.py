"""Prepare the embedded development site: apply migrations, create an admin account."""

import secrets
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import BaseCommand, call_command

PASSWORD_FILE = Path(settings.BASE_DIR) / ".dev-admin-password"


class Command(BaseCommand):
    help = "Apply migrations and create the 'admin' superuser once (password printed and saved)."

    def handle(self, *args: object, **options: object) -> None:
        call_command("migrate", interactive=False, verbosity=0)
        user_model = get_user_model()
        if not user_model.objects.filter(username="admin").exists():
            password = secrets.token_urlsafe(12)
            user_model.objects.create_superuser("admin", "admin@localhost", password)
            PASSWORD_FILE.write_text(password + "\n")
        password = PASSWORD_FILE.read_text().strip() if PASSWORD_FILE.exists() else "(unchanged)"
        self.stdout.write(
            "Site ready at http://127.0.0.1:8000 - admin at http://127.0.0.1:8000/admin/ "
            f"as 'admin' with password {password} (saved in .dev-admin-password)."
        )
