"""The journal's storage: one SQLite file, its schema and forward migrations, and the errors a
file can give, said as bad input (exit 2) naming the file.

The file's schema version is `PRAGMA user_version`; `MIGRATIONS[v]` takes a file from version
v to v + 1, inside the transaction that writes the new version, so a file is at one version or
the next, never between. `PRAGMA application_id` marks the file as a journal of yimao, so that
another program's SQLite file is refused rather than written into. The file is in WAL mode
(readers never wait for a writer); every write is one `BEGIN IMMEDIATE` transaction (a writer
takes the write lock before it reads, so two writers queue instead of failing on an upgrade),
and a writer waits up to `BUSY_TIMEOUT` seconds for another.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from yimao.errors import YimaoError

APPLICATION_ID = 0x59694D6F  # "YiMo": this file is a journal of yimao
BUSY_TIMEOUT = 15.0  # seconds a writer waits for another before saying the file is locked
FILE_NAME = "journal.sqlite3"


class JournalError(YimaoError):
    """A journal that cannot be used (missing case, locked, read-only, corrupt, from a later
    yimao): bad input as far as the exit code goes, with a message naming the file."""


class Damaged(Exception):
    """A value in the file that yimao cannot have written (a stored document that does not
    decompress or read back): the file is corrupt, as when SQLite finds a damaged page."""


def journal_path(option: str | None = None) -> Path:
    """Where the journal is: `--journal PATH`, else YIMAO_JOURNAL (set and not empty), else the
    user's data directory (platformdirs: ~/.local/share/yimao/journal.sqlite3 on Linux). Always a
    file: an empty `--journal` and SQLite's name for a database in memory are refused, and the path
    is made absolute, so that no name is read by SQLite as anything but a file."""
    if option is not None:
        return _file(option, "--journal")
    env = os.environ.get("YIMAO_JOURNAL")
    if env:
        return _file(env, "YIMAO_JOURNAL")
    from platformdirs import user_data_dir

    return Path(user_data_dir("yimao", appauthor=False)) / FILE_NAME


def _file(given: str, where: str) -> Path:
    from yimao.errors import shown

    if not given.strip():
        raise JournalError(f"{where} is empty: give the journal's file", given, ("--journal cases.sqlite3",))
    if given.strip() == ":memory:":
        raise JournalError(f"{where} {shown(given)} is SQLite's name for a database in memory, which keeps nothing: give a file", given)
    if "\0" in given:
        raise JournalError(f"{where} {shown(given)} holds a NUL character, which no file name can", given)
    return Path(given).expanduser().absolute()


# --- the schema, version by version -------------------------------------------------------------


def _v1(db: sqlite3.Connection) -> None:
    """Version 1: cases (inputs as given, the resolved moment, the compressed document of the
    time of saving), their notes, and at most one outcome each."""
    db.execute(
        """CREATE TABLE cases (
            id INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused: a case number written down elsewhere stays that case's
            hash TEXT NOT NULL UNIQUE,             -- sha256 of the inputs, question and time of saving (import is idempotent by it)
            question TEXT,
            inputs TEXT NOT NULL,                  -- JSON: the request's fields as given (hex, date, tz, day_start, year, month, day, hour, use, topic, earth, moving)
            moment_utc TEXT,                       -- the resolved moment, ISO 8601; null when cast from pillars
            moment_local TEXT,
            conventions TEXT,                      -- JSON: the document's conventions (zone, its source, day start); null when cast from pillars
            hexagram TEXT NOT NULL,                -- the names, for listing and finding
            changed TEXT,
            use_spec TEXT,
            topic TEXT,
            yimao_version TEXT NOT NULL,
            schema_version INTEGER NOT NULL,       -- of the document stored
            saved_at TEXT NOT NULL,                -- UTC, to the microsecond
            document BLOB NOT NULL                 -- the cast's JSON document when saved, zlib-compressed
        )"""
    )
    db.execute(
        """CREATE TABLE notes (
            id INTEGER PRIMARY KEY,
            case_id INTEGER NOT NULL REFERENCES cases(id) ON DELETE CASCADE,
            text TEXT NOT NULL,
            written_at TEXT NOT NULL,
            UNIQUE (case_id, text, written_at)
        )"""
    )
    db.execute(
        """CREATE TABLE outcomes (
            case_id INTEGER PRIMARY KEY REFERENCES cases(id) ON DELETE CASCADE,
            verdict TEXT NOT NULL CHECK (verdict IN ('应', '不应', '部分')),
            note TEXT,
            date TEXT,
            recorded_at TEXT NOT NULL
        )"""
    )


def _v2(db: sqlite3.Connection) -> None:
    """Version 2, the casebook: tags; a question and notes that can be edited (the question as
    saved kept, since the content hash is of it); the pillars, for listing, filled from the
    stored documents."""
    db.execute(
        """CREATE TABLE tags (
            case_id INTEGER NOT NULL REFERENCES cases(id) ON DELETE CASCADE,
            tag TEXT NOT NULL COLLATE NOCASE,      -- as given, trimmed; Ab and ab are one tag (NOCASE folds ASCII)
            PRIMARY KEY (case_id, tag)
        )"""
    )
    db.execute("ALTER TABLE cases ADD COLUMN pillars TEXT")  # JSON: the document's pillars (year, month, day, hour)
    db.execute("ALTER TABLE cases ADD COLUMN asked TEXT")  # the question as saved, once it has been edited
    db.execute("ALTER TABLE cases ADD COLUMN question_edited_at TEXT")  # null: the question is as saved
    db.execute("ALTER TABLE notes ADD COLUMN edited_at TEXT")  # null: the note is as written
    for number, blob in db.execute("SELECT id, document FROM cases").fetchall():
        db.execute("UPDATE cases SET pillars = ? WHERE id = ?", (_stored_pillars(blob), number))


_PILLAR_KEYS = ("year", "month", "day", "hour")


def _stored_pillars(blob: bytes) -> str | None:
    """The pillars of a stored document as JSON; None when it does not read (a damaged document
    is said where it is read, by `show` and `stats`: a migration must not stop on it). Written
    here, not taken from `case`, so that this step stays what it was when it shipped."""
    import zlib

    import orjson

    try:
        z = zlib.decompressobj()
        doc = orjson.loads(z.decompress(blob, 4 << 20))  # (a document is some 60 KB; no more is inflated)
        pillars = doc["pillars"]
        if not all(isinstance(pillars[k], str | None) for k in _PILLAR_KEYS):
            return None
        return orjson.dumps({k: pillars[k] for k in _PILLAR_KEYS}).decode("utf-8")
    except (zlib.error, orjson.JSONDecodeError, TypeError, KeyError):
        return None


# MIGRATIONS[v] takes a file at version v to v + 1. Append; never edit a step that has shipped.
MIGRATIONS: list[Callable[[sqlite3.Connection], None]] = [_v1, _v2]


def current_version() -> int:
    return len(MIGRATIONS)


# --- errors -------------------------------------------------------------------------------------


def _said(e: BaseException, path: Path) -> JournalError:
    """What an error of SQLite or of the file system means for the journal at `path`."""
    where = str(path)
    if isinstance(e, OSError):
        return JournalError(f"cannot use the journal {where}: {e.strerror or e}", where)
    if isinstance(e, Damaged):  # before the tests of the text below: it quotes the file's content
        return _corrupt(where, str(e))
    code = _code(e)
    text = str(e)
    if code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED) or "locked" in text:
        return JournalError(f"the journal {where} is locked by another process (waited {BUSY_TIMEOUT:g} s): try again", where)
    if code == sqlite3.SQLITE_READONLY or "readonly" in text:
        return JournalError(f"the journal {where} is read-only ({text}): give a writable file with --journal or YIMAO_JOURNAL", where)
    if code in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB) or "not a database" in text or "malformed" in text:
        return _corrupt(where, text)
    if code == sqlite3.SQLITE_CANTOPEN:
        return JournalError(f"cannot open the journal {where} ({text}): is its directory there and writable?", where)
    if code == sqlite3.SQLITE_FULL:
        return JournalError(f"the journal {where} cannot grow: the disk is full", where)
    return JournalError(f"the journal {where} cannot be used ({text})", where)


def _corrupt(where: str, text: str) -> JournalError:
    return JournalError(
        f"the journal {where} is corrupt ({text}): restore it from a backup, or copy its cases out of a backup with "
        f"`yimao journal export --journal BACKUP > cases.jsonl` and `yimao journal import cases.jsonl`",
        where,
    )


@contextmanager
def guarded(path: Path, errors: tuple[type[BaseException], ...] = (sqlite3.Error, OSError, Damaged)) -> Iterator[None]:
    """Every use of the file inside: its errors said as `JournalError`s naming it."""
    try:
        yield
    except errors as e:
        raise _said(e, path) from None


# --- opening ------------------------------------------------------------------------------------


def connect(path: Path, *, create: bool) -> sqlite3.Connection | None:
    """The journal at `path`, migrated to the current version; None when it does not exist and
    `create` is false (a reading command writes nothing: a missing journal is an empty one)."""
    with guarded(path):
        if not create and not path.exists():
            return None
        if create:
            path.parent.mkdir(parents=True, exist_ok=True)
        db = _open(str(path))
        try:
            _check(db, path)
        except sqlite3.OperationalError as e:
            db.close()
            if create or _code(e) not in (sqlite3.SQLITE_READONLY, sqlite3.SQLITE_CANTOPEN):
                raise
            db = _open_read_only(path)  # a file, or a directory, this user cannot write: read it as it is
        except BaseException:
            db.close()
            raise
        try:
            if _version(db) < current_version():
                _use_wal(db)
                migrate(db, path)
        except BaseException:
            db.close()
            raise
        return db


def _use_wal(db: sqlite3.Connection) -> None:
    """Put the file in WAL mode (persistent: set once, by the first writer). The switch takes the
    file whole, and SQLite refuses it at once, without waiting, while another process holds a
    write lock (it does while it creates the tables): so it is tried again until the other is
    done, or another opener has switched it, within the same wait as any writer's."""
    deadline = time.monotonic() + BUSY_TIMEOUT
    pause = 0.001
    while db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
        try:
            db.execute("PRAGMA journal_mode = WAL")
        except sqlite3.OperationalError as e:
            if _code(e) != sqlite3.SQLITE_BUSY or time.monotonic() + pause > deadline:
                raise
            time.sleep(pause)
            pause = min(pause * 2, 0.05)


def _open(target: str, uri: bool = False) -> sqlite3.Connection:
    db = sqlite3.connect(target, timeout=BUSY_TIMEOUT, isolation_level=None, uri=uri)  # transactions are begun here, explicitly
    db.execute("PRAGMA foreign_keys = ON")
    return db


def _code(e: BaseException) -> int:
    return getattr(e, "sqlite_errorcode", 0) & 0xFF


def _open_read_only(path: Path) -> sqlite3.Connection:
    """The journal opened for reading alone. A file in WAL mode is read through its `-shm` index,
    which a reader must create when it is missing: where it cannot (a read-only directory), the
    file is read as immutable, which no other process can then be changing, since none can write
    beside it either. Writes through this connection fail as read-only (`_said`)."""
    from urllib.parse import quote

    for mode in ("mode=ro", "immutable=1"):
        db = _open(f"file:{quote(str(path))}?{mode}", uri=True)
        try:
            _check(db, path)
            return db
        except sqlite3.OperationalError as e:
            db.close()
            if mode == "immutable=1" or _code(e) not in (sqlite3.SQLITE_READONLY, sqlite3.SQLITE_CANTOPEN):
                raise
    raise AssertionError("unreachable")


def _version(db: sqlite3.Connection) -> int:
    return int(db.execute("PRAGMA user_version").fetchone()[0])


def _check(db: sqlite3.Connection, path: Path) -> None:
    """Refuse a file yimao did not write, or one a later yimao wrote. Read in one transaction:
    another process may be creating the journal, and its tables, version and mark appear at once."""
    db.execute("BEGIN")
    try:
        app = int(db.execute("PRAGMA application_id").fetchone()[0])
        version = _version(db)
        tables = int(db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0])
    finally:
        db.execute("COMMIT")
    if app != APPLICATION_ID and (app or version or tables):
        raise JournalError(f"{path} is an SQLite file but not a journal of yimao: give another --journal", str(path))
    if version > current_version():
        raise JournalError(
            f"the journal {path} has schema version {version}, written by a later yimao (this one reads up to {current_version()}): upgrade yimao",
            str(path),
        )


def migrate(db: sqlite3.Connection, path: Path, upto: int | None = None) -> None:
    """Take the file to version `upto` (the current one): each step in one transaction with its
    version, so that concurrent openers migrate once and a failed step leaves the file as it was."""
    target = current_version() if upto is None else upto
    while True:
        with writing(db):
            version = _version(db)  # read under the write lock: another process may have migrated
            if version >= target:
                return
            MIGRATIONS[version](db)
            db.execute(f"PRAGMA user_version = {version + 1}")
            db.execute(f"PRAGMA application_id = {APPLICATION_ID}")


@contextmanager
def writing(db: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One write transaction: all of it or nothing (an error, an interrupt, a killed process)."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        # SQLite has already rolled back on some errors (a full disk, an interrupt): a second
        # ROLLBACK would fail and its "no transaction is active" hide the error that happened.
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


@contextmanager
def opened(option: str | None, *, create: bool) -> Iterator[sqlite3.Connection | None]:
    """The journal named by `option` (`journal_path`), open for a command and closed after it,
    its errors said as `JournalError`s naming the file; None for a missing one when `create` is
    false."""
    path = journal_path(option)
    db = connect(path, create=create)
    try:
        with guarded(path, (sqlite3.Error, Damaged)):  # not OSError: inside, that is the output's (a reader gone, a full disk)
            yield db
    finally:
        if db is not None:
            db.close()
