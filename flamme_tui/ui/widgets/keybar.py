"""A one-line footer of the keys that apply now (cheaper than Textual's Footer,
which recomposes on every screen switch: the race switches screens every turn).

Two spaces part one key from the next where the line has room; where it has
not (French and Spanish words run longer than English at 80 columns), one
space does: the keys' colour tells them apart, and the last key stays whole."""

from __future__ import annotations

from rich.text import Text

from .lines import TextLines


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
        self.update(KeysLine(keys), layout=False)  # one line, always: no new layout


class KeysLine:
    """The keys and their words on one line, spaced as the width allows (a Rich renderable)."""

    def __init__(self, keys) -> None:
        self.wide = self.line(keys, " ")
        self.narrow = self.line(keys, "")

    @staticmethod
    def line(keys, gap: str) -> Text:
        text = Text(no_wrap=True, overflow="ellipsis")
        for key, label in keys:
            text.append(f" {key} ", style="bold #ffa62b")
            text.append(f"{label}{gap}")
        return text

    def __rich_console__(self, console, options):
        yield self.wide if self.wide.cell_len <= options.max_width else self.narrow

    def __rich_measure__(self, console, options):
        from rich.measure import Measurement

        return Measurement(self.narrow.cell_len, self.wide.cell_len)
