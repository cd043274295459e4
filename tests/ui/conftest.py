"""UI tests: no animations, fixed sizes and seeds (set before Textual is imported)."""

import os

os.environ["TEXTUAL_ANIMATIONS"] = "none"
os.environ.pop("NO_COLOR", None)
