"""The hint key in a race (`h`, and the palette's "Hint"): what the expert
would play now and why, for the seat whose turn it is, in a box over its cards.

The hint is worked out in the bots' thinking process (play/thinker.py:
`Thinker.call`), which replays the race from its set-up, seed and actions
and hands `play.coach.hint` that seat's view, nothing else: the screen
answers keys while it thinks.  It is shown in a box over the cards; the
seat it was shown to is recorded in the save (`Session.took_hint`), and the
podium marks that seat's result "with hints".

When hints are offered (Settings, off by default): "one person racing
against bots" offers them when exactly one person races, against bots or
scripted teams; "everyone" at a hot-seat table of several people too.
There every hint asked for is said in the race log ("Blue asked the expert
for a hint"), which every player reads: a hint is never taken unseen while
the others look away.  Under "one person" a table of several people is
refused (the key says why).
"""

from __future__ import annotations

from typing import Any

from textual.notifications import Notification, Notify
from textual.screen import ModalScreen

from ..i18n import _, language
from ..play.coach import hint_job, humans

HINT_KINDS = ("draw", "pick")  # the turns a hint is for: which rider draws first, which card


def refusal(screen: Any) -> str | None:
    """Why no hint now (None: one can be asked for)."""
    app = screen.app
    mode = getattr(app.settings, "hints", "off")
    if mode == "off":
        return _("Hints are off: turn them on in Settings (hint key in races).")
    session = screen.flow.session
    if mode != "all" and len(humans(session.setup, session.seed, session.bots)) != 1:
        return _("Hints are for one person racing against bots: Settings can offer them to everyone, "
                 "and the race log then says who asks.")
    turn = screen.turn
    if turn is None or turn.kind not in HINT_KINDS:
        return _("A hint is for choosing a card, or the rider that draws first.")
    seat = session.due()
    if seat is None or session.is_bot(seat):
        return _("A hint is for your own turn.")
    return None


def ask(screen: Any) -> None:
    """The race screen's hint key: ask the thinking process, or say why not."""
    why = refusal(screen)
    if why is not None:
        screen.notify(why, title=_("Hint"), severity="warning", timeout=6, markup=False)
        return
    # posted as Textual's notify does, kept to be taken away alone when the answer comes (it lay over
    # the answer for seconds; clearing every toast would also take a "could not save" said once)
    looking = Notification(_("The expert is looking at your cards..."), _("Hint"), "information", 3, markup=False)
    screen.app.post_message(Notify(looking))
    screen.run_worker(_think(screen, looking), group="hint", exclusive=True, exit_on_error=False)


async def _think(screen: Any, looking: Notification) -> None:
    from ..setupdata import setup_json

    session = screen.flow.session
    seat = session.due()
    logged = len(session.entries)
    budget = session.budget
    text = await screen.app.thinker.call(hint_job, setup_json(session.setup), session.seed,
                                         tuple(str(a) for a in session.game.actions), seat,
                                         budget.seconds, budget.rollouts, language())
    if looking in screen.app._notifications:  # (Textual 8.2.8, pinned: its own way to take one toast away)
        screen.app._unnotify(looking)  # (answered or not: it lay over the review's table when the player chose)
    if len(session.entries) != logged or session.due() != seat or not screen.is_current:
        return  # the player chose meanwhile: the hint is for a position that is gone
    screen.flow.took_hint(seat)
    screen.write_log()  # the table reads who asked
    autosaver = getattr(screen.app, "autosaver", None)
    if autosaver is not None and autosaver.session is session:
        autosaver(session, "hint")  # saved now: a hint is no action, the next one may never come
    screen.app.push_screen(HintScreen(text))


class HintScreen(ModalScreen[None]):
    """The hint over the seat's own cards (its own turn: nothing another seat
    holds is behind it); any key goes back to the cards."""

    DEFAULT_CSS = """
    HintScreen { align: center bottom; background: $background 30%; }
    HintScreen #hint-box { width: 64; max-width: 100%; height: auto; border: round $accent;
                           padding: 0 1; background: $surface; }
    HintScreen #hint-keys { color: $text-muted; margin-top: 1; }
    """

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self):
        from textual.containers import Vertical
        from textual.widgets import Static

        from .content import plain

        with Vertical(id="hint-box") as box:
            box.border_title = _("Hint")
            yield Static(plain(self.text), id="hint-text")
            yield Static(plain(_("Any key: back to your cards. Noted in the save: the podium says \"with hints\".")),
                         id="hint-keys")

    def on_key(self, event) -> None:
        event.stop()
        self.dismiss()

    def on_click(self, event) -> None:
        self.dismiss()


def commands(app: Any, screen: Any):
    """The palette's entry on the race screen (app.get_system_commands)."""
    from textual.app import SystemCommand

    if type(screen).__name__ == "RaceScreen":
        yield SystemCommand(_("Hint"), _("What the expert would play now, and why (Settings: hint key)"),
                            lambda: ask(screen))
