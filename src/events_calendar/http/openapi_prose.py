"""The prose of ``/doc``: the reference's descriptions of its schemas, by schema and property.

``openapi`` infers every schema from what the wire emits; only these words are written by hand
(the reference's, where it has the property).
"""

from __future__ import annotations

__all__ = ["DESCRIPTIONS"]


def _post_texts(noun: str) -> dict[str, str]:
    """What events, venues and organizers share, in the reference's words."""
    return {
        "id": f"The {noun} WordPress post ID",
        "global_id": f"The {noun} ID used to globally identify in Event Aggregator",
        "global_id_lineage": f"An Array containing the lineage of where this {noun} comes "
        f"from, this should not change after the {noun} is created.",
        "author": f"The {noun} author WordPress post ID",
        "date": f"The {noun} creation date in the site time zone",
        "date_utc": f"The {noun} creation date in UTC time",
        "modified": f"The {noun} last modification date in the site time zone",
        "modified_utc": f"The {noun} last modification date in UTC time",
        "status": f"The {noun} status",
        "url": f"The URL to the {noun} page",
        "description": f"The {noun} long description",
        "excerpt": f"The {noun} short description",
        "slug": f"The {noun} slug",
        "image": f"The {noun} featured image details if set",
        "json_ld": f"The {noun} as schema.org JSON-LD (single reads only)",
    }


def _term_texts() -> dict[str, str]:
    return {
        "id": "The WordPress term ID",
        "name": "The term name",
        "slug": "The term slug",
        "taxonomy": "The taxonomy the term belongs to",
        "description": "The term description",
        "parent": "The term parent term if any",
        "count": "The number of posts associated with the term",
        "urls": "A list of links to the term own, archive and parent REST URL",
    }


_DETAIL = "An array of each component of the event"
_MAP = "Whether the map {0}should be shown for the {1} or not"
DESCRIPTIONS: dict[str, dict[str, str]] = {
    "CostDetails": {
        "currency_symbol": "The cost currency symbol",
        "currency_code": "The cost currency code (ISO 4217), if known",
        "currency_position": "The position of the currency symbol in the cost string",
        "values": "A sorted array of all the numeric values for the cost",
    },
    "Term": {
        "description": "A category or tag, as lists and single reads show it",
        **_term_texts(),
        "meta": "The term meta data (always empty)",
        "url": "The URL to the term archive page",
        "_links": "Links to the term in the WordPress core REST API (single reads)",
    },
    "EventTerm": {
        "description": "A category or tag, as an event embeds it",
        **_term_texts(),
        "term_group": "The term group (always 0)",
        "term_taxonomy_id": "The term taxonomy ID (equal to the term ID)",
        "filter": "How the term was sanitised (always raw)",
    },
    "Image": {
        "url": "The URL to the full size version of the image",
        "id": "The image WordPress post ID",
        "extension": "The image file extension",
    },
    "DateDetails": {
        "year": "The date year",
        "month": "The date month",
        "day": "The date day",
        "hour": "The date hour",
        "minutes": "The date minutes",
        "seconds": "The date seconds",
    },
    "Event": {
        **_post_texts("event"),
        "rest_url": "The TEC REST API link to fetch this event",
        "title": "The event name",
        "all_day": "Whether or not this event is an all day Event",
        "start_date": "The event start date in the event or site time zone",
        "start_date_details": f"{_DETAIL} start date",
        "end_date": "The event end date in the event or site time zone",
        "end_date_details": f"{_DETAIL} end date",
        "utc_start_date": "The event start date in UTC time",
        "utc_start_date_details": f"{_DETAIL} start date in UTC time",
        "utc_end_date": "The event end date in UTC time",
        "utc_end_date_details": f"{_DETAIL} end date in UTC time",
        "timezone": "The event time zone string",
        "timezone_abbr": "The abbreviated event time zone string",
        "cost": "The event cost including the currency symbol",
        "cost_details": "The event cost details",
        "website": "The event website URL",
        "show_map": _MAP.format("", "event"),
        "show_map_link": _MAP.format("link ", "event"),
        "hide_from_listings": "Whether an event should be hidden from the calendar view or not",
        "sticky": "Whether an event is sticky in the calendar view or not",
        "featured": "Whether the event is featured in the calendar or not",
        "categories": "The event categories",
        "tags": "The event tags",
        "venue": "The event venue: an object if it has one, else a list (empty for none)",
        "organizer": "The event organizers",
        "custom_fields": "The event custom fields (always empty)",
    },
    "Venue": {
        **_post_texts("venue"),
        "venue": "The venue name",
        "show_map": _MAP.format("", "venue"),
        "show_map_link": _MAP.format("link ", "venue"),
        "address": "The venue address",
        "city": "The venue city",
        "country": "The venue country",
        "province": "The venue province",
        "state": "The venue state",
        "zip": "The venue ZIP code",
        "phone": "The venue phone number",
        "website": "The venue website URL",
        "stateprovince": "The venue state or province",
    },
    "Organizer": {
        **_post_texts("organizer"),
        "organizer": "The organizer name",
        "phone": "The organizer phone number",
        "website": "The organizer website",
        "email": "The organizer email address",
    },
    "Error": {
        "description": "What went wrong; nothing was changed",
        "code": "A stable, machine-readable error code",
        "message": "What went wrong, in words",
        "data": "The HTTP status, and for bad input the parameters concerned (params)",
        "additional_data": "The id of the term that already exists (term_exists)",
    },
}
