"""Local file systems that misbehave on purpose, for tests/test_dask.py (imported by the Dask workers too).

They reach the workers as pickled fsspec instances, so a worker started after another was killed
can unpickle them as well (this module must stay importable from the repository root).
"""

from __future__ import annotations

import os
import time
from typing import Any

from fsspec.implementations.local import LocalFileSystem


class HangOnceFileSystem(LocalFileSystem):  # type: ignore[misc]  # fsspec has no type information
    """`hangonce://`: the first open of a file named `*hang*` writes the process id to `marker` and
    then hangs until the process is killed; every later open (the retry) reads normally."""

    protocol = "hangonce"

    def __init__(self, marker: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.marker = marker

    def _open(self, path: str, mode: str = "rb", *args: Any, **kwargs: Any) -> Any:
        if "hang" in os.path.basename(path):
            try:
                fd = os.open(self.marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
            except FileExistsError:
                pass
            else:
                os.write(fd, str(os.getpid()).encode())
                os.close(fd)
                time.sleep(600)  # until the test kills this worker
        return super()._open(path, mode, *args, **kwargs)


class LockedFileSystem(LocalFileSystem):  # type: ignore[misc]
    """`locked://`: files named `*locked*` can be listed and sized, but opening them fails (on the worker)."""

    protocol = "locked"

    def _open(self, path: str, mode: str = "rb", *args: Any, **kwargs: Any) -> Any:
        if "locked" in os.path.basename(path):
            raise PermissionError(13, "Permission denied", path)
        return super()._open(path, mode, *args, **kwargs)
