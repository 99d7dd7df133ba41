"""The directory of one `foogo stats` run: its manifest, its chunk lines (each with a checksum,
checked on every read, fsynced on every write), its lock, and atomic writes of its reports."""

from __future__ import annotations

import hashlib
import json
import os
from typing import IO

from ..files import NotRegularFile, open_regular, write_whole
from .chunks import plan
from .request import StatsError

MANIFEST, CHUNKS, LOCK = "manifest.json", "chunks.jsonl", ".lock"
CODE_KEYS = ("fingerprint",)  # manifest entries that identify the code, not the request
MANIFEST_MAX_BYTES = 1 << 16  # a manifest is a few hundred bytes: a larger file is not one
CHUNK_LINE_MAX_BYTES = 1 << 15  # a chunk's line: a score histogram of at most 2 * 25 * 25 + 1 counts, with room
GAME_LINE_BYTES = 64  # and a self-play chunk's list of its games, [score, moves, ...] each: some 12-20 bytes


def line_limit(manifest: dict, count: int) -> int:
    """The most bytes the line of a chunk of `count` playouts or games can take."""
    return CHUNK_LINE_MAX_BYTES + (GAME_LINE_BYTES * count if manifest.get("mode") == "selfplay" else 0)


def _more(handle: IO[bytes], budget: int) -> bool:
    """Whether the rest of a file, read a block at a time up to `budget` bytes, holds more than white space."""
    while budget > 0 and (block := handle.read(min(budget, 1 << 16))):
        if block.strip():
            return True
        budget -= len(block)
    return False

class RunDir:
    """DIR of one run: manifest.json (what the run is), chunks.jsonl (one fsynced line per finished
    chunk), a lock so that two processes never append at once, and the reports."""

    def __init__(self, path: str):
        self.path = path
        self._lock: IO[bytes] | None = None

    def file(self, name: str) -> str:
        """The path of `name` inside DIR."""
        return os.path.join(self.path, name)

    def check(self, manifest: dict) -> bool:
        """True if DIR already holds this run, False if DIR is absent or empty; StatsError (nothing
        touched) if it holds another run, stray files, or a chunk file that does not fit the plan."""
        if not os.path.exists(self.path):
            return False
        if not os.path.isdir(self.path):
            raise StatsError(f"{self.path} exists and is not a directory")
        try:
            names = set(os.listdir(self.path))
        except OSError as error:
            raise StatsError(f"cannot read {self.path}: {error.strerror or error}") from None
        if not names:
            return False
        if MANIFEST not in names:
            raise StatsError(f"{self.path} is not empty and holds no {MANIFEST}: not a foogo stats run; "
                             "choose a new or empty directory")
        existing = self.stored_manifest()
        if existing != manifest:
            keys = sorted(set(existing) | set(manifest))
            diffs = [f"{key}: DIR has {existing.get(key)!r}, this command {manifest.get(key)!r}"
                     for key in keys if key not in CODE_KEYS and existing.get(key) != manifest.get(key)]
            if diffs:
                raise StatsError(f"{self.path} holds another run; use a new directory or the same "
                                 "arguments.\n  " + "\n  ".join(diffs))
            raise StatsError(f"{self.path} holds this run made by other code: foogo's playouts or search now "
                             "give different results than when it began, so its chunks cannot be mixed with "
                             "new ones; use a new directory (or the foogo version that began it)")
        self.load(manifest)  # raises on a chunk file that does not belong to this plan
        return True

    def holds_run(self) -> bool:
        """True if DIR is a directory with a manifest (whether it is a sound one is check's question)."""
        return os.path.isdir(self.path) and os.path.exists(self.file(MANIFEST))

    def stored_manifest(self) -> dict:
        """DIR's manifest as written; StatsError for a file that cannot be one (too large, not JSON,
        not an object with names)."""
        path = self.file(MANIFEST)
        try:
            with open_regular(path) as handle:
                data = handle.read(MANIFEST_MAX_BYTES + 1)
            if len(data) > MANIFEST_MAX_BYTES:
                raise ValueError(f"over {MANIFEST_MAX_BYTES} bytes")
            existing = json.loads(data)
        except (OSError, ValueError, RecursionError) as error:
            raise StatsError(f"cannot read {path}: {error}") from None
        if not isinstance(existing, dict):
            raise StatsError(f"{path} is not a foogo stats manifest (a JSON object)")
        return existing

    def create(self, manifest: dict) -> None:
        """Make DIR and write the manifest atomically (temp file + rename)."""
        try:
            os.makedirs(self.path, exist_ok=True)
        except OSError as error:
            raise StatsError(f"cannot make {self.path or repr(self.path)}: {error.strerror or error}") from None
        write_atomic(self.file(MANIFEST), json.dumps(manifest, indent=1, sort_keys=True) + "\n")

    def lock(self) -> None:
        """Take DIR's lock (released when the process ends, kill -9 included); StatsError if taken."""
        import fcntl

        try:  # never waits (files.open_regular): a FIFO there, with no reader, had blocked the open for ever
            handle = open_regular(self.file(LOCK), append=True)
        except NotRegularFile:
            raise StatsError(f"cannot lock {self.path}: {self.file(LOCK)} is not a regular file") from None
        except OSError as error:
            raise StatsError(f"cannot lock {self.path}: {error.strerror or error}") from None
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            raise StatsError(f"another foogo stats is running in {self.path}") from None
        self._lock = handle

    def unlock(self) -> None:
        """Release DIR's lock if this object holds it."""
        if self._lock is not None:
            self._lock.close()
            self._lock = None

    def load(self, manifest: dict, repair: bool = False) -> dict[tuple[int, int], dict]:
        """The finished chunks by (group, first). A torn last line (a write cut short by a kill or a
        power loss) is ignored, and cut off the file when `repair`; any other bad line, or a chunk
        that is not in the plan, raises StatsError. Read a line at a time, each at most as long as a
        chunk's line can be, the whole at most as long as the plan's lines and a torn one: the memory
        is the chunks', whatever the file holds."""
        path = self.file(CHUNKS)
        if not os.path.lexists(path):
            return {}
        expected = {(g, f): c for g, f, c in plan(manifest)}
        mark = run_mark(manifest)  # what each line of this run carries
        longest = max((line_limit(manifest, c) for c in expected.values()), default=CHUNK_LINE_MAX_BYTES)
        limit = sum(line_limit(manifest, c) for c in expected.values()) + longest  # a line a chunk, a torn one
        chunks: dict[tuple[int, int], dict] = {}
        good_end = position = 0
        try:
            with open_regular(path) as handle:
                if os.fstat(handle.fileno()).st_size > limit:
                    raise StatsError(f"{path} is larger than this run's {len(expected)} chunks could make it "
                                     f"({limit} bytes): not this run's file")
                number = 0
                while line := handle.readline(longest + 1):
                    number += 1
                    position += len(line)
                    if position > limit:  # it grew since
                        raise StatsError(f"{path} is larger than this run's {len(expected)} chunks could make it")
                    if not line.strip():
                        good_end = position
                        continue
                    try:
                        if not line.endswith(b"\n"):  # the file's end, or a line longer than a chunk's
                            raise ValueError("no newline")
                        record = json.loads(line)
                    except (ValueError, RecursionError):  # a line cut short, or bytes that are no JSON
                        if _more(handle, limit - position):
                            raise StatsError(f"{path}: line {number} is damaged and not the last one: nothing "
                                             "is summed (remove the line to recompute that chunk)") from None
                        break  # the torn tail of an interrupted write
                    problem = _problem(record, manifest, expected, mark)
                    if problem:  # a whole line that is wrong was altered, not cut short
                        raise StatsError(f"{path}: line {number} {problem}: nothing is summed (remove the "
                                         "line to recompute that chunk)")
                    key = (record["group"], record["first"])
                    if key in chunks and _essential(chunks[key]) != _essential(record):
                        raise StatsError(f"{path}: chunk {key} appears twice with different results")
                    chunks[key] = record
                    good_end = position
            if repair and good_end < position:  # position: where reading stopped, a torn tail included
                with open(path, "r+b") as handle:
                    handle.truncate(good_end)
                    handle.flush()
                    os.fsync(handle.fileno())
        except OSError as error:
            raise StatsError(f"cannot read {path}: {error.strerror or error}") from None
        return chunks

    def append(self, record: dict, manifest: dict) -> None:
        """Append one chunk record of the run `manifest` describes, marked with that run (run_mark) and with its
        checksum, as a line and fsync it before returning; StatsError (one line) if the disk refuses."""
        record = {**record, "run": run_mark(manifest)}
        line = json.dumps({**record, "sha": checksum(record)}, separators=(",", ":")) + "\n"
        try:
            with open(self.file(CHUNKS), "a") as handle:
                handle.write(line)
                handle.flush()
                os.fsync(handle.fileno())
        except OSError as error:
            raise StatsError(f"cannot write {self.file(CHUNKS)}: {error.strerror or error}") from None


def run_mark(manifest: dict) -> str:
    """The first 16 hex digits of the SHA-256 of the run's request (its manifest less CODE_KEYS): what each chunk
    line carries, so that a line of another run (another seed, komi or size, copied in) is refused, not summed
    as this one's. Lines written before the mark existed carry none and are read as before."""
    return _digest({k: v for k, v in manifest.items() if k not in CODE_KEYS})


def _digest(value) -> str:
    """The first 16 hex digits of the SHA-256 of `value` as canonical JSON (sorted keys, no spaces)."""
    return hashlib.sha256(json.dumps(value, sort_keys=True, separators=(",", ":")).encode()).hexdigest()[:16]


def _essential(record: dict) -> dict:
    return {k: v for k, v in record.items() if k not in ("seconds", "sha")}


def checksum(record: dict) -> str:
    """The first 16 hex digits of the SHA-256 of a record's essential fields as canonical JSON."""
    return _digest(_essential(record))


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _problem(record, manifest: dict, expected: dict, mark: str) -> str:
    """What is wrong with a chunk record read back ("" if nothing): its fields and types, its
    checksum, its run (`mark`: run_mark of the manifest, when the line carries one), its place in the plan,
    and every value against its range."""
    if not isinstance(record, dict):
        return "is not a chunk record"
    for name in ("group", "first", "count", "lo", "moves", "capped"):
        if not _is_int(record.get(name)):
            return f"has no whole-number {name!r}"
    counts = record.get("counts")
    if not isinstance(counts, list) or not all(_is_int(c) and c >= 0 for c in counts):
        return "has no list of non-negative counts"
    if record.get("sha") != checksum(record):
        return "fails its checksum"
    if "run" in record and record["run"] != mark:
        return "belongs to another run (another seed, komi, size or mode: its run mark differs)"
    key = (record["group"], record["first"])
    if expected.get(key) != record["count"]:
        return f"holds chunk {key} of {record['count']}, which is not in this run's plan"
    size = record["group"] if manifest["mode"] == "random" else manifest["size"]
    area = size * size
    if sum(counts) != record["count"] or (counts and (counts[0] == 0 or counts[-1] == 0)):
        return "has a histogram that does not add up to its count"
    if record["count"] and not (-area <= record["lo"] and record["lo"] + len(counts) - 1 <= area):
        return "has scores outside the board's area"
    if not (0 <= record["capped"] <= record["count"] and 0 <= record["moves"] <= 3 * area * record["count"]):
        return "has a move or cap count out of range"
    return ""


def write_atomic(path: str, text: str, binary: bytes | None = None) -> None:
    """Write a file whole (files.write_whole: a new file, flushed, renamed over the old): readers see the old
    or the new one, never a mix. StatsError if it cannot (a FIFO or a device where the file goes included)."""
    try:
        write_whole(path, binary if binary is not None else text.encode())
    except OSError as error:
        raise StatsError(f"cannot write {path}: {error.strerror or error}") from None
