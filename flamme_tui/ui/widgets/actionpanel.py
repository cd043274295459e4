"""The race screen's action panel: its title line, the row of cards and the
hint under them, for each turn of the table (play.table's turn model).

Each `show_*` draws one kind of turn from the turn alone (its seat's view,
its options with their previews, or the public view); the words of the race
are the narrator's (play.narrator), the words of what to press are here.
Keys and clicks are the screen's: it keeps the selection (`screen.sel`,
`multi`, `cursor_k`, `cursor`) and this panel shows it.
"""

from __future__ import annotations

import textwrap
from dataclasses import replace
from functools import lru_cache
from typing import Any

from textual.content import Content

from ...engine.actions import Bid
from ...engine.cards import card_text
from ...engine.events import BidsRevealed, Breakaway, token_text
from ...engine.options import spent
from ...i18n import _, ngettext
from ...play.narrator import kind_name, review_note, review_parts, rider_name, since_lines, to_go_text
from ...play.narrator import label as square_label
from ...play.narrator import where as square_where
from ...usertext import cells, escape_markup, fit
from .. import aids
from ..palette import WEATHER, rider_style, team_colour, team_markup, team_of_rider
from .cards import Card, CardRow
from .lines import TextLines
from .track import Scene

KIND = {"S": "Sprinteur", "R": "Rouleur"}


@lru_cache(maxsize=256)
def wrapped_height(markup: str, width: int) -> int:
    """The lines `markup` takes wrapped at `width`.  Kept: the hint's notes, keys and
    recap are measured again at every card selected (parsing the markup was a
    good part of a selection key's time), and they stay the same through a turn."""
    return len(textwrap.wrap(Content.from_markup(markup).plain, width) or [""])


def cut_words(text: str, width: int) -> str:
    """`text` cut to at most `width` characters between words, never within
    one: half a move would say another ("14→1" for 14→18)."""
    if len(text) <= width:
        return text.rstrip()
    cut = text[: max(0, width)]
    if text[len(cut)] != " ":  # the cut falls within a word: it goes whole
        cut = cut[: cut.rfind(" ") + 1]
    return cut.rstrip()


class ActionPanel:
    """The panel's title, cards and hint, drawn for the turn on screen."""

    def __init__(self, screen: Any, drawing: Any) -> None:
        self.screen = screen
        self.drawing = drawing  # widgets.racetable.RaceTable: the track, boards and status
        self.bmx = drawing.bmx
        self.course = drawing.board.course
        self.title_w = screen.query_one("#panel-title", TextLines)
        self.hint_w = screen.query_one("#panel-hint", TextLines)
        self.cards = screen.query_one("#cards", CardRow)
        self.base_cards: tuple[Card, ...] = ()  # the cards on offer, before selection marks
        self.hint = ""  # the hint as the turn shows it (under a nudge, see `nudge`)
        self.nudged = ""  # Enter with nothing selected: what to press, over the hint until a selection
        self.pick_notes = ""  # the pick's notes (weather, the other rider's card) and keys, under the aid
        self.pick_keys = ""
        self.pick_legend = ""
        self.review_text = ""  # the review's words, read from the seat's view before its pick

    # ------------------------------------------------------------- common

    def panel(self, title: str, hint: str) -> None:
        self.screen.put(self.title_w, title)
        self.show_hint(hint)

    def show_hint(self, hint: str) -> None:
        """The hint, under the nudge if there is one (its first line: seen even
        when the panel has room for one line only)."""
        self.hint = hint
        self.screen.put(self.hint_w, f"[b]▶ {self.nudged}[/b]\n{hint}" if self.nudged else hint)

    def nudge(self, what: str) -> None:
        """Enter with nothing selected: say what to press, under the cards where
        the player looks (never a selection made for them: an accidental play
        stays impossible).  Gone with the next selection."""
        self.nudged = what
        self.show_hint(self.hint)

    def clear(self) -> None:
        """Empty the panel: no card of anybody stays on this screen."""
        self.base_cards = ()
        self.cards.show("hand", ())
        self.panel("", "")

    def who(self, seat: int, rest: str = "") -> str:
        """The seat's badge and name, then `rest` (markup): the panel's title line.
        A long name is cut (…) so that `rest`, what to do, is whole on the line."""
        colour = team_colour(self.drawing.board.setup.teams[seat].colour)
        name = self.drawing.names[seat]
        label = name if name == colour.name else f"{name} ({colour.name})"
        room = (self.title_w.size.width or 49) - 4 - Content.from_markup(rest).cell_length
        if cells(label) > room:
            label = fit(label, max(room, 6))
        return team_markup(colour.id, f" {colour.letter} ") + f" [b]{escape_markup(label)}[/b]" + rest

    def recap(self, seat: int) -> tuple[str, ...]:
        """ "Since your last look", for the seat at the screen (play.table.Table.since)."""
        return since_lines(self.drawing.table.since(seat), self.drawing.board, self.drawing.short)

    def fit_recap(self, recap: tuple[str, ...], room: int | None = None) -> str:
        """ "Since your last look: round 3: …", cut to the lines the panel has
        (`room`, or all but one) saying so: the race log on the right has every line."""
        width, height = self.hint_w.size
        width = width or 48
        height = height or 3
        if room is not None:
            height = room
        elif height > 2:  # a line stays for what to do (the key bar says it too)
            height -= 1
        head = _("Since your last look:") + " "
        lines = textwrap.wrap(head + " · ".join(recap), width) or [head]
        if len(lines) > height:
            more = " " + _("…(log →)")  # the rest in the race log, on the right ("(log)" was read as a command to find)
            lines = lines[:height]
            lines[-1] = cut_words(lines[-1], width - len(more)) + more
        return escape_markup("\n".join(lines)).replace(head.rstrip(), f"[b]{head.rstrip()}[/b]", 1)

    def mark_selection(self, chosen: set[int], cursor: int | None, multi: bool) -> None:
        if self.nudged:  # a selection: what to press is said no more
            self.nudged = ""
            self.show_hint(self.hint)
        cards = [replace(c, selected=k in chosen, cursor=multi and k == cursor) for k, c in enumerate(self.base_cards)]
        self.cards.show(self.cards.kind, cards)

    def weather_at(self, square: int) -> str:
        """The weather of a square ("" for fair weather or off the track)."""
        weather = self.course.weather
        return weather[square] if weather and 0 <= square < len(weather) else ""

    def weather_note(self, square: int, drawn: int) -> str:
        """ "» tailwind: 5 cards drawn": the wind that changed the draw and what it drew
        (its effect, "draw 5 cards", said again beside the count read twice)."""
        kind = self.weather_at(square)
        if kind in ("tailwind", "headwind"):
            w = WEATHER[kind]
            return ngettext("{glyph} {name}: {n} card drawn", "{glyph} {name}: {n} cards drawn", drawn).format(
                glyph=w.glyph, name=_(w.name), n=drawn)
        return ""

    # --------------------------------------------------------------- grid

    def show_place(self, turn, key) -> None:
        view = turn.view
        kind = kind_name(view.board.riders[turn.rider].kind)
        self.cards.show("hand", ())
        # (the title short enough for a long name in French or Spanish; the hint, under it where the
        # cards would be, says where: at 80x24 with six teams "sur la grille" was cut off the title)
        self.panel(self.who(turn.seat, _(": place your [b]{kind}[/b]").format(kind=kind)),
                   _("on a free place of the grid, behind the start line") + "\n" +
                   _("← → ↑ ↓ move the cursor [b]\\[][/b] (or click a place)") + "\n" +
                   _("[b]{confirm}[/b] place it there · [b]{random}[/b] a random place").format(
                       confirm=key("race.confirm"), random=key("race.random")))
        self.drawing.set_status(_("{team} places a rider"), self.drawing.names[turn.seat])
        self.drawing.show_boards(view)

    # --------------------------------------------------------------- draw

    def show_draw(self, turn, key, bidding: bool = False) -> list[int]:
        """Which rider draws first (or, in the breakaway, which rider bids): the riders on offer."""
        view = turn.view
        # (in a tour a rider across the line has left the track: the other one draws)
        mine = [r for r in view.board.riders if r.seat == turn.seat and r.index not in view.board.crossed]
        cards = []
        for k, r in enumerate(mine):
            deck, recycled = view.own[r.index]
            # the weather under each rider in its card's bottom border, "» draw 5 cards" (the glyph
            # alone where the card is too narrow): under the cards, the two riders' weather on one
            # line ran past the panel's width and lost the second rider's
            kind = self.weather_at(r.square)
            w = WEATHER[kind] if kind else None
            more = " · " + _("crashed") if r.crashed else ""
            where = square_where(self.course, r.square) + more
            # a card too narrow for "parrilla 4 · faltan 72" (Spanish, 6 teams at 80x24): the place
            # as the track's cards write it ("G4", "12"), so that the count of squares to go stays whole
            narrow = f"{square_label(self.course, r.square)} · {to_go_text(self.course, r.square)}" + more
            deck_line = _("deck {deck}, {up} face up").format(deck=deck, up=len(recycled))
            cards.append(Card(f"{k + 1} {KIND.get(r.kind, r.id)} ({self.drawing.label(r.index)})",
                              (where, deck_line), data=(turn.seat, r.index), narrow=(narrow,),
                              foot=f"{w.glyph} {_(w.effect)}" if w else "", foot_narrow=w.glyph if w else ""))
        self.base_cards = tuple(cards)
        self.cards.show("riders", cards)
        question = _("which rider bids for the breakaway?") if bidding else _("which rider draws first?")
        # (a narrow status line says it shorter: "round" is "breakaway" there, and the title says it in full)
        self.drawing.set_status(_("{team}: {question}").format(team="{team}", question=question),
                                self.drawing.names[turn.seat],
                                _("{team}: who bids?") if bidding else _("{team}: who draws first?"))
        enter = key("race.confirm")
        recap = self.recap(turn.seat)
        riders = [r.index for r in mine]
        if bidding:  # a bid's rider waits for Enter; what the bids are for first, the keys where there is room
            lines = [self.stakes(view.board), escape_markup(_("the rider draws 4 cards for each of its 2 bids"))]
            lines = self.with_recap(lines, recap) if recap else lines
            hint = "\n".join(self.with_room(lines, _("[b]1[/b] [b]2[/b] or ← → select · [b]{enter}[/b] confirm").format(
                enter=enter)))
        else:  # a number chooses who draws at once
            hint = _("the chosen rider draws and picks first · [b]1[/b] [b]2[/b] choose (or ← → "
                     "[b]{enter}[/b])").format(enter=enter)
            if recap:  # first: what happened since (the keys are in the key bar too)
                hint = self.fit_recap(recap) + "\n" + hint
        self.panel(self.who(turn.seat, _(": {question}").format(question=question)), hint)
        self.drawing.show_boards(view)
        # the breakaway square marked as a card's square is (▼▼): where the best bids go
        self.drawing.show_track(Scene(self.drawing.view_marks(view, active=set(riders)),
                                      previews=(self.course.breakaway,) if bidding else (),
                                      focus=tuple(r.square for r in mine) + ((self.course.breakaway,) if bidding else ())))
        return riders

    # --------------------------------------------------------------- pick

    @staticmethod
    def preview(turn, cards) -> Any:
        """The preview of the rider's play of `cards` (a card, or the tokens
        kept): the turn's own, counting the seat's card already down."""
        want = tuple(sorted(cards))
        for option in turn.options:
            if spent(option.action) == want and option.preview is not None:
                return option.preview
        bmx = turn.view.board.rules.uses_tokens
        return turn.view.preview(turn.rider, tuple(cards) if bmx else cards[0])

    def show_pick(self, turn, key, keep: int) -> list[int]:
        """The rider's hand (with the aids) and what goes with it: the cards on offer."""
        view = turn.view
        rider = view.board.riders[turn.rider]
        previews = {c: self.preview(turn, [c]) for c in set(turn.hand)}
        hand = sorted(turn.hand, key=lambda c: (previews[c].value, c))
        # the aids from the engine's previews (where each card takes the rider, and
        # what stops or changes it), unless the player races as at the real table;
        # on a BMX descent a token alone says nothing: the pair kept is previewed
        per_card = self.screen.aids and keep == 1
        self.base_cards = tuple(
            Card(str(k + 1), aids.card_lines(previews[c], self.course, self.bmx, c, per_card),
                 data=(turn.seat, turn.rider, c), big=aids.value_text(previews[c], self.bmx, c),
                 foot=aids.wind_mark(previews[c], self.bmx) if per_card else "")
            for k, c in enumerate(hand))
        self.cards.show("hand", self.base_cards)
        kind = KIND.get(rider.kind, "")
        title = self.who(turn.seat, _(": pick a card for your [b]{kind}[/b]").format(kind=kind) if kind
                         else _(": pick your token"))
        if keep == 2:
            title = self.who(turn.seat, _(": descent, keep [b]2[/b] tokens (they add up)"))
        notes = []
        if not self.bmx:
            w = self.weather_note(rider.square, len(hand))
            if w:
                notes.append(w)
            if rider.crashed:
                notes.append(_("lying down: stands up and moves {n} less").format(n=previews[hand[0]].standup))
            for j, card in view.chosen.items():
                if j != turn.rider:
                    notes.append(_("your {kind} plays {card} (face down)").format(
                        kind=KIND.get(view.board.riders[j].kind), card=card_text(card)))
            if not notes:
                notes.append(ngettext("the other card goes face up under the deck",
                                      "the other {n} cards go face up under the deck", len(hand) - 1).format(
                    n=len(hand) - 1))
        else:
            own = view.own.get(turn.rider, ())
            bag = own[2] if len(own) > 2 and isinstance(own[2], tuple) else tuple(view.unseen(turn.rider))
            notes.append(_("bag: {n} left ({tokens})").format(
                n=len(bag), tokens=" ".join(token_text(t) for t in bag) or _("empty")))
            if view.board.die is not None:
                notes.append(_("forecast: the die shows {face}").format(face=view.board.die or _("no catch-up")))
        if keep == 2:
            self.pick_keys = _("[b]1-{n}[/b] select two · [b]{enter}[/b] play").format(
                n=len(hand), enter=key("race.confirm"))
        else:  # the review before passing catches a slip
            self.pick_keys = _("[b]1-{n}[/b] plays at once (or ← → [b]{enter}[/b])").format(
                n=len(hand), enter=key("race.confirm"))
        # what the cards' wind marks say (+E, +E 30%), under the rest where the panel has room
        self.pick_legend = aids.wind_legend(self.bmx) if any(card.foot for card in self.base_cards) else ""
        self.drawing.set_status(_("{team} picks"), self.drawing.names[turn.seat])
        self.pick_notes = " · ".join(notes)
        self.screen.put(self.title_w, title)
        self.drawing.show_boards(view)
        return hand

    def update_pick(self, turn, chosen: list[int], keep: int) -> None:
        """The track and the hint for the cards selected: where they would take the rider."""
        view = turn.view
        drawing = self.drawing
        rider = view.board.riders[turn.rider]
        marks = drawing.view_marks(view, active={turn.rider} | set(view.chosen))
        # the hint: what the selected card does, in words (aids on), then the notes and keys
        picked = self.preview(turn, chosen) if chosen and len(chosen) == keep else None
        said = ""
        if picked is not None and self.screen.aids:
            # each part of what the card does whole, in the lines the panel has (the least
            # important left out): a part cut at the panel's last line said something else
            width, height = self.hint_w.size
            said = aids.fit_parts(aids.sentence_parts(picked, self.course, self.bmx,
                                                      tuple(chosen) if self.bmx else chosen[0]),
                                  width or 48, (height or 3) - bool(self.nudged))
        lines = [escape_markup(line) for line in (said, self.pick_notes) if line]
        recap = self.recap(turn.seat)
        if recap and self.bmx and not chosen:  # BMX has no rider to choose first: the recap first
            lines = [self.fit_recap(recap)]
        lines.append(self.pick_keys)
        if recap and not (self.bmx and not chosen):
            lines = self.with_recap(lines, recap)
        if self.pick_legend:
            lines = self.with_room(lines, escape_markup(self.pick_legend))
        self.show_hint("\n".join(lines))
        if not self.screen.aids:  # the real table: nobody shows where a card goes
            drawing.show_track(Scene(marks, focus=(rider.square,)))
            return
        # where the card would take the rider, blocking included (the others standing still)
        preview = (picked.square,) if picked is not None else ()
        blocked = aids.blocked_squares(picked) if picked is not None else ()
        # the seat's other rider, its card already down: both picks shown together
        # (counting the card selected now: a rider ahead moves first and may free its road)
        selected = ((turn.rider, chosen[0]),) if picked is not None and not self.bmx else ()
        others = aids.down_squares(view, turn.rider, selected) if not self.bmx else ()
        focus = (rider.square,) + preview + others
        drawing.show_track(Scene(marks, previews=preview + others, blocked=blocked, focus=focus))

    def with_room(self, lines: list[str], more: str) -> list[str]:
        """`lines` and then `more` (markup) if the panel has room for all of it."""
        width, height = self.hint_w.size
        used = sum(wrapped_height(line, width or 48) for line in lines + [more])
        return lines + [more] if used + bool(self.nudged) <= (height or 3) else lines

    def with_recap(self, lines: list[str], recap: tuple[str, ...]) -> list[str]:
        """ "Since your last look" kept in view through the turn: in the lines
        the panel has left under `lines` (markup), if any."""
        width, height = self.hint_w.size
        used = sum(wrapped_height(line, width or 48) for line in lines)
        room = (height or 3) - used - bool(self.nudged)
        return lines + [self.fit_recap(recap, room)] if room >= 1 else lines

    # ------------------------------------------------------------- review

    def review_words(self, turn, action) -> None:
        """The review's words, read from the seat's view before the pick is played."""
        self.review_text = " · ".join(f"{what} [b]{value}[/b]" for what, value in
                                      review_parts(turn.view, turn.rider, action))

    def change_what(self, turn) -> str:
        """ "change the Rouleur's card", "change the tokens": what the change key does."""
        action = turn.action
        if self.bmx:
            several = len(getattr(action, "tokens", ())) > 1
            return _("change the tokens") if several else _("change the token")
        kind = KIND.get(turn.view.board.riders[turn.rider].kind)
        if isinstance(action, Bid):  # a breakaway bid under review
            return _("change the {kind}'s bid").format(kind=kind) if kind else _("change the bid")
        return _("change the {kind}'s card").format(kind=kind) if kind else _("change the card")

    def show_review(self, turn, key, hot_seat: bool) -> None:
        """The seat's cards, its last pick played: Enter passes, the change key
        takes the pick back.  The pick's cards, track and boards stay on
        screen as they were: nothing the pick led to (a reveal) is shown."""
        keys = _("[b]{enter}[/b] pass · [b]{change}[/b] {what}") if hot_seat else _(
            "[b]{enter}[/b] play · [b]{change}[/b] {what}")
        note = "" if isinstance(turn.action, Bid) else review_note(turn.view, turn.rider)
        # two lines that fit the panel at 80 columns (49 cells): the keys, then why only this card
        lines = [keys.format(enter=key("race.confirm"), change=key("race.change"), what=self.change_what(turn))] + (
            [escape_markup(note)] if note else [])
        recap = self.recap(turn.seat)
        lines = self.with_recap(lines, recap) if recap else lines
        self.panel(self.who(turn.seat, _(": {cards}").format(cards=self.review_text)), "\n".join(lines))
        check = _("{team}: check your tokens") if turn.view.board.rules.uses_tokens else _("{team}: check your cards")
        self.drawing.set_status(check, self.drawing.names[turn.seat])

    # ---------------------------------------------------------- breakaway

    def stakes(self, board) -> str:
        """What the breakaway's best bids win and what they cost, in one line of
        the panel at 80 columns (47 cells): "top 2 totals → square 6 · cost: bid cards +2 E"
        (E: an exhaustion card, as the cards and the boards write it)."""
        setup = board.setup
        n = setup.breakaway_winners
        return escape_markup(ngettext("top total → square {square} · cost: bid cards +{e} E",
                                      "top {n} totals → square {square} · cost: bid cards +{e} E", n).format(
            n=n, square=square_label(self.course, self.course.breakaway), e=setup.breakaway_exhaustion))

    def show_bid(self, turn, key, bid: int) -> list[int]:
        """The breakaway: the bidding rider's draw, one card to keep face down as its bid."""
        view = turn.view
        rider = view.board.riders[turn.rider]
        hand = sorted(turn.hand, key=lambda c: (card_text(c) != "E", c))
        self.base_cards = tuple(Card(str(k + 1), (card_text(c), _("worth 2") if c == 0 else ""),
                                     data=(turn.seat, turn.rider, c), big=card_text(c)) for k, c in enumerate(hand))
        self.cards.show("hand", self.base_cards)
        notes = [ngettext("keep 1 face down, {n} goes face up", "keep 1 face down, {n} go face up",
                          len(hand) - 1).format(n=len(hand) - 1)]
        if rider.bids:
            notes.append(_("bid 1: {cards}").format(cards=" + ".join(card_text(c) for c in rider.bids)))
        # what the bid is for, then what to do with the cards; since the last look and the keys
        # (both in the log and the key bar too) in the lines left: at 80x24 with six teams, two
        lines = [self.stakes(view.board), escape_markup(" · ".join(notes))]
        recap = self.recap(turn.seat)
        lines = self.with_recap(lines, recap) if recap else lines
        lines = self.with_room(lines, _("[b]1-{n}[/b] bid · ← → select · [b]{enter}[/b] bid").format(
            n=len(hand), enter=key("race.confirm")))
        self.drawing.set_status(_("{team} bids"), self.drawing.names[turn.seat])
        self.panel(self.who(turn.seat, _(": [b]{kind}[/b], breakaway bid {bid} of {bids}").format(
                       kind=kind_name(rider.kind), bid=bid, bids=view.board.setup.breakaway_bids)), "\n".join(lines))
        self.drawing.show_boards(view)
        self.drawing.show_track(Scene(self.drawing.view_marks(view, active={turn.rider}),
                                      previews=(self.course.breakaway,), focus=(rider.square, self.course.breakaway)))
        return hand

    def show_bids(self, turn) -> None:
        """Bids face up together (public), and after the last one who breaks away."""
        drawing = self.drawing
        board = turn.view.board
        result = next((e for e in turn.events if isinstance(e, Breakaway)), None)
        shown = [e for e in turn.events if isinstance(e, BidsRevealed)]
        cards = []

        def card(i: int, lines: tuple[str, ...], **more) -> Card:
            colour = rider_style(team_of_rider(board.riders[i].id).hex)
            return Card(drawing.label(i), lines, title_style=colour, data=(i,), **more)

        if result is not None:
            winners = set(result.winners)
            for i, bids, total in result.bids:
                cards.append(card(i, ("+".join(card_text(c) for c in bids) + f"={total}",), active=i in winners))
            names = _(" and ").join(escape_markup(rider_name(board, i)) for i in result.winners)
            title = ngettext("[b]Enter[/b] on to round 1 · [b]breakaway:[/b] {names} breaks away",
                             "[b]Enter[/b] on to round 1 · [b]breakaway:[/b] {names} break away",
                             len(winners)).format(names=names)
            hint = _("to {where}; their two bid cards leave the game, 2 exhaustion cards each").format(
                where=square_where(self.course, result.square))
        else:
            winners = set()
            bid = shown[-1] if shown else None
            for i, played in (bid.cards if bid is not None else ()):
                cards.append(card(i, (card_text(played),), big=card_text(played)))
            number = bid.bid if bid is not None else 1
            title = _("[b]Enter[/b] on to bid {next} · [b]breakaway, bid {n}[/b] revealed").format(
                next=number + 1, n=number)
            hint = _("every bid of this turn, face up together; the next bid is drawn now")
        self.base_cards = tuple(cards)
        self.cards.show("revealed", cards)
        self.panel(title, hint)
        # ("breakaway" is where the round is said: the bids are before round 1)
        drawing.set_status(_("bid {n} face up").format(n=shown[-1].bid if shown else board.setup.breakaway_bids))
        drawing.show_track(Scene(drawing.view_marks(turn.view, active=winners),
                                 focus=(self.course.breakaway,) if result is not None else ()))
        drawing.show_boards(turn.view, public=True)
