"""The URLs the wire format contains, built from the request's own origin.

Clients of the reference follow ``rest_url``, ``next_rest_url`` and record links, so every URL
is absolute and points back at this server: ``{site}{base_path}/{vendor}/events/v1/...``.
"""

from __future__ import annotations

import functools
import re
from urllib.parse import urlencode

import attrs

from ..records import Kind
from ..statuses import Status

__all__ = ["Urls", "below_base"]

_COLLECTIONS: dict[Kind, str] = {
    "event": "events",
    "venue": "venues",
    "organizer": "organizers",
    "category": "categories",
    "tag": "tags",
}
#: WordPress's post type and taxonomy names, which appear in URLs and term records.
POST_TYPES: dict[Kind, str] = {
    "event": "tribe_events",
    "venue": "tribe_venue",
    "organizer": "tribe_organizer",
}
TAXONOMIES: dict[Kind, str] = {"category": "tribe_events_cat", "tag": "post_tag"}
_PERMALINK_BASES: dict[Kind, str] = {"event": "event", "venue": "venue", "organizer": "organizer"}
#: Statuses whose posts have a pretty permalink; drafts, pending and future posts and the
#: trash use ``?post_type=..&p=..`` (del_ev: a trashed event's ``url`` is the plain form).
_PRETTY_STATUSES = frozenset({Status.PUBLISH, Status.PRIVATE})


@functools.lru_cache(maxsize=4096)
def _encoded(params: tuple[tuple[str, str], ...]) -> str:
    """A query string, remembered: every list answer links to itself and its neighbours,
    and most lists are asked for with the same few queries."""
    return urlencode(params)


@attrs.frozen
class Urls:
    """URL builder for one request: ``site`` is ``scheme://host[:port]``."""

    site: str
    base_path: str
    namespace: str

    @property
    def api_root(self) -> str:
        """``{site}{base_path}/`` (WordPress's REST root)."""
        return f"{self.site}{self.base_path}/"

    @property
    def root(self) -> str:
        """The namespace root, without a trailing slash."""
        return f"{self.site}{self.base_path}/{self.namespace}"

    @property
    def host(self) -> str:
        """The host name without scheme or port (used in global ids)."""
        return self.site.split("://", 1)[-1].split(":", 1)[0]

    def collection(self, kind: Kind) -> str:
        return f"{self.root}/{_COLLECTIONS[kind]}"

    def record(self, kind: Kind, record_id: int) -> str:
        return f"{self.collection(kind)}/{record_id}"

    def listing(self, kind: Kind, params: list[tuple[str, str]]) -> str:
        """A list URL with its query (the collection path keeps a trailing slash)."""
        query = _encoded(tuple(params))
        return f"{self.collection(kind)}/" + (f"?{query}" if query else "")

    def permalink(self, kind: Kind, record_id: int, slug: str, status: str) -> str:
        """The public page of a post: pretty once published, ``?post_type=..&p=..`` before."""
        if status in _PRETTY_STATUSES and slug:
            return f"{self.site}/{_PERMALINK_BASES[kind]}/{slug}/"
        return f"{self.site}/?post_type={POST_TYPES[kind]}&p={record_id}"

    def term_page(self, kind: Kind, path: list[str]) -> str:
        """The public archive of a term (``path`` is the slugs from the root term down)."""
        if kind == "category":
            return f"{self.site}/events/category/{'/'.join(path)}/"
        return f"{self.site}/tag/{path[-1]}/"

    def global_id(self, record_id: int) -> str:
        return f"{self.host}?id={record_id}"


def below_base(base_path: str, pattern: str) -> re.Pattern[str]:
    """``pattern`` (a regular expression) after ``base_path``, as a request path is matched:
    the base path as written, the rest in any case, as WordPress matches a REST route
    (``WP_REST_Server::match_request_to_handler``: ``preg_match('@^' . $route . '$@i')``)
    after its rewrite prefix (``/wp-json``, matched as written). The router's routes and
    the response cache's namespace root both read paths through it."""
    return re.compile(f"{re.escape(base_path)}(?i:{pattern})")
