"""The review of a round in the terminal, and the hint of a decision.

After a round, ``r`` on its summary opens :class:`ReviewScreen`: the search values every
decision of the person's seat in that round (:mod:`eights.lab.review`), in a worker
thread, with a progress bar and the time left; then the decisions are listed with their
marks in colour. Enter on one opens :class:`PositionScreen`: the replay viewer at that
moment (the round is over, so every hand is shown, as the summary shows them), with
every legal action's chance of winning the round. Escape goes back.

During a match, ``h`` asks for a hint (:func:`hint_line`): every legal action of the
decision valued at the ``fast`` quality, the best first, ties as ties, and what the numbers
are, on one line. Hints are off until asked for;
each one asked is noted in the saved record's ``meta.hints`` and told in the round's
summary.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Header, OptionList, ProgressBar, Static
from textual.widgets.option_list import Option
from textual.worker import Worker, WorkerState, get_current_worker

from eights.engine.observation import Observation
from eights.engine.record import Record
from eights.i18n import Translator
from eights.i18n.advice import (
    MARK_STYLES,
    decision_mistake,
    decision_words,
    hint_lines,
    hint_words,
    meaning_words,
    move_words,
    option_lines,
    summary_words,
)
from eights.lab.review import (
    QUALITIES,
    Decision,
    Position,
    SeatReview,
    decision_rng,
    evaluate_options,
    positions,
    review_seats,
)
from eights.tui.replay import Frame, ReplayScreen, frames_of, seat_names

__all__ = ["HINT_QUALITY", "PositionScreen", "ReviewScreen", "evaluation_lines", "hint_line"]

HINT_QUALITY = "fast"
"""The quality of a hint (:data:`eights.lab.review.QUALITIES`): a few seconds at most."""


class Stopped(Exception):
    """The review was left before it was done."""


def hint_line(observation: Observation, _: Translator, seed: int = 0,
              worlds: int | None = None) -> str:
    """Every legal action of the seat's decision with its chance of winning the round, the
    best first, ties shown as ties, and what the numbers are (from the observation alone:
    :func:`eights.i18n.advice.hint_words`)."""
    here = Position(observation.round, len(observation.history), observation,
                    observation.legal[0])
    options = evaluate_options(observation, worlds or QUALITIES[HINT_QUALITY],
                               decision_rng(seed, here))
    return hint_words(hint_lines(options.lines), _)


def evaluation_lines(decision: Decision, _: Translator) -> list[Text]:
    """Every line of a decision's options (:func:`eights.i18n.advice.option_lines`): the
    played one in its mark's colour, the best in bold."""
    return [Text(text, style=MARK_STYLES[decision.mark] if kind == "played"
                 else "bold" if kind == "best" else "")
            for text, kind in option_lines(decision, _)]


class PositionScreen(ReplayScreen):
    """The replay viewer at a reviewed decision, with every option's value below the table.

    ← → step through the round as in ``eights replay --view``; the values show at every
    reviewed decision. Escape (or q) goes back to the list.
    """

    DEFAULT_CSS = """
    PositionScreen #evaluation {
        height: auto;
        max-height: 8;
        padding: 0 1;
        border-top: solid $primary;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q,escape", "close", show=False),
    ]

    def __init__(self, title: str, frames: Sequence[Frame], names: Sequence[str],
                 decisions: Sequence[Decision], start: int, _: Translator) -> None:
        super().__init__(title, frames, names, _)
        self.decisions = {(d.round, d.turn): d for d in decisions}
        self.position = start

    def compose(self) -> ComposeResult:
        yield from super().compose()
        yield Static(id="evaluation")

    def on_mount(self) -> None:
        # Textual calls ReplayScreen.on_mount after this one (it sets the title and keys)
        self._title = self.app.title

    def show_frame(self) -> None:
        super().show_frame()
        self.query_one("#keys", Static).update(
            self.tr("←/→ step · PgUp/PgDn: round · Escape: back to the review"))
        frame = self.frames[self.position]
        decision = self.decisions.get((frame.round, frame.index))
        panel = self.query_one("#evaluation", Static)
        if decision is None:
            panel.update(self.tr("No reviewed decision here: ←/→ to another."))
            return
        _ = self.tr
        head = Text(decision_words(decision, _), style=MARK_STYLES[decision.mark])
        panel.update(Text("\n").join([head, *evaluation_lines(decision, _),
                                      Text(meaning_words(_), style="dim")]))

    def action_close(self) -> None:
        self.app.title = self._title
        self.dismiss(None)


class ReviewScreen(Screen[None]):
    """The review of one seat in one round: computed in a worker, then listed."""

    DEFAULT_CSS = """
    ReviewScreen #review-box {
        padding: 0 1;
    }
    ReviewScreen #review-progress, ReviewScreen #review-summary, ReviewScreen .hint {
        height: auto;
        margin: 1 0 0 0;
    }
    ReviewScreen #review-list {
        height: 1fr;
        margin: 1 0 0 0;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "close", show=False),
    ]

    def __init__(self, record: Record, seat: int, round_no: int, _: Translator, *,
                 quality: str = "normal", seed: int = 0, worlds: int | None = None) -> None:
        super().__init__()
        self.record = record
        self.seat = seat
        self.round_no = round_no
        self.tr = _
        self.quality = quality
        self.seed = seed
        self.worlds = worlds
        self.names = seat_names(record, _)
        self.result: SeatReview | None = None
        self.worker: Worker[SeatReview] | None = None
        self._started = time.monotonic()

    def compose(self) -> ComposeResult:
        _ = self.tr
        yield Header(show_clock=False)
        with Vertical(id="review-box"):
            yield Static(_("Review of round {n}: {name}", n=self.round_no,
                           name=self.names[self.seat]), classes="dialog-title", markup=False)
            yield ProgressBar(id="review-progress", show_eta=True)
            yield Static(_("The search values every decision you had…"), id="review-summary",
                         markup=False)
            yield OptionList(id="review-list")
            yield Static(_("↑/↓ choose · Enter: the position and every option · Escape: back"),
                         classes="hint", markup=False)

    def on_mount(self) -> None:
        self.query_one("#review-list").display = False
        self.worker = self.run_worker(self._compute, name="review", group="review",
                                      thread=True, exclusive=True)

    def _compute(self) -> SeatReview:
        worker = get_current_worker()
        found = positions(self.record, [self.seat], [self.round_no])

        def told(done: int, total: int) -> None:
            if worker.is_cancelled:
                raise Stopped
            self.app.call_from_thread(self._progress, done, total)

        review = review_seats(found, [self.seat], quality=self.quality, seed=self.seed,
                              worlds=self.worlds, on_progress=told)
        return review.seat(self.seat)

    def _progress(self, done: int, total: int) -> None:
        self.query_one("#review-progress", ProgressBar).update(total=max(1, total),
                                                               progress=done)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker is not self.worker:
            return
        if event.state is WorkerState.SUCCESS:
            result = event.worker.result
            assert isinstance(result, SeatReview)
            self.show_review(result)
        elif event.state is WorkerState.ERROR:
            self.query_one("#review-summary", Static).update(
                self.tr("The review failed: {error}", error=str(event.worker.error)))

    def show_review(self, result: SeatReview) -> None:
        _ = self.tr
        self.result = result
        self.query_one("#review-progress").display = False
        summary = summary_words(result.accuracy, result.mean_loss, result.counts(), _)
        for d in result.worst():
            summary += "\n" + _("{where}: {words}", where=move_words(d.move, d.round, _),
                                words=decision_mistake(d, _))
        summary += "\n" + meaning_words(_)
        if not result.decisions:
            summary = _("No decision to review: this seat never had a choice.")
        self.query_one("#review-summary", Static).update(summary)
        options = self.query_one("#review-list", OptionList)
        options.clear_options()
        for k, d in enumerate(result.decisions):
            line = decision_words(d, _)
            options.add_option(Option(Text(line, style=MARK_STYLES[d.mark]), id=str(k)))
        options.display = bool(result.decisions)
        if result.decisions:
            options.highlighted = 0
            options.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if self.result is None:
            return
        decision = self.result.decisions[event.option_index]
        frames = frames_of(self.record, self.names, self.tr)
        start = next((k for k, f in enumerate(frames)
                      if f.round == decision.round and f.index == decision.turn), 0)
        title = frames[0].game.rules.title
        self.app.push_screen(PositionScreen(title, frames, self.names, self.result.decisions,
                                            start, self.tr))

    def action_close(self) -> None:
        if self.worker is not None and self.worker.is_running:
            self.worker.cancel()
        self.dismiss(None)

