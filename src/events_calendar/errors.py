"""The library's exceptions: one base class, stable codes, structured data.

Every error a caller can provoke is a ``CalendarError``. Each carries:

- ``code``: a stable machine-readable string. Where the reference implementation (The Events
  Calendar's ``tribe/events/v1``) has a code for the same situation we reuse it verbatim, so that
  HTTP clients written against the reference keep working;
- ``http_status``: the HTTP status an adapter answers with, the reference's for the same
  situation (an unknown id is a 400: the reference checks ids before its handlers run). The
  core speaks no HTTP; the status is a fact about the error, declared beside its code, which
  the adapter reads (``events_calendar.http.errors`` adds the reference's wording);
- ``fields``: the offending input names mapped to a message saying what to send instead;
- ``message``: a readable sentence built from the above.

Errors are raised before anything is written, so a caught error always means "nothing changed".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

__all__ = [
    "AuthenticationFailed",
    "BulkIncomplete",
    "CalendarError",
    "Conflict",
    "Forbidden",
    "InTrash",
    "InvalidParameter",
    "MissingParameter",
    "NotFound",
    "NotHierarchical",
    "NotSupported",
    "PageNotFound",
    "SlugTaken",
    "StorageUnavailable",
    "TermExists",
    "WrongKind",
]


class CalendarError(Exception):
    """Base of every error the library raises on purpose."""

    code: ClassVar[str] = "calendar_error"
    #: The HTTP status of this kind of error (``http_status``).
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
    def http_status(self) -> int:
        """The HTTP status an adapter answers this error with."""
        return self.status

    @property
    def field(self) -> str | None:
        """The first offending field, for callers that handle one at a time."""
        return next(iter(self.fields), None)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(code={self.code!r}, fields={self.fields!r})"


class InvalidParameter(CalendarError, ValueError):
    """One or more inputs have the wrong type, format or value."""

    code = "rest_invalid_param"

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

    def __init__(self, names: Iterable[str]) -> None:
        names = list(names)
        super().__init__(
            f"Missing parameter(s): {', '.join(names)}",
            fields=dict.fromkeys(names, "this field is required"),
        )


class NotFound(CalendarError, LookupError):
    """No record with that id or slug."""

    code = "rest_invalid_param"

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        fields: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(message, code=code, fields=fields)

    @property
    def http_status(self) -> int:
        # An unknown id is the reference's 400; an unknown user (``users.py``) is a 404.
        return 404 if self.code == "user-not-found" else self.status


class WrongKind(CalendarError, LookupError):
    """The id exists but names a record of another kind (e.g. a venue id on the events route).

    The code is the reference's ``rest_invalid_param``: its id validation answers before the
    handler's own ``rest-invalid-event-id`` could.
    """

    code = "rest_invalid_param"


class PageNotFound(CalendarError, LookupError):
    """A page past the last page of a non-empty event, venue or organizer list."""

    code = "event-archive-page-not-found"
    status = 404


class InTrash(CalendarError):
    """Deleting a record that is already in the trash (use ``force=True`` to remove it)."""

    code = "event-is-in-trash"
    status = 410


class Forbidden(CalendarError, PermissionError):
    """The acting user may not do this; ``anonymous`` says nobody signed in (over HTTP a
    refusal of an anonymous caller is a 401, of a signed-in one a 403)."""

    code = "rest_forbidden"
    status = 403

    def __init__(self, message: str, *, code: str | None = None, anonymous: bool = False) -> None:
        super().__init__(message, code=code)
        self.anonymous = anonymous

    @property
    def http_status(self) -> int:
        # The reference answers a plain refusal of an anonymous caller with a 401.
        return 401 if self.anonymous and self.code == "rest_forbidden" else self.status


class AuthenticationFailed(CalendarError, PermissionError):
    """Credentials were given but do not match a user."""

    code = "invalid_credentials"
    status = 401


class TermExists(CalendarError):
    """A category or tag with that name already exists at that level."""

    code = "term_exists"

    def __init__(self, message: str, *, term_id: int, kind: str = "category") -> None:
        super().__init__(
            message,
            fields={"name": "use another name or the existing term"},
            data={"term_id": term_id},
        )
        self.term_id = term_id
        #: ``"category"`` (unique per parent) or ``"tag"`` (unique in the taxonomy).
        self.kind = kind


class NotHierarchical(CalendarError, ValueError):
    """A parent given for a tag: tags are not nested (WordPress's term routes answer
    ``rest_taxonomy_not_hierarchical``)."""

    code = "rest_taxonomy_not_hierarchical"

    def __init__(self) -> None:
        super().__init__(
            "Cannot set parent term, taxonomy is not hierarchical.",
            fields={"parent": "tags have no parent; leave parent out"},
        )


class SlugTaken(CalendarError, ValueError):
    """A slug asked for on a term update that another term of the kind holds (WordPress's
    ``wp_update_term`` answers ``duplicate_term_slug``; a create numbers it instead).

    HTTP 409: the request is well formed and clashes with what is stored (WordPress gives
    this error no status, so its REST server answers 500)."""

    code = "duplicate_term_slug"
    status = 409

    def __init__(self, slug: str) -> None:
        super().__init__(
            f"The slug \u201c{slug}\u201d is already in use by another term.",
            fields={"slug": "send a slug no other term has, or leave slug out"},
        )
        self.slug = slug


class Conflict(CalendarError):
    """A write would break a storage invariant (a taken slug, a dangling link)."""

    code = "conflict"
    status = 409


class NotSupported(CalendarError):
    """A parameter the interface names but this library does not implement yet."""

    code = "rest_invalid_param"


class StorageUnavailable(CalendarError):
    """The database cannot be reached or opened (a wrong URL, a server down, a schema newer
    than this code). The message is one line: which database, and what failed."""

    code = "storage_unavailable"
    status = 503

    @classmethod
    def of(cls, database: str, reason: str) -> StorageUnavailable:
        """``"<database>: <reason>"``, with both kept in ``data`` for callers that reword it."""
        return cls(f"{database}: {reason}", data={"database": database, "reason": reason})


#: The ``code`` of the ``StorageUnavailable`` a write (or a migration) gets on a database
#: opened read-only: an SQLite file this process cannot write, or one opened with
#: ``?mode=ro``. Reads go on; the code tells a caller "not here" from "not reachable".
READ_ONLY_DATABASE = "read_only_database"


class BulkIncomplete(CalendarError):
    """A non-atomic bulk load (``bulk_create(..., atomic=False)``) stopped part way.

    Unlike every other error, this one means something *was* written: the first
    ``committed`` rows, in whole batches, are stored (their ids in ``ids``, in row order) and
    the rest are not. ``__cause__`` is the error that stopped the load; ``fields`` are its
    fields (``rows[N].start_date``), so the caller can fix that row and resume from row
    ``committed``.
    """

    code = "bulk_incomplete"

    def __init__(self, cause: BaseException, *, ids: list[int]) -> None:
        fields = cause.fields if isinstance(cause, CalendarError) else {}
        super().__init__(
            f"The bulk load stopped after {len(ids):,} rows were committed: {cause}",
            fields=fields,
            data={"committed": len(ids)},
        )
        #: How many rows (the first ones) were committed before the load stopped.
        self.committed = len(ids)
        #: The ids of the committed rows, in row order.
        self.ids = ids
