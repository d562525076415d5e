"""The journal of casts (卦例): a practitioner's cases kept in one SQLite file — the question,
the cast's inputs as given and the document as it read — re-read, noted, judged and counted.

`store` owns the file (schema, migrations, errors), `case` the case as a value, `records` the
cases in a file, `stats` the counts by verdict. The only package that imports sqlite3.
"""
