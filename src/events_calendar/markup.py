"""HTML in text fields: what users without the right to post unfiltered HTML may store.

WordPress lets administrators and editors post any HTML (``unfiltered_html``) and runs everyone
else's titles and content through kses: content and excerpts keep the tags of ``wp_kses_post``,
titles the few inline tags of ``$allowedtags``, and scripts, event handlers, ``javascript:``
links and every other tag are removed. We do the same with ``nh3`` (the Rust ``ammonia``
sanitiser), a maintained allow-list cleaner, rather than our own regular expressions.

Text without a ``<`` is kept exactly as sent: it holds no markup to remove, and escaping its
``&`` would change what plain-text clients stored. Other text fields (addresses, phones ...)
keep no tags at all.
"""

from __future__ import annotations

import html
import re

import nh3

__all__ = ["plain_text", "sanitize"]

#: ``wp_kses_post``'s usual tags (the ones a calendar's descriptions use).
_CONTENT_TAGS = frozenset(
    {
        "a", "abbr", "b", "blockquote", "br", "caption", "cite", "code", "dd", "del", "div",
        "dl", "dt", "em", "figcaption", "figure", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i",
        "img", "ins", "li", "ol", "p", "pre", "q", "s", "small", "span", "strike", "strong",
        "sub", "sup", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "u", "ul",
    }
)  # fmt: skip
#: WordPress's ``$allowedtags``: what a title may hold.
_TITLE_TAGS = frozenset(
    {"a", "abbr", "acronym", "b", "blockquote", "cite", "code", "del", "em", "i", "q", "s",
     "strike", "strong"}
)  # fmt: skip
_ATTRIBUTES = {
    "*": {"class", "id", "title", "lang", "dir"},
    "a": {"href", "target", "rel"},
    "img": {"src", "alt", "width", "height"},
    "td": {"colspan", "rowspan"},
    "th": {"colspan", "rowspan", "scope"},
}
#: Fields that hold rich content; a record's name field holds a title; others, plain text.
_CONTENT_FIELDS = frozenset({"description", "excerpt"})


def sanitize(field: str, text: str, *, title: bool) -> str:
    """``text`` of ``field`` with the tags its kind of field may not hold removed.

    ``title``: the field is a record's name (event title, venue or term name ...).
    """
    if "<" not in text:
        return text
    if field in _CONTENT_FIELDS:
        tags = _CONTENT_TAGS
    elif title:
        tags = _TITLE_TAGS
    else:
        tags = frozenset()
    attributes = {k: v for k, v in _ATTRIBUTES.items() if k == "*" or k in tags}
    return nh3.clean(
        text,
        tags=set(tags),
        attributes=attributes,
        link_rel=None,
        url_schemes={"http", "https", "mailto"},
        strip_comments=True,
    )


_BREAKS = re.compile(r"<\s*(?:br|/p|/div|/li|/h[1-6]|/tr)\b[^>]*>", re.IGNORECASE)
_TAGS = re.compile(r"<[^>]*>")
_BLANK_LINES = re.compile(r"\n{3,}")


def plain_text(markup: str) -> str:
    """A description as the plain text an iCalendar DESCRIPTION holds: tags out, entities
    read, line breaks where paragraphs and breaks were (calendar applications show it as
    text)."""
    if "<" not in markup and "&" not in markup:
        return markup.strip()
    text = _TAGS.sub("", _BREAKS.sub("\n", markup))
    return _BLANK_LINES.sub("\n\n", html.unescape(text)).strip()
