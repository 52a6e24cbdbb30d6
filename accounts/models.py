"""The site's User model (custom from the first migration)."""

from django.contrib.auth.models import AbstractUser
from django.db import models


class User(AbstractUser):
    """A player. Guests are real rows flagged ``is_guest``: they can play the computer,
    are never rated, and can keep their history by signing up."""

    is_guest = models.BooleanField(default=False)

    @property
    def display_name(self) -> str:
        if not self.is_active and self.username.startswith("deleted-"):
            return "deleted player"
        return self.username
