"""Paths, glob patterns and fsspec URLs -> the files to validate, each with its file system and size."""

from __future__ import annotations

import glob
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import fsspec

from .blocks import FileSystem

_MAGIC = frozenset("*?[")


@dataclass(frozen=True)
class File:
    """One file to validate: its name in the output, where it is, and its size."""

    source: str
    fs: FileSystem
    path: str
    size: int


def _reason(exc: Exception) -> str:
    if isinstance(exc, FileNotFoundError):
        return "No such file or directory"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc) or type(exc).__name__


def expand(paths: Iterable[str], storage_options: Mapping[str, Any] | None = None) -> tuple[list[File], list[str]]:
    """The files the paths name, in the order given (glob matches sorted), and one error per path that failed.

    A local path keeps the name it was given (as the command prints it); a file a URL pattern
    matched is named by its full URL.
    """
    files: list[File] = []
    errors: list[str] = []
    for given in paths:
        try:
            fs, root = fsspec.core.url_to_fs(given, **(storage_options or {}))
            if not _MAGIC.intersection(given):
                matches = [(given, root)]
            elif "://" in given:
                matches = [(fs.unstrip_protocol(p), p) for p in sorted(fs.glob(root))]
            else:  # named as the shell would expand the pattern: relative stays relative
                matches = [(p, os.path.abspath(p)) for p in sorted(glob.glob(given))]
            if not matches:
                errors.append(f"cannot read {given}: no file matches the pattern")
        except Exception as exc:  # a bad URL, an unknown protocol, credentials, the network
            errors.append(f"cannot read {given}: {_reason(exc)}")
            continue
        for source, path in matches:
            try:
                info = fs.info(path)
                if info.get("type") == "directory":
                    raise IsADirectoryError(21, "Is a directory")
                files.append(File(source, fs, path, int(info["size"])))
            except Exception as exc:
                errors.append(f"cannot read {source}: {_reason(exc)}")
    return files, errors
