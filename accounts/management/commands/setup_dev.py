"""Prepare the embedded development site: apply migrations, create an admin account."""

import secrets
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import BaseCommand, call_command

# Beside the embedded SQLite database (the repository's root by default), so a site run
# on another database file (SQLITE_PATH) keeps its own admin password.
_database = settings.DATABASES["default"]
PASSWORD_FILE = (
    Path(_database["NAME"]).parent
    if _database["ENGINE"].endswith("sqlite3")
    else Path(settings.BASE_DIR)
) / ".dev-admin-password"


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
        # The address is runserver's to say (ginsite/management/commands/runserver.py):
        # the site may be started on any port.
        self.stdout.write(
            f"Database ready. Admin account 'admin' with password {password} "
            f"(saved in {PASSWORD_FILE.name})."
        )
