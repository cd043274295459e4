"""A one-line footer of the keys that apply now (cheaper than Textual's Footer,
which recomposes on every screen switch: the race switches screens every turn).

Two spaces part one key from the next where the line has room; where it has
not (French and Spanish words run longer than English at 80 columns), one
space does: the keys' colour tells them apart (without colour, NO_COLOR, the
keys are in reverse video: "choose ⏎ skip a play" in plain bold read as one
phrase).  Where even that is too long, keys before the last two are left
out, the latest first, so that the last two (help and quit, or help and
back) are always read whole: cut at the window's edge, the French race
footer lost "q quitter" (the help lists every key)."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text

from ..keys import key_word
from .lines import TextLines, colourless


class KeyBar(TextLines):
    DEFAULT_CSS = """
    KeyBar { dock: bottom; height: 1; width: 1fr; background: $footer-background; color: $footer-foreground; }
    """

    def __init__(self, keys=(), *, id=None) -> None:
        super().__init__("", id=id)
        self.keys: tuple = ()
        self.show(keys)

    def show(self, keys) -> None:
        keys = tuple(keys)
        if keys == self.keys:
            return
        self.keys = keys
        self.update(KeysLine(keys, plain=colourless(self)), layout=False)  # one line, always: no new layout


KEY = Style(bold=True, color="#ffa62b")
PLAIN_KEY = Style(bold=True, reverse=True)  # without colour


class KeysLine:
    """The keys and their words on one line, spaced as the width allows (a Rich renderable)."""

    KEEP = 2  # the last keys, never left out: help, then quit (or back)

    def __init__(self, keys, plain: bool = False) -> None:
        self.keys = tuple(keys)
        self.key_style = PLAIN_KEY if plain else KEY
        self.wide = self.line(self.keys, " ")
        self.narrow = self.line(self.keys, "")
        self._fitted: dict[int, Text] = {}

    def line(self, keys, gap: str) -> Text:
        text = Text(no_wrap=True, overflow="ellipsis")
        for key, label in keys:
            text.append(f" {key_word(key)} ", style=self.key_style)
            text.append(f"{label}{gap}")
        return text

    def fitted(self, width: int) -> Text:
        """The line for `width` cells: spaced, else narrow, else without the keys
        just before the last ones until it fits (the first keys say what to do now)."""
        if self.wide.cell_len <= width:
            return self.wide
        if self.narrow.cell_len <= width:
            return self.narrow
        if width not in self._fitted:
            head, tail = list(self.keys[:-self.KEEP]), self.keys[-self.KEEP:]
            line = self.narrow
            while head and line.cell_len > width:
                head.pop()
                line = self.line((*head, *tail), "")
            self._fitted[width] = line
        return self._fitted[width]

    def __rich_console__(self, console, options):
        yield self.fitted(options.max_width)

    def __rich_measure__(self, console, options):
        from rich.measure import Measurement

        return Measurement(min(self.narrow.cell_len, self.fitted(options.max_width).cell_len), self.wide.cell_len)
