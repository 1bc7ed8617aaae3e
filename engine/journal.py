"""The journal that makes a long job resumable (`pyrope match --resume FILE`, jobs.py's runner).

A JSON-lines file: the first line fingerprints the job (whatever defines its tasks and the conditions
they run under), each later line records one finished task, appended and flushed as the task ends. A
run killed while writing leaves an incomplete last line: reading ignores it, appending cuts it off.
"""
from __future__ import annotations

import json
from typing import List

from .console import InputError


class Journal:
    """What a journal file holds: `header` (the fingerprint; {} for a new journal) and `records`."""

    def __init__(self, path: str):
        """Read `path` (nothing yet if it does not exist); InputError if it is not a journal."""
        self.path = path
        self.header: dict = {}
        self.records: List[dict] = []
        self.file = None
        try:
            with open(path, "rb") as handle:
                data = handle.read()
        except FileNotFoundError:
            data = b""
        except OSError as error:
            raise InputError(f"cannot read the journal {path!r}: {error.strerror}") from None
        self.length = data.rfind(b"\n") + 1         # after the last newline: an incomplete write
        for number, line in enumerate(data[:self.length].decode("utf-8", "replace").splitlines(), 1):
            try:
                entry = json.loads(line)
            except ValueError:
                entry = None
            if not isinstance(entry, dict):
                raise InputError(f"{path} is not a journal: line {number} is not a JSON object")
            if number == 1:
                self.header = entry
            else:
                self.records.append(entry)

    def check(self, fingerprint: dict, job: str = "match", remedy: str = "give another file to --resume") -> None:
        """Adopt `fingerprint` for a new journal; InputError naming what differs if it was begun with
        another (`job` names the kind of job in the message, `remedy` says what to do instead)."""
        fingerprint = json.loads(json.dumps(fingerprint))         # as it reads back (tuples become lists)
        if not self.header:
            self.header = fingerprint
            return
        differ = [key for key in {**self.header, **fingerprint} if self.header.get(key) != fingerprint.get(key)]
        if differ:
            raise InputError(f"{self.path} is the journal of another {job} (its {', '.join(differ)} "
                             f"{'differs' if len(differ) == 1 else 'differ'}): {remedy}")

    def open(self) -> None:
        """Open for appending; cut off an incomplete last line."""
        self.file = open(self.path, "a", encoding="utf-8")
        self.file.truncate(self.length)

    def append(self, record: dict) -> None:
        """Append a record and flush it. A new journal's header goes with its first record, so that a
        run that records nothing (an engine that does not start) leaves no header to bind the next."""
        text = json.dumps(record) + "\n"
        if self.length == 0:
            text = json.dumps(self.header) + "\n" + text
        self.file.write(text)
        self.file.flush()
        self.length += len(text.encode("utf-8"))

    def close(self) -> None:
        if self.file is not None:
            self.file.close()
            self.file = None
