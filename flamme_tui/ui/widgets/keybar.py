"""A one-line footer of the keys that apply now (cheaper than Textual's Footer,
which recomposes on every screen switch: the race switches screens every turn)."""

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
        text = Text(no_wrap=True, overflow="ellipsis")
        for key, label in keys:
            text.append(f" {key} ", style="bold #ffa62b")
            text.append(f"{label} ")
        self.update(text, layout=False)  # one line, always: no new layout
