"""Reading CSV files in the reference's importer layout: headers, values, the end rule."""

from __future__ import annotations

import io
import re
from datetime import date, time, timedelta

import pytest

from events_calendar.errors import InvalidParameter
from events_calendar.io.csv_columns import layout
from events_calendar.io.csv_read import default_key, read_csv
from events_calendar.io.rows import IdOrName, SourceRow, UnreadableFile
from events_calendar.io.values import BadValue, read_bool, read_date, read_moment, read_time


def _rows(text: str, **options: object) -> list[SourceRow]:
    found = read_csv(io.BytesIO(text.encode()), where="f.csv", **options)  # type: ignore[arg-type]
    return list(found.rows)


def _fields(text: str, **options: object) -> dict[str, object]:
    (row,) = _rows(text, **options)
    return dict(row.fields)


@pytest.mark.parametrize(
    "text", ["11/19/2014", "11/19/14", "2014-11-19", "nov 19, 2014", "November 19 2014"]
)
def test_dates_in_spreadsheet_forms(text: str) -> None:
    """Every date form spreadsheets write reads as the same day."""
    assert date(2014, 11, 19) == read_date(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [("7:30:00", time(7, 30)), ("21:45", time(21, 45)), ("9:30 pm", time(21, 30))],
)
def test_times_in_spreadsheet_forms(text: str, expected: time) -> None:
    """24-hour times with or without seconds, and am/pm times."""
    assert expected == read_time(text)


@pytest.mark.parametrize(
    ("text", "expected", "offset"),
    [
        ("01:30:00-05:00", time(1, 30), -5 * 60),
        ("1:30 am -0500", time(1, 30), -5 * 60),
        ("14:30+05:30", time(14, 30), 330),
        ("1:30Z", time(1, 30), 0),
    ],
)
def test_a_time_may_end_with_its_utc_offset(text: str, expected: time, offset: int) -> None:
    """The offset (which pass of a repeated hour) is the time's ``tzinfo``."""
    found = read_time(text)
    assert (expected, timedelta(minutes=offset)) == (found.replace(tzinfo=None), found.utcoffset())


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("TRUE", True),
        ("true", True),
        ("Yes", True),
        ("1", True),
        ("FALSE", False),
        ("No", False),
        ("0", False),
        ("", False),
    ],
)
def test_booleans_in_spreadsheet_forms(text: str, expected: bool) -> None:
    """TRUE/true/Yes/1 and FALSE/No/0/empty."""
    assert expected == read_bool(text)


def test_an_unreadable_time_says_what_to_write() -> None:
    """A time of 25 o'clock is refused with the forms to use."""
    with pytest.raises(BadValue, match="write it as 19:30, 7:30:00 or 7:30 pm"):
        read_time("25:00")


def test_headers_match_ignoring_case_spacing_and_the_kind_word() -> None:
    """``START DATE``, ``Event Start Date`` and ``start_date`` are one column."""
    found = layout(["EVENT NAME", "START  DATE", "event_end_date", "Venue Name"], "event")
    assert ("title", "start_date", "end_date", "venue") == found.columns


#: Every column the issue names, as the reference's importer heads it, and the column each is.
ISSUE_COLUMNS = {
    "event": {
        "Event Name": "title",
        "Event Description": "description",
        "Event Excerpt": "excerpt",
        "Event Start Date": "start_date",
        "Event Start Time": "start_time",
        "Event End Date": "end_date",
        "Event End Time": "end_time",
        "All Day Event": "all_day",
        "Event Timezone": "timezone",
        "Hide Event From Event Listings": "hide_from_listings",
        "Event Sticky in Month View": "sticky",
        "Feature Event": "featured",
        "Event Venue Name": "venue",
        "Event Organizer Name(s) or ID(s)": "organizer",
        "Event Show Map Link": "show_map_link",
        "Event Show Map": "show_map",
        "Event Cost": "cost",
        "Event Currency Symbol": "currency_symbol",
        "Event Currency Code": "currency_code",
        "Event Currency Position": "currency_position",
        "Event Category": "categories",
        "Event Tags": "tags",
        "Event Website": "website",
    },
    "venue": {
        "Venue Name": "venue",
        "Venue Country": "country",
        "Venue Address": "address",
        "Venue Address 2": "address2",
        "Venue City": "city",
        "Venue State/Province": "stateprovince",
        "Venue Zip": "zip",
        "Venue Phone": "phone",
        "Venue Website": "website",
    },
    "organizer": {
        "Organizer Name": "organizer",
        "Organizer Email": "email",
        "Organizer Website": "website",
        "Organizer Phone": "phone",
    },
}


@pytest.mark.parametrize("kind", ["event", "venue", "organizer"])
@pytest.mark.parametrize("form", ["as written", "upper", "lower", "no spaces"])
def test_every_column_of_the_issue_maps_in_every_spelling(kind: str, form: str) -> None:
    """Each header of the reference's layout names its column as written, in capitals, in
    lower case and with its spaces taken out (``EventVenueName``), the kind word included."""
    spell = {
        "as written": str,
        "upper": str.upper,
        "lower": str.lower,
        "no spaces": lambda h: h.replace(" ", ""),
    }[form]
    columns = ISSUE_COLUMNS[kind]
    found = layout([spell(h) for h in columns], kind)  # type: ignore[arg-type]
    assert (tuple(columns.values()), ()) == (found.columns, found.unknown)


@pytest.mark.parametrize(
    "header",
    ["EventName,EventStartDate", "EVENTNAME,STARTDATE", "eventname,startdate", "Name,StartDate"],
)
def test_the_kind_word_may_run_into_the_header(header: str) -> None:
    """A leading "Event" matches with or without a separator after it."""
    (row,) = _rows(f"{header}\nGala,2031-05-01\n")
    assert ("Gala", "2031-05-01 00:00:00") == (row.fields["title"], row.fields["start_date"])


def test_unknown_columns_are_reported() -> None:
    """A header naming no column is listed and its cells are ignored."""
    found = read_csv(io.BytesIO(b"Event Name,Start Date,Colour\nGala,2031-05-01,red\n"), where="f")
    assert (("Colour",), {"title": "Gala", "start_date": "2031-05-01 00:00:00"}) == (
        found.ignored,
        {k: v for k, v in next(found.rows).fields.items() if k in ("title", "start_date")},
    )


def test_a_mapping_reads_another_layout() -> None:
    """``--map "When=start_date"`` reads the column ``When`` as the start date."""
    fields = _fields(
        "What,When\nGala,2031-05-01\n", mapping={"What": "title", "When": "start_date"}
    )
    assert ("Gala", "2031-05-01 00:00:00") == (fields["title"], fields["start_date"])


def test_a_mapping_to_no_column_is_refused() -> None:
    """Mapping to a field the kind lacks names the columns there are."""
    with pytest.raises(InvalidParameter, match="'colour' \\(for 'Hue'\\) is no event column"):
        layout(["Hue"], "event", mapping={"Hue": "colour"})


def test_a_full_row_becomes_create_arguments() -> None:
    """Every column of the reference's layout lands on its field, values trimmed."""
    header = (
        "Event Name,Event Description,Event Excerpt,Event Start Date,Event Start Time,"
        "Event End Date,Event End Time,All Day Event,Event Timezone,"
        "Hide Event From Event Listings,Event Sticky in Month View,Feature Event,"
        "Event Venue Name,Event Organizer Name(s) or ID(s),Event Show Map Link,Event Show Map,"
        "Event Cost,Event Currency Symbol,Event Currency Code,Event Currency Position,"
        "Event Category,Event Tags,Event Website"
    )
    row = (
        "Gala ,Big night,Short,11/19/2031,7:30 pm,11/19/2031,23:00,no,UTC+3:30,No,Yes,1,"
        'London ,"Jane, Bob",TRUE,FALSE,10,$,USD,prefix,"Music, Jazz ",evening,'
        "https://example.org/gala"
    )
    assert {
        "title": "Gala",
        "description": "Big night",
        "excerpt": "Short",
        "timezone": "UTC+3:30",
        "website": "https://example.org/gala",
        "start_date": "2031-11-19 19:30:00",
        "end_date": "2031-11-19 23:00:00",
        "all_day": False,
        "hide_from_listings": False,
        "sticky": True,
        "featured": True,
        "show_map_link": True,
        "show_map": False,
        "venue": [{"venue": "London"}],
        "organizer": [{"organizer": "Jane"}, {"organizer": "Bob"}],
        "categories": ["Music", "Jazz"],
        "tags": ["evening"],
        "cost": "$10",
    } == _fields(f"{header}\n{row}\n")


def test_organizers_by_ids() -> None:
    """Space- or comma-separated numbers are organizer ids, or names when no organizer has
    that id (which only the import engine can tell)."""
    fields = _fields('Event Name,Event Start Date,Organizers\nGala,2031-05-01,"4, 7 9"\n')
    assert [IdOrName("4"), IdOrName("7"), IdOrName("9")] == fields["organizer"]


def test_organizers_by_ids_and_names() -> None:
    """In a list of names, each number may be an id too."""
    fields = _fields('Event Name,Event Start Date,Organizers\nGala,2031-05-01,"3, Bob"\n')
    assert [IdOrName("3"), {"organizer": "Bob"}] == fields["organizer"]


@pytest.mark.parametrize(
    ("cells", "start", "end"),
    [
        ("2031-05-01,19:00,,", "2031-05-01 19:00:00", "2031-05-01 19:00:00"),
        ("2031-05-01,19:00,,22:00", "2031-05-01 19:00:00", "2031-05-01 22:00:00"),
        ("2031-05-01,19:00,2031-05-03,", "2031-05-01 19:00:00", "2031-05-03 00:00:00"),
        ("2031-05-01,19:00,2031-05-01,", "2031-05-01 19:00:00", "2031-05-01 19:00:00"),
        ("2031-05-01,,,", "2031-05-01 00:00:00", "2031-05-01 00:00:00"),
    ],
    ids=["no-end", "end-time-only", "end-date-only", "end-date-before-start", "date-only"],
)
def test_a_missing_end_is_filled_as_the_reference_fills_it(
    cells: str, start: str, end: str
) -> None:
    """End date defaults to the start's, end time to the start's; a filled end before the
    start is the start."""
    header = "Event Name,Event Start Date,Event Start Time,Event End Date,Event End Time"
    fields = _fields(f"{header}\nGala,{cells}\n")
    assert (start, end) == (fields["start_date"], fields["end_date"])


def test_a_bad_row_is_refused_with_every_bad_cell() -> None:
    """The refusal names each bad cell by its header, on the row's line."""
    rows = _rows("Event Name,Event Start Date,Feature Event\nGala,2031-05-01,\n,soon,maybe\n")
    assert (None, "line 3") == (rows[0].refused, rows[1].where)
    assert (
        "Event Name: empty; every event needs a name; Feature Event: 'maybe' is not a yes or "
        "no; write TRUE or FALSE (Yes/No, 1/0); Event Start Date: 'soon' is not a date; "
        "write it as 2014-11-19, 11/19/2014 or Apr 19, 2016"
    ) == rows[1].refused


def test_a_multi_line_cell_keeps_the_row_on_its_first_line() -> None:
    """A quoted description over two lines: the next row is named by its own first line."""
    rows = _rows('Event Name,Event Start Date,Event Description\nA,2031-05-01,"one\ntwo"\nB,x,\n')
    assert ["line 2", "line 4"] == [row.where for row in rows]


def test_the_default_key_is_title_and_start() -> None:
    """An event row is matched by its title (ignoring case) and start, as the reference does;
    an all-day event by its date alone."""
    timed, all_day = _rows(
        "Event Name,Event Start Date,Event Start Time,All Day Event\n"
        "Gala,2031-05-01,19:00,FALSE\nFair,2031-05-02,09:00,TRUE\n"
    )
    assert [
        "title+start:gala|2031-05-01 19:00:00",
        "title+start:fair|2031-05-02 00:00:00",
    ] == [default_key(timed), default_key(all_day)]


def test_a_key_column_keys_each_row() -> None:
    """``key="Ref"`` keys rows by that column, which is not reported as unknown; the key
    names the column as headers are matched, and the name as typed is its former form."""
    found = read_csv(
        io.BytesIO(b"Ref,Event Name,Event Start Date\nA-1,Gala,2031-05-01\n"), where="f", key="Ref"
    )
    row = next(found.rows)
    assert ((), "csv:ref:A-1", ("csv:Ref:A-1",)) == (found.ignored, row.key, row.former_keys)


def test_venue_rows() -> None:
    """A venue CSV: address lines joined, a US region is a state."""
    fields = _fields(
        "Venue Name,Venue Address,Venue Address 2,Venue City,Venue State/Province,Venue Country,"
        "Venue Zip,Venue Phone,Venue Website\n"
        "Hall,1 Main St,Suite 2,Austin,TX,US,78701,555,https://hall.example\n",
        kind="venue",
    )
    assert {
        "venue": "Hall",
        "address": "1 Main St Suite 2",
        "city": "Austin",
        "stateprovince": "TX",
        "state": "TX",
        "country": "US",
        "zip": "78701",
        "phone": "555",
        "website": "https://hall.example",
    } == fields


def test_organizer_rows() -> None:
    """An organizer CSV: name, email, website, phone."""
    fields = _fields(
        "Organizer Name,Organizer Email,Organizer Website,Organizer Phone\n"
        "Ann,ann@example.org,https://ann.example,555\n",
        kind="organizer",
    )
    assert {
        "organizer": "Ann",
        "email": "ann@example.org",
        "website": "https://ann.example",
        "phone": "555",
    } == fields


@pytest.mark.parametrize("separator", [";", "\t"], ids=["semicolon", "tab"])
def test_a_semicolon_or_tab_separated_file_reads_as_a_comma_separated_one(
    separator: str,
) -> None:
    """Excel writes ``;`` between cells in French or German locales, and ``,`` inside
    them (a decimal comma): the separator is the one that splits the header into known
    columns, and the cells keep their commas, quoted separators included."""
    header = separator.join(["Event Name", "Event Start Date", "Event Cost", "Event Category"])
    row = separator.join(["Gala", "2031-05-01 19:00", "10,50", f'"Jazz, Blues{separator}Soul"'])
    (found,) = _rows(f"{header}\n{row}\n")
    assert (None, "line 2") == (found.refused, found.where)
    assert {
        "title": "Gala",
        "start_date": "2031-05-01 19:00:00",
        "end_date": "2031-05-01 19:00:00",
        "cost": "10,50",
        "categories": ["Jazz", f"Blues{separator}Soul"],
    } == dict(found.fields)


def test_a_semicolon_separated_file_with_a_mapping_and_a_key() -> None:
    """Columns named by ``mapping`` and ``key`` count toward the separator too: a file
    whose headers are all the caller's own still splits on its semicolons."""
    found = read_csv(
        io.BytesIO(b"Ref;Was;Wann\nA-1;Gala;2031-05-01\n"),
        where="f.csv",
        mapping={"Was": "title", "Wann": "start_date"},
        key="Ref",
    )
    row = next(found.rows)
    assert ("csv:ref:A-1", "Gala") == (row.key, row.fields["title"])


def test_a_comma_separated_file_keeps_its_quoted_commas_and_semicolons() -> None:
    """A comma file stays one, whatever its cells hold: a header cell with a semicolon in it
    does not make the file a semicolon file, quoted commas stay in their cells."""
    (found,) = _rows(
        'Event Name,Event Start Date,"Notes; misc",Event Category\n'
        '"Gala; the big one",2031-05-01,x,"Jazz, Blues"\n'
    )
    assert ("Gala; the big one", ["Jazz", "Blues"]) == (
        found.fields["title"],
        found.fields["categories"],
    )


@pytest.mark.parametrize(
    ("data", "why"),
    [
        (b"", "the file is empty; a CSV import needs a header row first"),
        (b"Gala,2031-05-01\n", "no header row: no column names the event ('Event Name')"),
        (b"Event Name\n\xff\xfeGala\n", "line 2 is not UTF-8 text (byte 0xff)"),
        (b"Event Name\x00\x01\n", "line 1 holds binary data (a NUL byte), not text"),
        (b'Event Name,Event Start Date\n"Gala,2031', "line 2: unexpected end of data"),
        (b"Event Name\n" + b"x" * 100 + b"\n", "line 2 is longer than 64 bytes; this is no CSV"),
    ],
    ids=["empty", "no-header", "encoding", "binary", "truncated", "long-line"],
)
def test_a_malformed_file_is_unreadable_with_one_line(data: bytes, why: str) -> None:
    """Each kind of broken file gets one sentence naming the problem."""
    with pytest.raises(UnreadableFile) as caught:
        list(read_csv(io.BytesIO(data), where="f.csv", max_line=64).rows)
    assert (True, 1) == (
        str(caught.value).startswith(f"f.csv: {why}"),
        len(str(caught.value).splitlines()),
    )


def test_a_date_cell_may_hold_a_time() -> None:
    """``2031-05-01 20:00`` in the start date column sets the start time too."""
    fields = _fields("Event Name,Event Start Date\nQuiz,5/1/2031 8:00 pm\n")
    assert ("2031-05-01 20:00:00", "2031-05-01 20:00:00") == (
        fields["start_date"],
        fields["end_date"],
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2031-05-01 8pm", time(20)),
        ("2031-05-01T20:00:00", time(20)),
        ("05/01/2031 8 PM", time(20)),
        ("2031-05-01 20:00:00.000", time(20)),
        ("May 1, 2031 8:15 pm", time(20, 15)),
        ("2031-05-01", None),
    ],
)
def test_a_date_cell_keeps_its_time(text: str, expected: time | None) -> None:
    """A date cell ending with a time, in any form a time cell takes, keeps that time."""
    assert (date(2031, 5, 1), expected) == read_moment(text)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("2031", "is not a whole date: it needs a year, a month and a day"),
        ("May 2031", "is not a whole date"),
        ("10", "is not a whole date"),
        ("3.5", "is not a whole date"),
        ("8pm May 1 2031", "holds a time where a date goes; write the time after it"),
    ],
)
def test_a_date_cell_that_is_not_a_whole_date_is_refused(text: str, why: str) -> None:
    """Never completed from today's date (a UTC offset is read: test_csv_date_offsets)."""
    with pytest.raises(BadValue, match=re.escape(why)):
        read_moment(text)


def test_a_row_with_a_partial_date_is_refused_alone() -> None:
    """The row's refusal names the cell; the other rows read as before."""
    rows = _rows("Event Name,Event Start Date\nA,May 2031\nB,2031-05-01 8pm\n")
    assert (
        "Event Start Date: 'May 2031' is not a whole date",
        "2031-05-01 20:00:00",
    ) == (str(rows[0].refused)[:48], rows[1].fields["start_date"])
