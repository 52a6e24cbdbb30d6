"""Spanish: thousands grouped with a point (1.234), as Spanish players write scores and
ratings and as the browser's Intl.NumberFormat groups them (Django's own Spanish
formats group with a space)."""

THOUSAND_SEPARATOR = "."
