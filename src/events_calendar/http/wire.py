"""The reference's wire format: records as the JSON objects its clients read.

Key order, value types and the quirks clients depend on follow the fact sheet and the recorded
responses: ``author`` is a numeric string, dates are ``YYYY-MM-DD HH:MM:SS`` with zero-padded
string details, venues and organizers drop empty values, a single linked venue is an object and
none is ``[]``, embedded terms and listed terms have different shapes. This module only
presents records; every value comes from the core.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from datetime import datetime
from typing import Any

import attrs

from ..cost import FREE, format_cost
from ..dates import format_wall, start_of_day
from ..events import Related
from ..records import Category, Event, Kind, Organizer, Tag, Venue
from ..settings import Settings
from ..statuses import Status
from ..web_addresses import path_of
from .fragments import Exactly, Fragments
from .responses import serialised
from .urls import TAXONOMIES, Urls
from .wire_dates import date_details, stated_isoformat

__all__ = ["Wire"]

#: A locked event's cost details, in the reference's order for them (symbol, position, code):
#: the one place its wire form differs from an event whose content is merely empty.
_LOCKED_COST_DETAILS = {"currency_symbol": "", "currency_position": "", "currency_code": ""}


def _stamp(moment: datetime, zone: Any = None) -> str:
    return format_wall(moment.astimezone(zone) if zone is not None else moment)


def _image(url: str) -> dict[str, Any] | bool:
    if not url:
        return False
    name = path_of(url).rsplit("/", 1)[-1]  # the file's name: no query, no fragment
    extension = name.rsplit(".", 1)[-1].lower() if "." in name else ""
    return {"url": url, "id": 0, "extension": extension}


def _escaped_paragraph(text: str) -> str:
    """How the reference's JSON-LD shows a description: escaped HTML, one paragraph."""
    if not text:
        return ""
    body = text if text.lstrip().startswith("<") else f"<p>{text}</p>"
    return html.escape(body, quote=False) + "\\n"


class Wire:
    """Presents records for one request (its URLs, the calendar's settings)."""

    def __init__(
        self,
        urls: Urls,
        settings: Settings,
        zone: Any,
        can: Callable[[Kind], list[str]],
        fragments: Fragments | None = None,
    ) -> None:
        self.urls = urls
        self.settings = settings
        self.zone = zone
        self._allowed_methods = can
        self._fragments = fragments
        self._urls_key = attrs.astuple(urls, recurse=False)  # a part of every fragment's key

    # -- posts -----------------------------------------------------------------------------
    def _post_head(self, record: Event | Venue | Organizer) -> dict[str, Any]:
        return {
            "id": record.id,
            "author": str(record.author),
            "status": record.status.value,
            "date": _stamp(record.date),  # its own wall clock: the site's, or as sent
            "date_utc": _stamp(record.date_utc),
            "modified": _stamp(record.modified),
            "modified_utc": _stamp(record.modified_utc),
            "url": self.urls.permalink(record.kind, record.id, record.slug, record.status),
        }

    def _global(self, record_id: int) -> dict[str, Any]:
        gid = self.urls.global_id(record_id)
        return {"global_id": gid, "global_id_lineage": [gid]}

    def event(self, event: Event, related: Related, *, single: bool = False) -> Any:
        """An event record (fact sheet 4.1); ``single`` adds ``json_ld``.

        With ``fragments``, the object is kept there, serialised (``responses.serialised``),
        under every value it shows (``fragments`` says why that key cannot go stale): a part
        for ``dumps``, not a dict to read. Without, a dict.
        """
        if self._fragments is None:
            return self._event(event, related, single=single)
        categories = [related.categories[i] for i in event.categories if i in related.categories]
        tags = [related.tags[i] for i in event.tags if i in related.tags]
        venues, organizers = related.venues_of(event), related.organizers_of(event)
        # One flat tuple (each run of records after its length), its other parts tuples of
        # plain values: the kept keys are what the garbage collector walks of this cache.
        key = (
            single,
            # A single read describes the linked records the caller may read on their own.
            tuple(r.id in related.readable for r in (*venues, *organizers)) if single else (),
            Exactly(event),
            event.locked,  # not part of an event's equality
            len(venues),
            *map(Exactly, venues),
            len(organizers),
            *map(Exactly, organizers),
            len(categories),
            *categories,
            len(tags),
            *tags,
            tuple(t.count for t in categories),  # nor a term's count of its own
            tuple(t.count for t in tags),
            self._urls_key,
            self.settings.currency_symbol,
            self.settings.currency_position,
        )
        return self._fragments.get(
            key, lambda: serialised(self._event(event, related, single=single))
        )

    def _event(self, event: Event, related: Related, *, single: bool = False) -> dict[str, Any]:
        head = self._post_head(event)
        data: dict[str, Any] = {"id": event.id, **self._global(event.id)}
        data.update({k: v for k, v in head.items() if k != "id"})
        permalink = data["url"]
        data.update(
            {
                "rest_url": self.urls.record("event", event.id),
                "title": event.title,
                "description": event.description,
                "excerpt": event.excerpt,
                "slug": event.slug,
                "image": _image(event.image),
                "all_day": event.all_day,
            }
        )
        for name, moment in (
            ("start_date", event.start_date),
            ("end_date", event.end_date),
            ("utc_start_date", event.utc_start_date),
            ("utc_end_date", event.utc_end_date),
        ):
            data[name] = format_wall(moment)
            data[f"{name}_details"] = date_details(moment)
        details = event.cost_details
        data.update(
            {
                "timezone": event.timezone,
                "timezone_abbr": event.timezone_abbr,
                "cost": format_cost(
                    event.cost,
                    details,
                    default_symbol=self.settings.currency_symbol,
                    default_position=self.settings.currency_position,
                ),
                "cost_details": dict(_LOCKED_COST_DETAILS, values=[])
                if event.locked
                else {
                    "currency_symbol": details.currency_symbol,
                    "currency_code": details.currency_code,
                    "currency_position": details.currency_position,
                    "values": list(details.values),
                },
                "website": permalink if event.website is None else event.website,
                "show_map": event.show_map,
                "show_map_link": event.show_map_link,
                "hide_from_listings": event.hide_from_listings,
                "sticky": event.sticky,
                "featured": event.featured,
                "categories": [self.term(t, embedded=True) for t in related.categories_of(event)],
                "tags": [self.term(t, embedded=True) for t in related.tags_of(event)],
            }
        )
        # A single read describes each linked record it may show on its own in JSON-LD too.
        venues = [
            self.venue(v, single=single and v.id in related.readable)
            for v in related.venues_of(event)
        ]
        data["venue"] = venues[0] if len(venues) == 1 else venues
        data["organizer"] = [
            self.organizer(o, single=single and o.id in related.readable)
            for o in related.organizers_of(event)
        ]
        data["custom_fields"] = []
        # A locked event comes blanked from the core (``EventCollection.list``): its empty
        # content renders as the reference shows it (fact sheet 4.6, evlist_range), but for
        # the order of ``cost_details`` above. A protected event has no JSON-LD (fact sheet 4.1).
        if single and not event.locked and not event.password:
            data["json_ld"] = _script_safe(self._event_json_ld(event, related, permalink))
        return data

    def venue(self, venue: Venue, *, single: bool = False) -> dict[str, Any]:
        """A venue record (fact sheet 4.2): empty values dropped, map flags appended."""
        data = self._post_head(venue)
        data.update(
            {
                "venue": venue.venue,
                "description": venue.description,
                "excerpt": venue.excerpt,
                "slug": venue.slug,
                "image": _image(venue.image),
                "address": venue.address,
                "city": venue.city,
                "country": venue.country,
                "province": venue.province,
                "state": venue.state,
                "zip": venue.zip,
                "phone": venue.phone,
                "website": venue.website,
                "stateprovince": venue.stateprovince,
            }
        )
        if single:
            data["json_ld"] = _script_safe(self._place_json_ld(venue))
        data = {k: v for k, v in data.items() if v not in ("", "0", False, [], 0, None)}
        data.update(
            {
                "show_map": venue.show_map,
                "show_map_link": venue.show_map_link,
                **self._global(venue.id),
            }
        )
        return data

    def organizer(self, organizer: Organizer, *, single: bool = False) -> dict[str, Any]:
        """An organizer record (fact sheet 4.3): empty values dropped."""
        data = self._post_head(organizer)
        data.update(
            {
                "organizer": organizer.organizer,
                "description": organizer.description,
                "excerpt": organizer.excerpt,
                "slug": organizer.slug,
                "image": _image(organizer.image),
                "phone": organizer.phone,
                "website": organizer.website,
                "email": organizer.email,
            }
        )
        if single:
            data["json_ld"] = _script_safe(self._person_json_ld(organizer))
        data.update(self._global(organizer.id))
        return {k: v for k, v in data.items() if v not in ("", "0", False, [], 0, None)}

    # -- terms -----------------------------------------------------------------------------
    def term_urls(self, term: Category | Tag) -> dict[str, str]:
        urls = {
            "self": self.urls.record(term.kind, term.id),
            "collection": self.urls.collection(term.kind),
        }
        if term.parent:
            urls["up"] = self.urls.record(term.kind, term.parent)
        return urls

    def term(
        self,
        term: Category | Tag,
        *,
        embedded: bool = False,
        path: list[str] | None = None,
        links: bool = False,
    ) -> dict[str, Any]:
        """A category or tag: the embedded shape (in events) or the listed shape."""
        kind: Kind = term.kind
        if embedded:
            return {
                "name": term.name,
                "slug": term.slug,
                "term_group": 0,
                "term_taxonomy_id": term.id,
                "taxonomy": TAXONOMIES[kind],
                "description": term.description,
                "parent": term.parent,
                "count": term.count,
                "filter": "raw",
                "id": term.id,
                "urls": self.term_urls(term),
            }
        data: dict[str, Any] = {
            "id": term.id,
            "count": term.count,
            "description": term.description,
            "name": term.name,
            "slug": term.slug,
            "taxonomy": TAXONOMIES[kind],
        }
        if isinstance(term, Category):
            data["parent"] = term.parent
        data["meta"] = []
        data["url"] = self.urls.term_page(kind, path or [term.slug])
        data["urls"] = self.term_urls(term)
        if links:
            data["_links"] = self._term_links(term)
        return data

    def _term_links(self, term: Category | Tag) -> dict[str, Any]:
        route = "tribe_events_cat" if term.kind == "category" else "tags"
        core = f"{self.urls.api_root}wp/v2"
        query = f"tribe_events_cat={term.id}" if term.kind == "category" else f"tags={term.id}"
        types = ["tribe_events", "tec_calendar_embed"]
        if term.kind == "tag":
            types.insert(0, "posts")
        links: dict[str, Any] = {
            "self": [
                {
                    "href": f"{core}/{route}/{term.id}",
                    "targetHints": {"allow": self._allowed_methods(term.kind)},
                }
            ],
            "collection": [{"href": f"{core}/{route}"}],
            "about": [{"href": f"{core}/taxonomies/{TAXONOMIES[term.kind]}"}],
        }
        if term.parent:
            links["up"] = [{"embeddable": True, "href": f"{core}/{route}/{term.parent}"}]
        links["wp:post_type"] = [{"href": f"{core}/{t}?{query}"} for t in types]
        links["curies"] = [{"name": "wp", "href": "https://api.w.org/{rel}", "templated": True}]
        return links

    # -- JSON-LD (single records only) -----------------------------------------------------
    def _place_json_ld(self, venue: Venue) -> dict[str, Any]:
        data: dict[str, Any] = {
            "@type": "Place",
            "name": html.escape(venue.venue, quote=False),
            "description": _escaped_paragraph(venue.excerpt or venue.description),
            "url": "",
        }
        address = {
            "@type": "PostalAddress",
            "streetAddress": venue.address,
            "addressLocality": venue.city,
            "addressRegion": venue.stateprovince or venue.state or venue.province,
            "postalCode": venue.zip,
            "addressCountry": venue.country,
        }
        data["address"] = {k: v for k, v in address.items() if v}
        data["telephone"] = venue.phone
        data["sameAs"] = venue.website
        return data

    def _person_json_ld(self, organizer: Organizer) -> dict[str, Any]:
        return {
            "@type": "Person",
            "name": html.escape(organizer.organizer, quote=False),
            "description": _escaped_paragraph(organizer.excerpt or organizer.description),
            "url": organizer.website,
            "telephone": organizer.phone,
            "email": organizer.email,
            "sameAs": organizer.website,
        }

    def _event_json_ld(self, event: Event, related: Related, permalink: str) -> dict[str, Any]:
        url = _json_ld_link(permalink)
        name = f"Private: {event.title}" if event.status == Status.PRIVATE else event.title
        data: dict[str, Any] = {
            "@context": "http://schema.org",
            "@type": "Event",
            "name": html.escape(name, quote=False),
            "description": _escaped_paragraph(event.excerpt or event.description),
        }
        if event.image:
            data["image"] = event.image
        data.update(
            {
                "url": url,
                "eventAttendanceMode": "https://schema.org/OfflineEventAttendanceMode",
                "eventStatus": "https://schema.org/EventScheduled",
                "startDate": stated_isoformat(event.start_date),
                "endDate": stated_isoformat(event.end_date),
            }
        )
        # The first linked venue and organizer describe the event; one the caller may not
        # read on its own is ``false`` (del_venue_event_after).
        venues = related.venues_of(event)
        if venues:
            first_venue = venues[0]
            readable = first_venue.id in related.readable
            data["location"] = self._place_json_ld(first_venue) if readable else False
        organizers = related.organizers_of(event)
        if organizers:
            first = organizers[0]
            data["organizer"] = (
                self._person_json_ld(first) if first.id in related.readable else False
            )
        if event.cost_details.values:
            data["offers"] = {
                "@type": "Offer",
                "price": self._price(event),
                "priceCurrency": event.cost_details.currency_code or "USD",
                "url": url,
                "category": "primary",
                "availability": "inStock",
                "validFrom": start_of_day(event.date_utc).isoformat(),
            }
        data["performer"] = "Organization"
        return data

    @staticmethod
    def _price(event: Event) -> str:
        """The offer price: the displayed cost without its currency symbol, ``"0"`` if free."""
        bare = attrs.evolve(event.cost_details, currency_symbol="")
        price = format_cost(event.cost, bare, default_symbol="")
        return "0" if price == FREE else price


def _script_safe(data: Any) -> Any:
    """JSON-LD that can go inside a ``<script>`` element as it is: no ``<`` or ``>`` in any
    value (names and descriptions are HTML-escaped already; this covers every other text), so
    no stored ``</script>`` can close the element."""
    if isinstance(data, str):
        return data.replace("<", "&lt;").replace(">", "&gt;")
    if isinstance(data, dict):
        return {k: _script_safe(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_script_safe(v) for v in data]
    return data


def _json_ld_link(permalink: str) -> str:
    """The reference's JSON-LD link to an event: a plain ``?post_type=...&p=N`` permalink
    (drafts, the trash) gains an escaped trailing slash, ``...&p=N%2F/``
    (evread_draft_admin); a pretty permalink is used as it is."""
    return f"{permalink}%2F/" if "?" in permalink else permalink
