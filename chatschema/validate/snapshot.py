"""Files that change while they are validated: one rule under any `--jobs`.

A regular file is validated as it was when it was opened: its first N bytes, N its size then. Lines
appended during the run are not read (the next run reads them); touching it changes nothing. If it
shrinks, or is deleted or replaced (another file under its name) before its last byte is read, the
run reports what it checked and stops with exit 2, the file and the change named in one line.
Bytes rewritten in place, keeping the size, are read as they are when each block is read. A file of
size 0 when opened is read to its end instead, as a pipe is (procfs and sysfs files say 0 and hold text).
"""

from __future__ import annotations

import os
import stat
from typing import BinaryIO


class FileChanged(OSError):
    """The file shrank, or was deleted or replaced, while it was validated."""


def identity(stream: BinaryIO) -> tuple[int, int]:
    """Which file `stream` reads: (device, inode)."""
    status = os.fstat(stream.fileno())
    return status.st_dev, status.st_ino


def changed(path: str, what: str) -> FileChanged:
    return FileChanged(f"{path}: changed while it was being validated ({what})")


class Snapshot:
    """A regular file opened for validation, read up to the size it had when opened (see the module)."""

    def __init__(self, stream: BinaryIO, path: str) -> None:
        self._stream = stream
        self.name = path
        status = os.fstat(stream.fileno())
        self.size = status.st_size
        self._left = status.st_size
        self._identity = status.st_dev, status.st_ino

    def read(self, size: int = -1) -> bytes:
        wanted = self._left if size < 0 else min(size, self._left)
        data = self._stream.read(wanted) if wanted else b""
        if len(data) < wanted:
            read = self.size - self._left + len(data)
            raise changed(self.name, f"{self.size:,} bytes when opened, it ended after {read:,}")
        self._left -= len(data)
        return data

    def tell(self) -> int:
        return self._stream.tell()

    def fileno(self) -> int:
        return self._stream.fileno()

    def close(self) -> None:
        self._stream.close()

    def check_still_there(self) -> None:
        """FileChanged if the file's name now leads to no file, or to another one."""
        try:
            status = os.stat(self.name)
        except FileNotFoundError:
            raise changed(self.name, "deleted") from None
        if (status.st_dev, status.st_ino) != self._identity or not stat.S_ISREG(status.st_mode):
            raise changed(self.name, "replaced by another file")
