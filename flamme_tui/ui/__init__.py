"""The app (Textual).  Importing any part of it first makes no-break spaces
hold in every wrapped line (nobreak.py: French puts one before ":")."""

from . import nobreak  # noqa: F401  (its import is the change)
