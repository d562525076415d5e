"""The cases in a journal file: saving, finding, noting, judging, deleting, importing. Each
function takes an open connection (`store.connect`); each write is one transaction.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any, BinaryIO, NamedTuple

import orjson

from yimao.errors import NotationError, YimaoError, shown
from yimao.journal.case import NO_VERDICT, Case, Note, Outcome, QuestionEdit, edited_later, now_utc, tag_key, tag_of, verdict_of
from yimao.journal.store import JournalError, writing

_COLUMNS = (
    "id, hash, question, inputs, moment_utc, moment_local, conventions, hexagram, changed, use_spec, topic, "
    "yimao_version, schema_version, saved_at, document, pillars, asked, question_edited_at"
)


# The highest number an imported case keeps (2**31 - 1): far more cases than anyone keeps, and
# far below SQLite's last row number, so that a number taken from a line never leaves the
# journal without numbers to give (AUTOINCREMENT fails for ever once it has given 2**63 - 1).
MAX_KEPT_NUMBER = 2**31 - 1
LAST_NUMBER = 2**63 - 1  # SQLite's last row number


class Saved(NamedTuple):
    number: int
    new: bool  # False: the journal held this cast already, and holds it once


def save(db: sqlite3.Connection, case: Case) -> Saved:
    """Store a case just cast and give its number. A cast saved again — the same request, read
    at the same moment, with the same question — is the case already kept, not a second one: a
    save whose output then failed (a closed stdout) can be retried without making a duplicate."""
    with writing(db):
        row = db.execute(
            "SELECT id FROM cases WHERE inputs = ? AND moment_utc IS ? AND question IS ? ORDER BY id LIMIT 1",
            (_json(case.inputs), case.moment_utc, case.question),
        ).fetchone()
        if row is not None:
            return Saved(int(row[0]), False)
        return Saved(*_insert(db, case))


def _insert(db: sqlite3.Connection, case: Case) -> tuple[int, bool]:
    """(number, whether it is new): inside a transaction."""
    row = db.execute("SELECT id FROM cases WHERE hash = ?", (case.hash,)).fetchone()
    if row is not None:
        return int(row[0]), False
    edit = case.question_edit
    number = _kept_number(db, case.id)
    if number is None and _given(db) >= LAST_NUMBER:
        raise JournalError(
            f"the journal has given its last case number ({LAST_NUMBER:,}, SQLite's last, held by case {LAST_NUMBER}): "
            "nothing saved. Move its cases into a new journal, where that case gets the next number: "
            "`yimao journal export > cases.jsonl` and `yimao journal import cases.jsonl --journal NEW`",
            LAST_NUMBER,
        )
    cursor = db.execute(
        f"INSERT INTO cases ({_COLUMNS}) VALUES ({', '.join('?' * 18)})",
        (
            number,
            case.hash,
            case.question,
            _json(case.inputs),
            case.moment_utc,
            case.moment_local,
            None if case.conventions is None else _json(case.conventions),
            case.hexagram,
            case.changed,
            case.use_spec,
            case.topic,
            case.yimao_version,
            case.schema_version,
            case.saved_at,
            case.document,
            None if case.pillars is None else _json(case.pillars),
            None if edit is None else edit.saved,
            None if edit is None else edit.at,
        ),
    )
    number = int(cursor.lastrowid or 0)
    _add_notes(db, number, case.notes)
    _add_tags(db, number, case.tags)
    if case.outcome is not None:
        _set_outcome(db, number, case.outcome)
    return number, True


def _kept_number(db: sqlite3.Connection, wanted: int | None) -> int | None:
    """The number a case brings (from an export) when the journal can give it: in
    1..MAX_KEPT_NUMBER and above every number the journal has given, so free and never a
    deleted case's (an export imported into an empty journal keeps its numbers); else None,
    for the next number."""
    if wanted is None or not 1 <= wanted <= MAX_KEPT_NUMBER:
        return None
    return wanted if wanted > _given(db) else None


def _given(db: sqlite3.Connection) -> int:
    """The highest number the journal has given (a deleted case's included)."""
    return int(
        db.execute(
            "SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'cases'), 0), coalesce((SELECT max(id) FROM cases), 0))"
        ).fetchone()[0]
    )


def _json(v: Any) -> str:
    return orjson.dumps(v).decode("utf-8")


def _add_notes(db: sqlite3.Connection, number: int, notes: Iterable[Note]) -> int:
    before = db.total_changes
    db.executemany(
        "INSERT OR IGNORE INTO notes (case_id, text, written_at, edited_at) VALUES (?, ?, ?, ?)",
        [(number, n.text, n.written_at, n.edited_at) for n in notes],
    )
    return db.total_changes - before


def _add_tags(db: sqlite3.Connection, number: int, tags: Iterable[str]) -> int:
    before = db.total_changes
    db.executemany("INSERT OR IGNORE INTO tags (case_id, tag) VALUES (?, ?)", [(number, t) for t in tags])  # (one of Ab and ab: the first)
    return db.total_changes - before


def _set_outcome(db: sqlite3.Connection, number: int, o: Outcome) -> None:
    db.execute(
        "INSERT OR REPLACE INTO outcomes (case_id, verdict, note, date, recorded_at) VALUES (?, ?, ?, ?, ?)",
        (number, o.verdict, o.note, o.date, o.recorded_at),
    )


# --- reading ------------------------------------------------------------------------------------


class Filter(NamedTuple):
    """What `journal list` keeps; None keeps all."""

    topic: str | None = None  # the book's topic: the cases saved under it or any word for it (`_spellings`)
    hexagrams: tuple[str, ...] | None = None  # full names: a case whose 本卦 or 之卦 is one of them
    pair: tuple[str, str] | None = None  # (本卦, 之卦) full names, for a NAME of the form 离之乾
    since: str | None = None  # YYYY-MM-DD, inclusive, on the cast's local date: a case cast from pillars has none, and is left out
    until: str | None = None
    search: str | None = None  # in the question, the notes and the outcome's note
    verdict: str | None = None  # 应, 不应, 部分, or 无 for no outcome yet
    tags: tuple[str, ...] = ()  # a case with every one of them


def cases(db: sqlite3.Connection | None, f: Filter | None = None, last: int | None = None) -> Iterator[Case]:
    """The cases kept by `f` (all by default), by number; with `last`, the last so many of them."""
    if db is None:
        return
    where, args = _where(db, f or Filter())
    query = f"SELECT {_COLUMNS} FROM cases {where} ORDER BY id"
    if last is not None:
        query = f"SELECT * FROM ({query} DESC LIMIT ?) ORDER BY id"
        args = [*args, last]
    rows = db.execute(query, args).fetchall()
    for row in rows:
        yield _case(db, row)


def _where(db: sqlite3.Connection, f: Filter) -> tuple[str, list[Any]]:
    terms: list[str] = []
    args: list[Any] = []
    if f.topic is not None:
        spellings = _spellings(db, f.topic)
        terms.append(f"topic IN ({', '.join('?' * len(spellings))})")
        args += spellings
    if f.hexagrams is not None:
        marks = ", ".join("?" * len(f.hexagrams))
        terms.append(f"(hexagram IN ({marks}) OR changed IN ({marks}))")
        args += [*f.hexagrams, *f.hexagrams]
    if f.pair is not None:
        terms.append("hexagram = ? AND changed = ?")
        args += list(f.pair)
    day = "substr(moment_local, 1, 10)"  # null for a case cast from pillars: no date filter keeps it
    if f.since is not None:
        terms.append(f"{day} >= ?")
        args.append(f.since)
    if f.until is not None:
        terms.append(f"{day} <= ?")
        args.append(f.until)
    if f.verdict == NO_VERDICT:
        terms.append("NOT EXISTS (SELECT 1 FROM outcomes WHERE case_id = cases.id)")
    elif f.verdict is not None:
        terms.append("EXISTS (SELECT 1 FROM outcomes WHERE case_id = cases.id AND verdict = ?)")
        args.append(f.verdict)
    for tag in f.tags:
        terms.append("EXISTS (SELECT 1 FROM tags WHERE case_id = cases.id AND tag = ?)")  # (the column's NOCASE)
        args.append(tag)
    if f.search is not None:
        # instr, not LIKE: a text of any length is a text (LIKE refuses a pattern over 50,000 bytes
        # as "too complex"), and no character is a wildcard. lower() folds ASCII, as LIKE did.
        found = "instr(lower({}), lower(?)) > 0"
        terms.append(
            f"({found.format('question')} OR EXISTS (SELECT 1 FROM notes WHERE case_id = cases.id AND {found.format('text')})"
            f" OR EXISTS (SELECT 1 FROM outcomes WHERE case_id = cases.id AND {found.format('note')}))"
        )
        args += [f.search] * 3
    return ("WHERE " + " AND ".join(terms)) if terms else "", args


def _spellings(db: sqlite3.Connection, topic: str) -> list[str]:
    """The topics stored that are `topic`: the canonical one, and the words a case saved before
    topics were stored canonical may hold (官司 for 词讼)."""
    from yimao.pipeline import book_topic

    found = [topic]
    for (stored,) in db.execute("SELECT DISTINCT topic FROM cases WHERE topic IS NOT NULL AND topic != ?", (topic,)):
        try:
            if book_topic(stored) == topic:
                found.append(stored)
        except YimaoError:
            pass
    return found


# The order of a case's notes, as `show` numbers them (1, 2 …) and `note --edit N` finds them.
_NOTE_ORDER = "ORDER BY written_at, id"


def _case(db: sqlite3.Connection, row: tuple[Any, ...]) -> Case:
    number = row[0]
    notes = tuple(Note(*n) for n in db.execute(f"SELECT text, written_at, edited_at FROM notes WHERE case_id = ? {_NOTE_ORDER}", (number,)))
    o = db.execute("SELECT verdict, note, date, recorded_at FROM outcomes WHERE case_id = ?", (number,)).fetchone()
    tags = tuple(t for (t,) in db.execute("SELECT tag FROM tags WHERE case_id = ? ORDER BY tag", (number,)))
    (
        number,
        case_hash,
        question,
        inputs,
        moment_utc,
        moment_local,
        conventions,
        hexagram,
        changed,
        use_spec,
        topic,
        version,
        schema,
        saved_at,
        doc,
        pillars,
        asked,
        question_edited_at,
    ) = row
    return Case(
        number,
        case_hash,
        question,
        orjson.loads(inputs),
        moment_utc,
        moment_local,
        None if conventions is None else orjson.loads(conventions),
        hexagram,
        changed,
        use_spec,
        topic,
        version,
        schema,
        saved_at,
        doc,
        notes=notes,
        outcome=None if o is None else Outcome(*o),
        tags=tags,
        pillars=None if pillars is None else orjson.loads(pillars),
        question_edit=None if question_edited_at is None else QuestionEdit(asked, question_edited_at),
    )


def get(db: sqlite3.Connection | None, number: int) -> Case:
    """Case `number`; a `JournalError` when there is none."""
    db = _journal_of(db, number)
    row = db.execute(f"SELECT {_COLUMNS} FROM cases WHERE id = ?", (number,)).fetchone()
    if row is None:
        raise JournalError(f"no case {number} in the journal", number, _near(db, number))
    return _case(db, row)


def _journal_of(db: sqlite3.Connection | None, number: int) -> sqlite3.Connection:
    """The journal that should hold case `number`: a missing journal holds none."""
    if db is None:
        raise JournalError(f"no case {number}: the journal is empty", number)
    return db


def _near(db: sqlite3.Connection, number: int) -> tuple[str, ...]:
    rows = db.execute("SELECT id FROM cases ORDER BY abs(id - ?) LIMIT 3", (number,)).fetchall()
    return tuple(str(r[0]) for r in rows)


# --- writing ------------------------------------------------------------------------------------


def add_note(db: sqlite3.Connection | None, number: int, text: str) -> None:
    if not text.strip():
        raise NotationError("an empty note: give its text", text, ("yimao journal note 12 财在五爻",))
    db = _journal_of(db, number)
    with writing(db):
        get(db, number)
        _add_notes(db, number, [Note(text, now_utc())])


def set_outcome(db: sqlite3.Connection | None, number: int, verdict: str, note: str | None, date: str | None) -> None:
    """Record what happened (an outcome recorded again replaces the first)."""
    verdict = verdict_of(verdict)
    db = _journal_of(db, number)
    with writing(db):
        get(db, number)
        _set_outcome(db, number, Outcome(verdict, note, date, now_utc()))


def set_question(db: sqlite3.Connection | None, number: int, text: str) -> None:
    """Replace a case's question. The question as saved is kept beside it (the first time), so
    that the content hash, which is of it, still names the case: its export imports as the same."""
    if not text.strip():
        raise NotationError("an empty question: give its text", text, ("yimao journal question 12 今年可得财否",))
    db = _journal_of(db, number)
    with writing(db):
        if get(db, number).question == text:
            return
        db.execute(
            "UPDATE cases SET asked = CASE WHEN question_edited_at IS NULL THEN question ELSE asked END, question = ?, "
            "question_edited_at = ? WHERE id = ?",
            (text, now_utc(), number),
        )


def note_at(db: sqlite3.Connection | None, number: int, n: int) -> Note:
    """Note `n` of case `number` (1, 2 … as `show` numbers them)."""
    return _note_row(_journal_of(db, number), number, n)[1]


def _note_row(db: sqlite3.Connection, number: int, n: int) -> tuple[int, Note]:
    notes = get(db, number).notes
    if not 1 <= n <= len(notes):
        held = f"notes 1 to {len(notes)}" if len(notes) > 1 else "one note, 1" if notes else "no notes"
        raise NotationError(f"case {number} has no note {n}: it has {held} (journal show {number} lists them)", n)
    ids = db.execute(f"SELECT id FROM notes WHERE case_id = ? {_NOTE_ORDER}", (number,)).fetchall()
    return int(ids[n - 1][0]), notes[n - 1]


def edit_note(db: sqlite3.Connection | None, number: int, n: int, text: str) -> None:
    """Replace the text of note `n`; it keeps its place and time of writing, and says when it was edited."""
    if not text.strip():
        raise NotationError("an empty note: give its text, or delete it with --delete", text, (f"yimao journal note {number} --delete {n}",))
    db = _journal_of(db, number)
    with writing(db):
        row, note = _note_row(db, number, n)
        if note.text != text:
            db.execute("UPDATE notes SET text = ?, edited_at = ? WHERE id = ?", (text, now_utc(), row))


def delete_note(db: sqlite3.Connection | None, number: int, n: int, shown_as: Note | None = None) -> None:
    """Delete note `n`; with `shown_as` (the note a prompt showed), only while it is still that note."""
    db = _journal_of(db, number)
    with writing(db):
        row, note = _note_row(db, number, n)
        if shown_as is not None and note != shown_as:
            raise JournalError(f"note {n} of case {number} changed while you were asked: nothing deleted; look again with journal show {number}", n)
        db.execute("DELETE FROM notes WHERE id = ?", (row,))


def add_tags(db: sqlite3.Connection | None, number: int, tags: Iterable[str]) -> None:
    """Tag a case (`case.tag_of` tags); one it has already (in either case of ASCII letters) is kept as it is."""
    db = _journal_of(db, number)
    with writing(db):
        get(db, number)
        _add_tags(db, number, tags)


def remove_tags(db: sqlite3.Connection | None, number: int, tags: Iterable[str]) -> None:
    """Take tags off a case: all of them, or none when one is not on it."""
    db = _journal_of(db, number)
    with writing(db):
        held = get(db, number).tags
        keys = {tag_key(t) for t in held}
        for tag in tags:
            if tag_key(tag) not in keys:
                raise NotationError(f"case {number} has no tag {shown(tag)}", tag, held)
            db.execute("DELETE FROM tags WHERE case_id = ? AND tag = ?", (number, tag))


def delete(db: sqlite3.Connection | None, number: int) -> None:
    db = _journal_of(db, number)
    with writing(db):
        get(db, number)
        db.execute("DELETE FROM cases WHERE id = ?", (number,))  # its notes and outcome go with it (ON DELETE CASCADE)


class Imported(NamedTuple):
    added: int  # new cases
    present: int  # cases already in the journal (by hash)
    notes: int  # notes added to cases already present
    outcomes: int  # outcomes recorded on cases already present that had none
    tags: int = 0  # tags added to cases already present
    edits: int = 0  # questions and notes of cases already present given the line's later edit


def import_cases(db: sqlite3.Connection, incoming: Iterable[Case]) -> Imported:
    """Add the cases of an export, all in one transaction (a bad line leaves the journal as it
    was). A case already present gains the notes and tags it lacks, the outcome when it has none,
    and a question's or a note's text when the line's was edited later than its own."""
    done = Imported(0, 0, 0, 0)
    with writing(db):
        for case in incoming:
            number, new = _insert(db, case)
            if new:
                done = done._replace(added=done.added + 1)
            else:
                done = _merge(db, number, case, done._replace(present=done.present + 1))
    return done


def _merge(db: sqlite3.Connection, number: int, case: Case, done: Imported) -> Imported:
    """What a line adds to case `number`, which the journal holds already (inside the import's transaction)."""
    notes, edits = _merge_notes(db, number, case.notes)
    outcomes = 0
    if case.outcome is not None and db.execute("SELECT 1 FROM outcomes WHERE case_id = ?", (number,)).fetchone() is None:
        _set_outcome(db, number, case.outcome)
        outcomes = 1
    e = case.question_edit
    kept = db.execute("SELECT question_edited_at FROM cases WHERE id = ?", (number,)).fetchone()[0]
    if e is not None and edited_later(e.at, kept):
        db.execute("UPDATE cases SET question = ?, asked = ?, question_edited_at = ? WHERE id = ?", (case.question, e.saved, e.at, number))
        edits += 1
    return done._replace(
        notes=done.notes + notes, outcomes=done.outcomes + outcomes, tags=done.tags + _add_tags(db, number, case.tags), edits=done.edits + edits
    )


def _merge_notes(db: sqlite3.Connection, number: int, notes: Iterable[Note]) -> tuple[int, int]:
    """(notes added, notes edited): a note is the one written at the same time (its text may have
    been edited since, here or there: the later edit is kept); one the case lacks is added."""
    added = edited = 0
    for n in notes:
        rows = db.execute("SELECT id, text, edited_at FROM notes WHERE case_id = ? AND written_at = ? ORDER BY id", (number, n.written_at)).fetchall()
        if any(text == n.text for _, text, _ in rows):
            continue
        if not rows:
            added += _add_notes(db, number, [n])
        elif edited_later(n.edited_at, rows[0][2]):
            db.execute("UPDATE notes SET text = ?, edited_at = ? WHERE id = ?", (n.text, n.edited_at, rows[0][0]))
            edited += 1
    return added, edited


def make_filter(
    topic: str | None = None,
    hex: str | None = None,
    since: str | None = None,
    until: str | None = None,
    search: str | None = None,
    verdict: str | None = None,
    tags: Iterable[str] = (),
) -> Filter:
    """A `Filter` from the options of `journal list`: `topic` a topic or a word read as one (官司
    as 词讼); `hex` a hexagram (either side of a case) or a pair 离之乾; dates YYYY-MM-DD; a
    verdict or 无; tags as `journal tag` takes them."""
    from yimao.hexagram import Cast, Hexagram
    from yimao.pipeline import book_topic

    topic = None if topic is None else book_topic(topic)
    hexagrams = pair = None
    if hex is not None:
        c = Cast.parse(hex)
        if c.changed is not None:
            pair = (c.hexagram.name, c.changed.name)
        else:
            hexagrams = (Hexagram.parse(hex).name,)
    return Filter(
        topic,
        hexagrams,
        pair,
        parse_day(since, "--since"),
        parse_day(until, "--until"),
        search,
        None if verdict is None else verdict_of(verdict, none=True),
        tuple(tag_of(t) for t in tags),
    )


def parse_day(text: str | None, option: str) -> str | None:
    from datetime import date

    if text is None:
        return None
    try:
        return date.fromisoformat(text.strip()).isoformat()
    except ValueError:
        meant = _day_meant(text)
        raise NotationError(f"{option} must be a date YYYY-MM-DD, got {shown(text)}", text, () if meant is None else (meant,)) from None


def _day_meant(text: str) -> str | None:
    """The date a text written otherwise names (2026/1/5, 2026.1.5, 2026年1月5日, 2026-1-5) in the
    form a date is given, 2026-01-05; None when its numbers make no date."""
    import re
    from datetime import date

    parts = re.fullmatch(r"\s*(\d{4})\D{1,2}(\d{1,2})\D{1,2}(\d{1,2})\D?\s*", text, re.ASCII)
    if parts is None:
        return None
    try:
        return date(*map(int, parts.groups())).isoformat()
    except ValueError:
        return None


# The longest line `journal import` reads, as `yimao batch` (batch.MAX_LINE_BYTES; a test checks
# they agree): a case's line is some 10 KB, its document compressed.
MAX_LINE_BYTES = 1 << 20


@contextmanager
def export_input(file: str) -> Iterator[BinaryIO]:
    """The lines of `journal export` to read: FILE, or standard input for -; a `NotationError`
    when it cannot be opened (before any journal is)."""
    import sys

    if file == "-":
        if sys.stdin is None:
            raise NotationError("standard input is closed: give the lines on it, or name a FILE", "-")
        yield sys.stdin.buffer
        return
    try:
        f = open(file, "rb")  # (closed below, once its lines are read)
    except OSError as e:
        raise NotationError(f"cannot read {file!r}: {e.strerror}", file) from None
    with f:
        yield f


def read_export(stream: BinaryIO, file: str) -> Iterator[Case]:
    """The cases of the `journal export` lines of `stream`, read one line at a time (memory stays
    flat, whatever the size of the file); a bad line is bad input naming `file` and its number."""
    from yimao.journal.case import from_export

    for n, line in _lines(stream, file):
        try:
            yield from_export(orjson.loads(line))
        except orjson.JSONDecodeError as e:
            raise NotationError(f"{file}, line {n}: not JSON ({e})", n) from None
        except YimaoError as e:
            raise NotationError(f"{file}, line {n}: {e}", n) from None


def _lines(stream: BinaryIO, file: str) -> Iterator[tuple[int, bytes]]:
    """The non-blank lines of `stream`, numbered; a line longer than MAX_LINE_BYTES is refused
    without being read whole."""
    n = 0
    while True:
        try:
            line = stream.readline(MAX_LINE_BYTES + 2)  # room for the longest line and its "\r\n"
        except OSError as e:
            raise NotationError(f"cannot read {file!r}: {e.strerror}", file) from None
        if not line:
            return
        n += 1
        if len(line.rstrip(b"\r\n")) > MAX_LINE_BYTES:
            raise NotationError(f"{file}, line {n}: longer than {MAX_LINE_BYTES:,} bytes (a case's line is some 10 KB)", n)
        if line.strip():
            yield n, line
