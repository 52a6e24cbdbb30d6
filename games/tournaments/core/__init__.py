"""The rules of tournaments, pure (standard library only): points and standings
(``scoring``), pairing (``pairing``), recurring dates (``recurrence``)."""
