"""Progress for long operations: ``progress=True`` draws a bar, a callable is called.

Bulk loads, whole-query iteration, bulk updates and DataFrame round trips all take the same
``progress`` argument, read here once:

- ``None`` or ``False``: nothing is shown;
- ``True``: a tqdm bar (``tqdm.auto``, so it renders as a widget in Jupyter and as text in a
  terminal), imported only when asked for;
- a callable: called as ``progress(done, total)`` after each step; ``total`` is ``None`` when
  the operation cannot know it in advance (a stream).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TextIO, cast

from .coerce import plain
from .errors import InvalidParameter

__all__ = ["Advance", "Progress", "ProgressArg", "read_progress", "tracking"]

#: Called with (items done so far, items in all or ``None``).
Progress = Callable[[int, "int | None"], None]
#: What a ``progress=`` argument accepts.
ProgressArg = bool | Progress | None
#: Reports that ``done`` items are finished so far (a running count, not an increment).
Advance = Callable[[int], None]


#: The total from which a bar counts in thousands and millions.
_SCALED_FROM = 1000


def _silent(done: int) -> None:
    """The advance of an operation nobody watches."""


def read_progress(progress: object) -> ProgressArg:
    """A ``progress=`` argument as ``tracking`` takes it: a numpy boolean (or ``NaN``, which
    means none) as the Python value it stands for; anything else that is neither a boolean,
    ``None`` nor a callable is ``InvalidParameter``."""
    if not callable(progress):
        progress = plain(progress)
    if progress is None or isinstance(progress, bool) or callable(progress):
        return cast(ProgressArg, progress)
    raise InvalidParameter.one(
        "progress", "send True (a bar), False or None (nothing shown), or a callable"
    )


@contextmanager
def tracking(
    progress: ProgressArg, *, total: int | None, unit: str, file: TextIO | None = None
) -> Iterator[Advance]:
    """Yields ``advance(done)`` for one operation over ``total`` items (``None``: unknown).

    The bar, if any, is closed when the block ends, also on error, so a failed load does not
    leave a half-drawn bar behind in a notebook. ``file`` is where a text bar is drawn
    (standard error when ``None``, as tqdm does).
    """
    progress = read_progress(progress)
    if progress is None or progress is False:
        yield _silent
        return
    if progress is True:
        from tqdm.auto import tqdm  # optional look: imported only when a bar is wanted

        # Counts in thousands ("20.0k/1.00M") only where they are large: tqdm's scaling
        # writes a small count as "5.00".
        scaled = total is None or total >= _SCALED_FROM
        bar: Any = tqdm(total=total, unit=f" {unit}", unit_scale=scaled, file=file)
        shown = 0

        def advance(done: int) -> None:
            nonlocal shown
            bar.update(done - shown)
            shown = done

        try:
            yield advance
        finally:
            bar.close()
        return
    callback = progress
    yield lambda done: callback(done, total)
