"""The bounded maps the library's caches are built on (``caching``)."""

from __future__ import annotations

from events_calendar.caching import GenerationCache, Recent


def test_recent_keeps_the_most_recently_used_entries() -> None:
    """Past its bound the least recently used entry goes; a read counts as a use."""
    recent: Recent[str, int] = Recent(2)
    recent.put("a", 1)
    recent.put("b", 2)
    assert 1 == recent.get("a")  # "b" is now the least recently used
    recent.put("c", 3)
    assert (1, None, 3, 2) == (recent.get("a"), recent.get("b"), recent.get("c"), len(recent))
    recent.pop("a")
    recent.pop("a")  # popping what is gone is nothing
    assert (None, 1) == (recent.get("a"), len(recent))
    recent.clear()
    assert 0 == len(recent)


def test_a_generation_cache_entry_holds_for_its_generation_only() -> None:
    cache: GenerationCache[str] = GenerationCache(max_entries=8)
    cache.put("total", 1, "kept")
    assert ("kept", None, None) == (
        cache.get("total", 1),
        cache.get("total", 2),
        cache.get("total", 1),  # a stale entry is dropped when it is found stale
    )
