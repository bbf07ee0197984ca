"""Exported CSV cells a spreadsheet shows as text, never runs (CSV injection).

A spreadsheet reads a cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
return as a formula (OWASP's list): an event titled ``=HYPERLINK(...)`` by a contributor ran
in the spreadsheet of whoever opened the calendar's export. ``guard`` puts a ``'`` before
such a cell, which spreadsheets read as "text follows" and do not show; ``unguard`` takes it
off again on import, so an export imports back unchanged.

A cell that starts with ``'`` followed by what ``unguard`` would read as a guard gets one
more, so the pair round-trips every text. A file from elsewhere holding such a cell
(``'=x``) imports as the text after the quote (``=x``).
"""

from __future__ import annotations

__all__ = ["guard", "unguard"]

#: What a spreadsheet reads as the start of a formula.
_FORMULA = ("=", "+", "-", "@", "\t", "\r")
#: What follows a quote this module added.
_GUARDED = (*_FORMULA, "'")


def guard(cell: str) -> str:
    """``cell`` as written to an exported file: a ``'`` before a formula's first character,
    or before a quote that ``unguard`` would take off."""
    if cell.startswith(_FORMULA) or (cell.startswith("'") and cell[1:].startswith(_GUARDED)):
        return "'" + cell
    return cell


def unguard(cell: str) -> str:
    """``cell`` as read from a file: without the ``'`` that ``guard`` puts before it."""
    return cell[1:] if cell.startswith("'") and cell[1:].startswith(_GUARDED) else cell
