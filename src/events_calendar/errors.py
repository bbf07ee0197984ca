"""The library's exceptions: one base class, stable codes, structured data.

Every error a caller can provoke is a ``CalendarError``. Each carries:

- ``code``: a stable machine-readable string. Where the reference implementation (The Events
  Calendar's ``tribe/events/v1``) has a code for the same situation we reuse it verbatim, so that
  HTTP clients written against the reference keep working;
- ``status``: the HTTP status the adapter answers with (the core itself never speaks HTTP, but the
  mapping is a fact about the error, so it lives with the error);
- ``fields``: the offending input names mapped to a message saying what to send instead;
- ``message``: a readable sentence built from the above.

Errors are raised before anything is written, so a caught error always means "nothing changed".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

__all__ = [
    "AuthenticationFailed",
    "CalendarError",
    "Conflict",
    "Forbidden",
    "InTrash",
    "InvalidParameter",
    "MissingParameter",
    "NotFound",
    "NotSupported",
    "PageNotFound",
    "StorageUnavailable",
    "TermExists",
    "WrongKind",
]


class CalendarError(Exception):
    """Base of every error the library raises on purpose."""

    code: ClassVar[str] = "calendar_error"
    status: ClassVar[int] = 400

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        fields: Mapping[str, str] | None = None,
        data: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code  # type: ignore[misc]  # per-instance refinement of the class code
        self.fields: dict[str, str] = dict(fields or {})
        self.data: dict[str, Any] = dict(data or {})

    @property
    def field(self) -> str | None:
        """The first offending field, for callers that handle one at a time."""
        return next(iter(self.fields), None)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(code={self.code!r}, fields={self.fields!r})"


class InvalidParameter(CalendarError, ValueError):
    """One or more inputs have the wrong type, format or value."""

    code = "rest_invalid_param"
    status = 400

    def __init__(
        self,
        fields: Mapping[str, str],
        *,
        data: Mapping[str, Any] | None = None,
        codes: Mapping[str, str] | None = None,
    ) -> None:
        names = ", ".join(fields)
        detail = "; ".join(f"{name}: {why}" for name, why in fields.items())
        super().__init__(f"Invalid parameter(s): {names} ({detail})", fields=fields, data=data)
        #: A stable code for some fields' problem, where one is known: ``"invalid_boolean"``
        #: (not a boolean), ``"event-tickets-not-active"`` (ticketing is not available).
        self.codes: dict[str, str] = {k: v for k, v in (codes or {}).items() if k in fields}

    @classmethod
    def one(cls, field: str, why: str) -> InvalidParameter:
        """Shorthand for the common single-field case."""
        return cls({field: why})


class MissingParameter(CalendarError, ValueError):
    """Required inputs were not given."""

    code = "rest_missing_callback_param"
    status = 400

    def __init__(self, names: Iterable[str]) -> None:
        names = list(names)
        super().__init__(
            f"Missing parameter(s): {', '.join(names)}",
            fields=dict.fromkeys(names, "this field is required"),
        )


class NotFound(CalendarError, LookupError):
    """No record with that id or slug."""

    code = "rest_invalid_param"
    status = 404

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        status: int | None = None,
        fields: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(message, code=code, fields=fields)
        if status is not None:
            self.status = status  # type: ignore[misc]


class WrongKind(CalendarError, LookupError):
    """The id exists but names a record of another kind (e.g. a venue id on the events route).

    The code is the reference's ``rest_invalid_param``: its id validation answers before the
    handler's own ``rest-invalid-event-id`` could.
    """

    code = "rest_invalid_param"
    status = 400


class PageNotFound(CalendarError, LookupError):
    """A page past the last page of a non-empty event, venue or organizer list."""

    code = "event-archive-page-not-found"
    status = 404


class InTrash(CalendarError):
    """Deleting a record that is already in the trash (use ``force=True`` to remove it)."""

    code = "event-is-in-trash"
    status = 410


class Forbidden(CalendarError, PermissionError):
    """The acting user may not do this (401 for anonymous callers, 403 otherwise)."""

    code = "rest_forbidden"
    status = 403

    def __init__(self, message: str, *, code: str | None = None, anonymous: bool = False) -> None:
        super().__init__(message, code=code)
        if anonymous and self.code == "rest_forbidden":
            self.status = 401  # type: ignore[misc]


class AuthenticationFailed(CalendarError, PermissionError):
    """Credentials were given but do not match a user."""

    code = "invalid_credentials"
    status = 401


class TermExists(CalendarError):
    """A category or tag with that name already exists at that level."""

    code = "term_exists"
    status = 400

    def __init__(self, message: str, *, term_id: int) -> None:
        super().__init__(
            message,
            fields={"name": "use another name or the existing term"},
            data={"term_id": term_id},
        )
        self.term_id = term_id


class Conflict(CalendarError):
    """A write would break a storage invariant (a taken slug, a dangling link)."""

    code = "conflict"
    status = 409


class NotSupported(CalendarError):
    """A parameter the interface names but this library does not implement yet."""

    code = "rest_invalid_param"
    status = 400


class StorageUnavailable(CalendarError):
    """The database cannot be reached or opened (a wrong URL, a server down, a schema newer
    than this code). The message is one line: which database, and what failed."""

    code = "storage_unavailable"
    status = 503

    @classmethod
    def of(cls, database: str, reason: str) -> StorageUnavailable:
        """``"<database>: <reason>"``, with both kept in ``data`` for callers that reword it."""
        return cls(f"{database}: {reason}", data={"database": database, "reason": reason})
