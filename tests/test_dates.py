"""Tests for events_calendar.dates: parsing, zones, day rounding and list windows."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone, tzinfo
from typing import Literal
from zoneinfo import ZoneInfo, available_timezones

import pytest
from hypothesis import given
from hypothesis import strategies as st

from events_calendar.dates import (
    Clock,
    FixedClock,
    SystemClock,
    all_day_span,
    default_window,
    end_of_day,
    format_wall,
    months_ahead,
    parse_datetime,
    query_bound,
    repeat_offset,
    resolve_zone,
    start_of_day,
    to_utc,
    zone_abbr,
    zone_name,
)
from events_calendar.errors import InvalidParameter

PARIS = ZoneInfo("Europe/Paris")
NEW_YORK = ZoneInfo("America/New_York")
SANTIAGO = ZoneInfo("America/Santiago")
NOW = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)  # the day the reference was recorded
DATE_HINT = "send a date such as '2031-05-01 19:00'"
Edge = Literal["start", "end"]


def parse(value: object, zone: tzinfo = PARIS, now: datetime = NOW) -> str:
    """Parse with the test defaults and show the result as ISO text."""
    return parse_datetime(value, zone=zone, now=now, field="start_date").isoformat()


# --- clocks ------------------------------------------------------------------------------------


def test_system_clock_gives_aware_utc() -> None:
    """SystemClock.now() is an aware UTC datetime."""
    assert UTC == SystemClock().now().tzinfo


def test_clocks_satisfy_the_protocol() -> None:
    """Both clocks can be passed where a Clock is expected."""
    clocks: list[Clock] = [SystemClock(), FixedClock(NOW)]
    assert 2 == len(clocks)


def test_fixed_clock_converts_to_utc() -> None:
    """FixedClock stores the instant it is given, expressed in UTC."""
    clock = FixedClock(datetime(2026, 11, 22, 11, 0, tzinfo=PARIS))
    assert datetime(2026, 11, 22, 10, 0, tzinfo=UTC) == clock.now()
    assert UTC == clock.now().tzinfo


def test_fixed_clock_advances() -> None:
    """advance() moves the clock and returns the new now."""
    clock = FixedClock(NOW)
    assert datetime(2026, 11, 23, 11, 0, tzinfo=UTC) == clock.advance(timedelta(hours=25))
    assert datetime(2026, 11, 23, 11, 0, tzinfo=UTC) == clock.now()


def test_fixed_clock_can_be_set() -> None:
    """set() jumps to another instant."""
    clock = FixedClock(NOW)
    clock.set(datetime(2031, 1, 1, tzinfo=UTC))
    assert datetime(2031, 1, 1, tzinfo=UTC) == clock.now()


def test_fixed_clock_refuses_naive_datetimes() -> None:
    """A naive datetime names no instant, so a clock cannot hold one."""
    with pytest.raises(ValueError, match="aware"):
        FixedClock(datetime(2026, 11, 22, 10, 0))  # noqa: DTZ001


# --- zones -------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["Europe/Paris", "America/New_York", "Asia/Kolkata"])
def test_resolve_zone_reads_iana_names(name: str) -> None:
    """IANA names give the matching ZoneInfo."""
    assert ZoneInfo(name) == resolve_zone(name)


def test_resolve_zone_ignores_case() -> None:
    """Zone names are matched case-insensitively, as PHP does, and come back canonical."""
    assert "Europe/Paris" == zone_name(resolve_zone(" europe/PARIS "))


def test_resolve_zone_reads_the_zone_list_from_disk_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Walking the zone directories costs ~20 ms; a load of 20,000 rows once paid it per date."""
    import events_calendar.dates as dates_module

    walks: list[int] = []

    def counting() -> set[str]:
        walks.append(1)
        return available_timezones()

    dates_module._zone_keys.cache_clear()
    dates_module._zone_from_text.cache_clear()
    monkeypatch.setattr(dates_module, "available_timezones", counting)
    try:
        for name in ("Europe/Paris", "america/new_york", "Asia/Tokyo", "Europe/Paris"):
            resolve_zone(name)
    finally:
        dates_module._zone_keys.cache_clear()
        dates_module._zone_from_text.cache_clear()
    assert walks == [1]


def test_resolve_zone_utc_is_the_utc_constant() -> None:
    """'UTC' resolves to datetime.UTC itself."""
    assert resolve_zone("UTC") is UTC


@pytest.mark.parametrize(
    ("name", "minutes", "label"),
    [
        ("UTC+2", 120, "UTC+2"),
        ("UTC-5", -300, "UTC-5"),
        ("UTC+5:30", 330, "UTC+5:30"),
        ("UTC+5.5", 330, "UTC+5:30"),
        ("UTC-9.75", -585, "UTC-9:45"),
        ("UTC+02", 120, "UTC+2"),
        ("utc-03:00", -180, "UTC-3"),
        ("UTC+0", 0, "UTC+0"),
        ("UTC-0", 0, "UTC+0"),
        ("UTC+14", 840, "UTC+14"),
    ],
)
def test_resolve_zone_reads_utc_offsets(name: str, minutes: int, label: str) -> None:
    """'UTC±n' is that offset in winter, named by the normalised label."""
    zone = resolve_zone(name)
    winter = datetime(2031, 1, 15, 12, tzinfo=zone)
    assert (timedelta(minutes=minutes), label) == (winter.utcoffset(), zone.tzname(winter))


@pytest.mark.parametrize(
    ("name", "summer_minutes"),
    [("UTC+2", 180), ("UTC+1", 120), ("UTC-5", -240), ("UTC+5:30", 330), ("UTC+13", 780)],
)
def test_offset_zones_keep_summer_time_as_the_reference_reads_them(
    name: str, summer_minutes: int
) -> None:
    """'UTC+2' is read as the reference reads it: Eastern European time, summer time
    included (ev_offset_tz stores 09:30 on 1 August at UTC+2 as 06:30 UTC); offsets the
    reference has no zone for stay fixed."""
    summer = datetime(2031, 8, 1, 9, 30, tzinfo=resolve_zone(name))
    assert timedelta(minutes=summer_minutes) == summer.utcoffset()


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("Mars/Olympus", "unknown time zone 'Mars/Olympus'"),
        ("localtime", "unknown time zone"),
        ("Europe/Paris/", "unknown time zone"),
        ("UTC+15", "between UTC-14 and UTC\\+14"),
        ("UTC+2:75", "between UTC-14 and UTC\\+14"),
        ("UTC+2.1234567", "between UTC-14 and UTC\\+14"),
    ],
)
def test_resolve_zone_rejects_bad_names(name: str, why: str) -> None:
    """Empty, unknown and out-of-range zones are refused with a hint."""
    with pytest.raises(InvalidParameter, match=why) as caught:
        resolve_zone(name)
    assert ["timezone"] == list(caught.value.fields)
    assert "such as 'Europe/Paris'" in caught.value.fields["timezone"]


def test_resolve_zone_error_names_the_given_field() -> None:
    """The error names the field the caller says the zone came from."""
    with pytest.raises(InvalidParameter) as caught:
        resolve_zone("Nowhere", field="default_timezone")
    assert ["default_timezone"] == list(caught.value.fields)


@pytest.mark.parametrize("name", ["Europe/Paris", "UTC", "UTC+2", "UTC-5", "UTC+5:30", "UTC+0"])
def test_zone_name_inverts_resolve_zone(name: str) -> None:
    """zone_name gives back the name resolve_zone read."""
    assert name == zone_name(resolve_zone(name))


def test_zone_name_labels_unnamed_offsets() -> None:
    """A plain datetime.timezone offset is named like the reference's 'UTC±n'."""
    assert "UTC-3:30" == zone_name(timezone(timedelta(hours=-3, minutes=-30)))


@pytest.mark.parametrize(
    ("when", "abbr"),
    [
        (datetime(2031, 6, 15, 19, 0, tzinfo=NEW_YORK), "EDT"),
        (datetime(2031, 12, 15, 19, 0, tzinfo=NEW_YORK), "EST"),
        (datetime(2031, 7, 14, 0, 0, tzinfo=PARIS), "CEST"),
        (datetime(2031, 1, 14, 0, 0, tzinfo=PARIS), "CET"),
        (datetime(2031, 7, 14, 0, 0, tzinfo=UTC), "UTC"),
        (datetime(2031, 8, 1, 9, 30, tzinfo=resolve_zone("UTC+2")), "UTC+2"),
    ],
)
def test_zone_abbr_at_an_instant(when: datetime, abbr: str) -> None:
    """zone_abbr answers what the reference puts in timezone_abbr."""
    assert abbr == zone_abbr(when)


def test_zone_abbr_refuses_naive_datetimes() -> None:
    """A naive datetime has no zone to abbreviate."""
    with pytest.raises(ValueError, match="aware"):
        zone_abbr(datetime(2031, 1, 1))  # noqa: DTZ001


# --- parse_datetime: absolute formats ----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2031-05-01", "2031-05-01T00:00:00+02:00"),
        ("2031-05-01 19:00", "2031-05-01T19:00:00+02:00"),
        ("2031-05-01 19:00:30", "2031-05-01T19:00:30+02:00"),
        ("2031-05-01T19:00:00", "2031-05-01T19:00:00+02:00"),
        ("2031/05/01", "2031-05-01T00:00:00+02:00"),
        ("2031/12/05 09:00:00", "2031-12-05T09:00:00+01:00"),
        ("November 3, 2031 10:00am", "2031-11-03T10:00:00+01:00"),
        ("  2031-05-01 19:00  ", "2031-05-01T19:00:00+02:00"),
    ],
)
def test_parse_zoneless_text_is_wall_time_in_paris(text: str, expected: str) -> None:
    """Zone-less text is wall-clock time in the given zone (Paris)."""
    assert expected == parse(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2031-06-15 19:00:00", "2031-06-15T19:00:00-04:00"),
        ("2031-12-15 19:00", "2031-12-15T19:00:00-05:00"),
        ("2031/12/05", "2031-12-05T00:00:00-05:00"),
        ("November 3, 2031 4:00pm", "2031-11-03T16:00:00-05:00"),
    ],
)
def test_parse_zoneless_text_is_wall_time_in_new_york(text: str, expected: str) -> None:
    """Zone-less text is wall-clock time in the given zone (New York)."""
    assert expected == parse(text, NEW_YORK)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2031-05-01T19:00:00+02:00", "2031-05-01T13:00:00-04:00"),
        ("2031-05-01T19:00:00Z", "2031-05-01T15:00:00-04:00"),
        ("2031-05-01 19:00 +0200", "2031-05-01T13:00:00-04:00"),
        ("2031-05-01 19:00 Europe/Paris", "2031-05-01T13:00:00-04:00"),
        ("2031-05-01 19:00 CET", "2031-05-01T14:00:00-04:00"),
    ],
)
def test_parse_text_with_its_own_zone_is_an_instant(text: str, expected: str) -> None:
    """An offset or zone in the text fixes the instant, which is then shown in the given zone."""
    assert expected == parse(text, NEW_YORK)


def test_parse_dst_gap_moves_forward_in_paris() -> None:
    """02:30 on the spring-forward night does not exist in Paris and becomes 03:30 CEST."""
    assert "2031-03-30T03:30:00+02:00" == parse("2031-03-30 02:30")


def test_parse_dst_gap_moves_forward_in_new_york() -> None:
    """02:30 on the spring-forward night does not exist in New York and becomes 03:30 EDT."""
    assert "2031-03-09T03:30:00-04:00" == parse("2031-03-09 02:30", NEW_YORK)


@pytest.mark.parametrize("fold", [0, 1])
def test_an_aware_datetime_in_a_dst_gap_of_its_own_zone_is_settled(fold: int) -> None:
    """An aware 02:30 on Paris's spring-forward night, in the calendar's own zone object, is
    the instant its offset gives, on the real wall clock, as text is: ``astimezone`` into
    the same zone object returned the missing wall time unchanged, which one backend stored
    as such and another as 03:30."""
    value = datetime(2031, 3, 30, 2, 30, tzinfo=PARIS, fold=fold)
    expected = value.astimezone(UTC).astimezone(PARIS).isoformat()
    assert (expected, parse(value)) == (parse(value.astimezone(UTC)), expected)
    assert parse(value) in ("2031-03-30T03:30:00+02:00", "2031-03-30T01:30:00+01:00")


def test_parse_ambiguous_time_takes_first_occurrence() -> None:
    """02:30 on the fall-back night in Paris is the first (summer time) 02:30."""
    assert "2031-10-26T02:30:00+02:00" == parse("2031-10-26 02:30")


def test_parse_in_an_offset_zone() -> None:
    """In a 'UTC+2' zone wall time is two hours ahead of UTC in winter, three in summer."""
    zone = resolve_zone("UTC+2")
    summer = parse_datetime("2031-08-01T09:30:00", zone=zone, now=NOW, field="start_date")
    winter = parse_datetime("2031-01-01T09:30:00", zone=zone, now=NOW, field="start_date")
    assert ("2031-08-01 09:30:00", "2031-08-01 06:30:00", "2031-01-01 07:30:00") == (
        format_wall(summer),
        format_wall(to_utc(summer)),
        format_wall(to_utc(winter)),
    )


# --- parse_datetime: timestamps and Python values ----------------------------------------------


@pytest.mark.parametrize(
    "value", [1700000000, 1700000000.9, "1700000000", "@1700000000", " 1700000000 "]
)
def test_parse_timestamps_are_instants(value: object) -> None:
    """Numbers, digit strings and '@n' are Unix timestamps (fractions dropped)."""
    assert "2023-11-14T23:13:20+01:00" == parse(value)


def test_parse_naive_datetime_is_wall_time() -> None:
    """A naive datetime is read as wall time in the zone."""
    assert "2031-05-01T19:00:00-04:00" == parse(datetime(2031, 5, 1, 19, 0), NEW_YORK)  # noqa: DTZ001


def test_parse_aware_datetime_is_converted() -> None:
    """An aware datetime keeps its instant and is shown in the zone."""
    assert "2031-05-01T21:00:00+02:00" == parse(datetime(2031, 5, 1, 19, 0, tzinfo=UTC))


def test_parse_date_is_midnight_in_the_zone() -> None:
    """A date is midnight at the start of that day in the zone."""
    assert "2031-07-14T00:00:00+02:00" == parse(date(2031, 7, 14))


def test_parse_drops_microseconds() -> None:
    """Results are to the second, like the wire format."""
    assert "2031-05-01T19:00:00+02:00" == parse("2031-05-01T19:00:00.750")


# --- parse_datetime: relative phrases ----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("now", "2026-11-22T11:00:00+01:00"),
        ("tomorrow", "2026-11-23T00:00:00+01:00"),
        ("yesterday 23:59", "2026-11-21T23:59:00+01:00"),
        ("+2 weeks", "2026-12-06T11:00:00+01:00"),
        ("next monday 9am", "2026-11-23T09:00:00+01:00"),
        ("next wednesday 4pm", "2026-11-25T16:00:00+01:00"),
        ("first day of next month", "2026-12-01T11:00:00+01:00"),
        ("3 days ago", "2026-11-19T11:00:00+01:00"),
    ],
)
def test_parse_relative_phrases_in_paris(text: str, expected: str) -> None:
    """PHP strtotime phrases count from now on Paris's wall clock."""
    assert expected == parse(text, PARIS, FixedClock(NOW).now())


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("now", "2026-11-22T05:00:00-05:00"),
        ("tomorrow", "2026-11-23T00:00:00-05:00"),
        ("tomorrow 9am", "2026-11-23T09:00:00-05:00"),
        ("+5 weeks", "2026-12-27T05:00:00-05:00"),
    ],
)
def test_parse_relative_phrases_in_new_york(text: str, expected: str) -> None:
    """PHP strtotime phrases count from now on New York's wall clock."""
    assert expected == parse(text, NEW_YORK)


def test_tomorrow_follows_the_local_date_not_the_utc_date() -> None:
    """At 23:30 UTC it is already the 23rd in Paris, so 'tomorrow' is the 24th."""
    assert "2026-11-24T00:00:00+01:00" == parse(
        "tomorrow", now=datetime(2026, 11, 22, 23, 30, tzinfo=UTC)
    )


def test_relative_day_keeps_the_wall_clock_across_dst() -> None:
    """'+1 day' over the spring-forward night keeps 13:00 on the wall clock."""
    now = datetime(2031, 3, 29, 12, 0, tzinfo=UTC)
    assert "2031-03-30T13:00:00+02:00" == parse("+1 day", now=now)


def test_now_in_a_repeated_hour_is_the_current_instant() -> None:
    """'now' during the second 02:30 of the fall-back night is that very instant."""
    now = datetime(2031, 10, 26, 1, 30, 0, 250000, tzinfo=UTC)
    got = parse_datetime("now", zone=PARIS, now=now, field="start_date")
    assert datetime(2031, 10, 26, 1, 30, tzinfo=UTC) == to_utc(got)


def test_relative_phrase_with_its_own_zone() -> None:
    """'tomorrow 9am CET' is 9am in CET, shown in New York."""
    assert "2026-11-23T03:00:00-05:00" == parse("tomorrow 9am CET", NEW_YORK)


# --- parse_datetime: refusals ------------------------------------------------------------------


@pytest.mark.parametrize(
    "value",
    [
        "before my birthday",
        "not-a-date",
        "",
        "   ",
        "tomorrow é",
        "2031-05-01\x0019:00",
        None,
        [],
        {"date": "2031-05-01"},
        True,
        False,
        float("nan"),
        float("inf"),
    ],
)
def test_parse_refuses_garbage(value: object) -> None:
    """Unreadable values raise InvalidParameter naming the field and showing a valid example."""
    with pytest.raises(InvalidParameter, match="cannot read") as caught:
        parse(value)
    assert ["start_date"] == list(caught.value.fields)
    assert DATE_HINT in caught.value.fields["start_date"]


@pytest.mark.parametrize(
    "value",
    [
        "0999-12-31",
        "10000-01-01",
        "+100000 years",
        "9999-12-31 23:30 +1 hour",
        -40000000000,
        datetime(999, 1, 1),  # noqa: DTZ001
    ],
)
def test_parse_refuses_years_outside_1000_to_9999(value: object) -> None:
    """Years before 1000 or after 9999 are refused."""
    with pytest.raises(InvalidParameter, match="outside the years 1000-9999") as caught:
        parse(value)
    assert DATE_HINT in caught.value.fields["start_date"]


@pytest.mark.parametrize("text", ["2031-02-30", "2031/02/29 10:00", "2031-13-45 99:00:00"])
def test_parse_refuses_impossible_days(text: str) -> None:
    """A day that is not in the calendar is refused, not rolled over as PHP would."""
    with pytest.raises(InvalidParameter, match="names no calendar day"):
        parse(text)


def test_parse_requires_an_aware_now() -> None:
    """'now' must be an instant."""
    with pytest.raises(ValueError, match="aware"):
        parse("tomorrow", now=datetime(2026, 11, 22, 10, 0))  # noqa: DTZ001


# --- formatting and day rounding ---------------------------------------------------------------


def test_format_wall_uses_the_local_wall_clock() -> None:
    """format_wall shows the datetime's own wall clock."""
    assert "2031-06-15 19:00:05" == format_wall(datetime(2031, 6, 15, 19, 0, 5, tzinfo=NEW_YORK))


def test_start_of_day() -> None:
    """start_of_day is 00:00:00 of the same local date in the same zone."""
    got = start_of_day(datetime(2031, 6, 15, 19, 45, 12, 500, tzinfo=NEW_YORK))
    assert datetime(2031, 6, 15, 0, 0, tzinfo=NEW_YORK) == got
    assert NEW_YORK is got.tzinfo


def test_end_of_day() -> None:
    """end_of_day is 23:59:59 (no microseconds) of the same local date."""
    got = end_of_day(datetime(2031, 6, 15, 19, 45, 12, 500, tzinfo=NEW_YORK))
    assert "2031-06-15T23:59:59-04:00" == got.isoformat()


def test_start_of_day_when_midnight_is_skipped() -> None:
    """Santiago skips 00:00-01:00 on 2031-09-07, so its day starts at 01:00."""
    assert (
        "2031-09-07T01:00:00-03:00"
        == start_of_day(datetime(2031, 9, 7, 12, 0, tzinfo=SANTIAGO)).isoformat()
    )


@pytest.mark.parametrize(
    ("when", "expected"),
    [
        (datetime(2031, 11, 2, 1, 30, tzinfo=NEW_YORK), ""),  # first pass: EDT
        (datetime(2031, 11, 2, 1, 30, tzinfo=NEW_YORK, fold=1), "-05:00"),  # second: EST
        (datetime(2031, 11, 2, 2, 30, tzinfo=NEW_YORK, fold=1), ""),  # after the repeat
        (datetime(2031, 3, 30, 2, 30, tzinfo=PARIS, fold=1), ""),  # a gap is no repeat
        (datetime(2031, 10, 26, 2, 30, tzinfo=PARIS, fold=1), "+01:00"),
        (resolve_zone("UTC+2").fromutc(datetime(2031, 10, 26, 1, 30, tzinfo=UTC)), "+02:00"),
    ],
)
def test_repeat_offset_names_the_second_pass_of_a_repeated_hour(
    when: datetime, expected: str
) -> None:
    """Only a wall time in the second pass of a repeated hour gets its UTC offset."""
    assert expected == repeat_offset(when)


def test_end_of_day_when_the_last_hour_repeats() -> None:
    """Santiago repeats 23:00-24:00 on 2031-04-05; its day ends at the second 23:59:59."""
    got = end_of_day(datetime(2031, 4, 5, 12, 0, tzinfo=SANTIAGO))
    assert datetime(2031, 4, 6, 3, 59, 59, tzinfo=UTC) == to_utc(got)


def test_all_day_span_covers_whole_days() -> None:
    """An all-day event runs 00:00:00 of its first day to 23:59:59 of its last."""
    start, end = all_day_span(
        datetime(2031, 7, 14, 10, 0, tzinfo=PARIS), datetime(2031, 7, 15, 18, 0, tzinfo=PARIS)
    )
    assert ("2031-07-14 00:00:00", "2031-07-15 23:59:59") == (format_wall(start), format_wall(end))
    assert "2031-07-13 22:00:00" == format_wall(to_utc(start))


def test_to_utc_keeps_the_instant() -> None:
    """to_utc re-expresses the same instant in UTC."""
    got = to_utc(datetime(2031, 7, 14, 0, 0, tzinfo=PARIS))
    assert (datetime(2031, 7, 13, 22, 0, tzinfo=UTC), UTC) == (got, got.tzinfo)


def test_to_utc_refuses_naive_datetimes() -> None:
    """A naive datetime has no instant to convert."""
    with pytest.raises(ValueError, match="aware"):
        to_utc(datetime(2031, 7, 14))  # noqa: DTZ001


# --- list filters ------------------------------------------------------------------------------


def bound(value: object, edge: Edge, *, strict: bool, zone: tzinfo = PARIS) -> datetime:
    """query_bound with the test defaults."""
    return query_bound(value, edge=edge, strict=strict, zone=zone, now=NOW, field="start_date")


def test_query_bound_start_snaps_to_start_of_local_day() -> None:
    """Without strict_dates a start bound widens to 00:00:00 of its local day."""
    assert datetime(2031, 4, 30, 22, 0, tzinfo=UTC) == bound(
        "2031-05-01 15:00", "start", strict=False
    )


def test_query_bound_end_snaps_to_end_of_local_day() -> None:
    """Without strict_dates an end bound widens to 23:59:59 of its local day."""
    assert datetime(2031, 5, 1, 21, 59, 59, tzinfo=UTC) == bound(
        "2031-05-01 15:00", "end", strict=False
    )


@pytest.mark.parametrize("edge", ["start", "end"])
def test_query_bound_strict_is_exact(edge: Edge) -> None:
    """With strict_dates the bound is the given second."""
    assert datetime(2031, 5, 1, 13, 0, 5, tzinfo=UTC) == bound(
        "2031-05-01 15:00:05", edge, strict=True
    )


def test_query_bound_is_utc() -> None:
    """Bounds come back in UTC for the backends."""
    assert UTC == bound("2031-05-01", "start", strict=False, zone=NEW_YORK).tzinfo


def test_query_bound_relative_phrase() -> None:
    """'tomorrow' as an end bound is the end of local tomorrow."""
    assert datetime(2026, 11, 23, 22, 59, 59, tzinfo=UTC) == bound("tomorrow", "end", strict=False)


def test_query_bound_error_names_the_field() -> None:
    """A bad bound is a 400 naming that filter."""
    with pytest.raises(InvalidParameter) as caught:
        query_bound("soonish", edge="end", strict=False, zone=PARIS, now=NOW, field="ends_before")
    assert ["ends_before"] == list(caught.value.fields)


@pytest.mark.parametrize(
    ("zone", "start", "end"),
    [
        (
            UTC,
            datetime(2026, 11, 21, 0, 0, tzinfo=UTC),
            datetime(2028, 11, 22, 23, 59, 59, tzinfo=UTC),
        ),
        (
            PARIS,
            datetime(2026, 11, 20, 23, 0, tzinfo=UTC),
            datetime(2028, 11, 22, 22, 59, 59, tzinfo=UTC),
        ),
        (
            NEW_YORK,
            datetime(2026, 11, 21, 5, 0, tzinfo=UTC),
            datetime(2028, 11, 23, 4, 59, 59, tzinfo=UTC),
        ),
    ],
)
def test_default_window(zone: tzinfo, start: datetime, end: datetime) -> None:
    """The default window runs from start of local yesterday to end of the day 24 months on."""
    assert (start, end) == default_window(NOW, zone)


def test_default_window_uses_the_local_date() -> None:
    """At 23:30 UTC Paris is already on the 23rd, so yesterday is the 22nd."""
    start, _ = default_window(datetime(2026, 11, 22, 23, 30, tzinfo=UTC), PARIS)
    assert datetime(2026, 11, 21, 23, 0, tzinfo=UTC) == start


def test_default_window_moves_at_local_midnight_not_before() -> None:
    """The window is kept per local day: every instant of one Paris day gets the same one,
    and the first second of the next day gets the next."""
    first = default_window(datetime(2026, 11, 21, 23, 0, tzinfo=UTC), PARIS)  # 00:00 Paris
    last = default_window(datetime(2026, 11, 22, 22, 59, 59, tzinfo=UTC), PARIS)  # 23:59:59
    following = default_window(datetime(2026, 11, 22, 23, 0, tzinfo=UTC), PARIS)
    assert first == last
    assert datetime(2026, 11, 20, 23, 0, tzinfo=UTC) == first[0]
    assert (timedelta(days=1), timedelta(days=1)) == (
        following[0] - last[0],
        following[1] - last[1],
    )
    assert following != default_window(datetime(2026, 11, 22, 23, 0, tzinfo=UTC), NEW_YORK)


def test_default_window_from_leap_day() -> None:
    """24 months after 29 February is 1 March, as the reference's ``strtotime('+24 months')``
    counts (PHP rolls a day the month lacks over into the next; ``relativedelta`` stopped at
    28 February, a day short)."""
    _, end = default_window(datetime(2028, 2, 29, 12, 0, tzinfo=UTC), UTC)
    assert datetime(2030, 3, 1, 23, 59, 59, tzinfo=UTC) == end


@pytest.mark.parametrize(
    ("day", "months", "expected"),
    [
        (date(2028, 2, 29), 24, date(2030, 3, 1)),
        (date(2028, 2, 29), 48, date(2032, 2, 29)),
        (date(2031, 1, 31), 1, date(2031, 3, 3)),
        (date(2031, 12, 15), 24, date(2033, 12, 15)),
    ],
)
def test_months_ahead_counts_as_php_does(day: date, months: int, expected: date) -> None:
    """``+N months`` keeps the day of the month, rolling over what the month lacks."""
    assert expected == months_ahead(day, months)


# --- properties --------------------------------------------------------------------------------

# The zones resolve_zone accepts (st.timezones() also yields leap-second "right/" zones, which
# zoneinfo reads inconsistently and which resolve_zone refuses), plus fixed quarter-hour offsets.
zones = st.one_of(
    st.sampled_from(sorted(available_timezones() - {"localtime", "Factory"})).map(resolve_zone),
    st.integers(-14 * 4, 14 * 4).map(lambda q: timezone(timedelta(minutes=15 * q))),
)
aware_seconds = st.datetimes(
    min_value=datetime(1900, 1, 2),  # noqa: DTZ001
    max_value=datetime(2200, 12, 30),  # noqa: DTZ001
    timezones=zones,
    allow_imaginary=False,
).map(lambda dt: dt.replace(microsecond=0))


@given(aware_seconds)
def test_day_bounds_enclose_the_instant(x: datetime) -> None:
    """start_of_day(x) <= x <= end_of_day(x), as instants."""
    assert to_utc(start_of_day(x)) <= to_utc(x) <= to_utc(end_of_day(x))


@given(aware_seconds)
def test_day_bounds_keep_the_calendar_date(x: datetime) -> None:
    """Both day bounds fall on x's local calendar date."""
    assert (x.date(), x.date()) == (start_of_day(x).date(), end_of_day(x).date())


@given(aware_seconds)
def test_day_rounding_is_idempotent(x: datetime) -> None:
    """Rounding an already rounded value changes nothing."""
    start, end = start_of_day(x), end_of_day(x)
    assert (to_utc(start), to_utc(end)) == (
        to_utc(start_of_day(start)),
        to_utc(end_of_day(end)),
    )


@given(aware_seconds)
def test_wall_text_parses_back_to_the_same_wall_clock(x: datetime) -> None:
    """format_wall(x) read in x's zone gives the same wall clock, via ISO and via strtotime."""
    zone = x.tzinfo
    assert zone is not None
    wall = format_wall(x)
    slashed = wall.replace("-", "/")
    got = [format_wall(parse_datetime(t, zone=zone, now=NOW, field="d")) for t in (wall, slashed)]
    assert [wall, wall] == got


@pytest.mark.parametrize(
    ("phrase", "utc"),
    [
        ("+1 second", datetime(2031, 11, 2, 6, 30, 1, tzinfo=UTC)),
        ("-1 hour", datetime(2031, 11, 2, 5, 30, tzinfo=UTC)),
        ("+2 hours", datetime(2031, 11, 2, 8, 30, tzinfo=UTC)),
        ("90 minutes ago", datetime(2031, 11, 2, 5, 0, tzinfo=UTC)),
        ("+1 hour 30 min", datetime(2031, 11, 2, 8, 0, tzinfo=UTC)),
        ("+1 day", datetime(2031, 11, 3, 6, 30, tzinfo=UTC)),  # a day moves the wall clock
    ],
)
def test_hours_minutes_and_seconds_from_now_are_elapsed_time(phrase: str, utc: datetime) -> None:
    """At the second 01:30 of a fall-back night in New York, a phrase of hours, minutes and
    seconds counts elapsed time (``+1 second`` was the first 01:30:01, an hour back)."""
    now = datetime(2031, 11, 2, 6, 30, tzinfo=UTC)  # 01:30 EST, the hour's second time
    assert utc == parse_datetime(phrase, zone=NEW_YORK, now=now, field="x").astimezone(UTC)


def test_hours_across_a_skipped_hour_are_elapsed_time() -> None:
    """``+2 hours`` from 01:30 on a spring-forward night is two hours on, 04:30 EDT."""
    now = datetime(2031, 3, 9, 6, 30, tzinfo=UTC)  # 01:30 EST
    later = parse_datetime("+2 hours", zone=NEW_YORK, now=now, field="x")
    assert datetime(2031, 3, 9, 8, 30, tzinfo=UTC) == later.astimezone(UTC)
