"""The site's own formats (settings.FORMAT_MODULE_PATH), where they differ from
Django's: a language's module here sets only what it changes, the rest is Django's."""
