"""The file formats imports and exports know, by extension and by name.

A module of its own, without the readers and writers, so the command line can offer the
names as choices without importing them.
"""

from __future__ import annotations

from typing import Literal

__all__ = ["FORMATS", "FORMAT_NAMES", "Format"]

Format = Literal["csv", "ics", "json"]
FORMATS: dict[str, Format] = {
    ".csv": "csv",
    ".ics": "ics",
    ".ical": "ics",
    ".ifb": "ics",
    ".json": "json",
}
#: The names ``format=`` (``--format``) takes: each extension's, without its dot (``ical``
#: and ``ifb`` are ``ics``), so a format named as a file would be named reads as that file.
FORMAT_NAMES: tuple[str, ...] = tuple(extension[1:] for extension in FORMATS)
