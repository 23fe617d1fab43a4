"""The SQLite store: written once by ``build``, read-only everywhere else (``db``)."""
