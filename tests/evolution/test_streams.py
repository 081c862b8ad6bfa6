"""Streams judged as streams (item 4 of the evolution gate): an edit of Letta's stream grammar, or of
its frame types, is proven by a witness stream replayed through the Python and the TypeScript
readers of each version, each version built as `codegen generate` builds it."""

from __future__ import annotations

import datetime
import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from codegen.generate import build
from release.evolution.engine import FamilyReport, TypeReport, compare_snapshots
from release.evolution.findings import collect
from release.evolution.gate import Settings
from release.evolution.replay import READERS, replay
from release.evolution.rules import NARROWED, WIDENED
from release.evolution.source import DiffError, Snapshot, _load
from release.evolution.streams import judge_streams

from .schemasets import FAMILY, family_types, write

ROOT = Path(__file__).resolve().parent.parent.parent
GRAMMAR = Path("schemas/letta/grammars/LettaStreamingResponse.json")
STREAM = "LettaStreamingResponse (stream)"

Edit = Callable[[Path], None]


def _version(dest: Path, label: str, edit: Edit | None = None) -> Snapshot:
    """A version of the repository at `dest`: the schemas (edited), and the Python and npm packages
    built from them beside a copy of the hand-written runtime."""
    shutil.copytree(ROOT / "schemas", dest / "schemas")
    shutil.copy(ROOT / "pyproject.toml", dest / "pyproject.toml")
    if edit is not None:
        edit(dest)
    ignore = shutil.ignore_patterns("__pycache__", "node_modules")
    shutil.copytree(ROOT / "chatschema", dest / "chatschema", ignore=ignore)
    shutil.copytree(ROOT / "npm" / "esm", dest / "npm" / "esm", ignore=ignore)
    for rel, data in build(dest).items():
        if rel.startswith(("chatschema/", "npm/")):
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            (dest / rel).write_bytes(data)
    files, versions = _load(label, dest, str(dest))
    return Snapshot(label, dest, files, versions)


def _json_edit(rel: Path | str, change: Callable[[Any], None]) -> Edit:
    def edit(root: Path) -> None:
        path = root / rel
        data = json.loads(path.read_text(encoding="utf-8"))
        change(data)
        path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")

    return edit


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return _version(tmp_path_factory.mktemp("base"), "base")


def _compare(base: Snapshot, tmp: Path, edit: Edit) -> tuple[FamilyReport, TypeReport]:
    [report] = compare_snapshots(ROOT, base, _version(tmp, "edited", edit), ["letta"])
    return report, next(t for t in report.types if t.name == STREAM)


def _usage_before_stop(grammar: dict[str, Any]) -> None:
    """The terminal frame moves: the usage now comes first, and the stop reason ends the stream."""
    states = grammar["states"]
    states["open"]["next"] = {"message": "open", "ping": "open", "error": "open", "usage": "counted"}
    del states["stopped"]
    grammar["final"] = ["finished"]


def test_a_terminal_frame_that_moves_breaks_old_streams_in_new_readers(base: Snapshot, tmp_path: Path) -> None:
    report, stream = _compare(base, tmp_path, _json_edit(GRAMMAR, _usage_before_stop))
    assert stream.verdict == NARROWED
    kinds = {c.kind for c in stream.changes}
    assert {"stream-transition-removed", "stream-end-removed"} <= kinds
    [w] = stream.witnesses
    assert w.direction == NARROWED
    assert [f["message_type"] for f in w.payload] == ["stop_reason"]
    assert "replayed through the Python and TypeScript readers of both versions" in w.found_by
    assert w.rejected_because.startswith("by the readers of edited: stream truncated: it ends")
    # every frame type's own schema is unchanged: only the stream narrowed
    assert all(t.verdict == "unchanged" for t in report.types if t.name != STREAM)


def test_a_frame_that_becomes_required_at_the_end_is_said_by_both_readers(base: Snapshot, tmp_path: Path) -> None:
    _, stream = _compare(base, tmp_path, _json_edit(GRAMMAR, lambda g: g.update(final=["finished"])))
    assert stream.verdict == NARROWED
    assert [c.kind for c in stream.changes] == ["stream-end-removed"]
    [w] = stream.witnesses
    assert [f["message_type"] for f in w.payload] == ["stop_reason"]
    assert w.rejected_because == (
        "by the readers of edited: stream truncated: it ends in state 'stopped' of its grammar, not an end"
    )


def test_a_stream_that_may_end_without_its_stop_reason_is_widened(base: Snapshot, tmp_path: Path) -> None:
    """Found although the witness stream (one frame that is not the stop) leaves both grammars in
    their first state."""
    _, stream = _compare(base, tmp_path, _json_edit(GRAMMAR, lambda g: g["final"].append("open")))
    assert stream.verdict == WIDENED
    [w] = stream.witnesses
    assert len(w.payload) == 1 and w.payload[0]["message_type"] not in ("stop_reason", "usage_statistics")
    assert w.rejected_because.startswith("by the readers of base: stream truncated: it ends without a stop_reason")


def _heartbeat(root: Path) -> None:
    """A frame type added to the union, playing the ping's role in the grammar."""
    path = root / "schemas" / "letta" / "stream.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["$defs"]["LettaHeartbeat"] = {
        "title": "LettaHeartbeat",
        "description": "A keep-alive frame of a newer server.",
        "type": "object",
        "properties": {"message_type": {"description": "Frame tag.", "const": "heartbeat"}},
        "required": ["message_type"],
    }
    doc["$defs"]["LettaStreamingResponse"]["oneOf"].append({"$ref": "#/$defs/LettaHeartbeat"})
    path.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    _json_edit(GRAMMAR, lambda g: g["roles"]["ping"]["tags"].append("heartbeat"))(root)


def test_a_new_frame_type_breaks_old_readers_of_new_streams(base: Snapshot, tmp_path: Path) -> None:
    _, stream = _compare(base, tmp_path, _heartbeat)
    assert stream.verdict == WIDENED
    assert {c.kind for c in stream.changes} == {"stream-frame-added", "stream-frames-changed"}
    [w] = stream.witnesses
    assert "heartbeat" in [f["message_type"] for f in w.payload]
    assert w.rejected_because.startswith("by the readers of base: ")
    assert "not a valid letta/LettaStreamingResponse" in w.rejected_because


def test_a_description_of_the_grammar_changes_nothing(base: Snapshot, tmp_path: Path) -> None:
    _, stream = _compare(base, tmp_path, _json_edit(GRAMMAR, lambda g: g.update(description="Reworded.")))
    assert (stream.verdict, stream.witnesses, stream.notes) == ("unchanged", [], ["the grammar's descriptions changed"])


def test_a_stream_finding_points_at_the_grammar_line(base: Snapshot, tmp_path: Path) -> None:
    report, _ = _compare(base, tmp_path, _json_edit(GRAMMAR, _usage_before_stop))
    settings = {"letta": Settings(None, frozenset({"narrowed"}), False, "test")}
    found = collect([report], settings, False, [], datetime.date(2026, 1, 1))
    end = next(f for f in found if f.subject == f"letta/{STREAM}" and f.rule.id == "CS408")
    assert (end.file, end.pointer, end.fails) == (GRAMMAR.as_posix(), "/final", True)
    assert end.line is not None
    lines = report.grammar_files[STREAM].text.splitlines()
    assert lines[end.line - 1].lstrip().startswith('"final"')


def _small_stream(root: Path, final: list[str]) -> Path:
    """A family `evo` with a union U of frames a (a message) and b (the stop), its grammar and examples."""

    def frame(tag: str) -> dict[str, Any]:
        return {
            "type": "object",
            "description": f"Frame {tag}.",
            "properties": {"k": {"const": tag, "description": "Tag."}},
            "required": ["k"],
        }

    union: dict[str, Any] = {
        "type": "object",
        "description": "A frame.",
        "oneOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}],
        "discriminator": {"propertyName": "k"},
    }
    write(root, {"t.json": {"U": union, "A": frame("a"), "B": frame("b")}})
    grammar = {
        "description": "Messages, then the stop.",
        "union": "U",
        "tag": "k",
        "roles": {
            "message": {"description": "m", "tags": ["a"]},
            "stop": {"description": "s", "tags": ["b"]},
        },
        "start": "open",
        "states": {
            "open": {"description": "o", "next": {"message": "open", "stop": "end"}},
            "end": {"description": "e", "next": {}},
        },
        "final": final,
    }
    (root / "schemas" / FAMILY / "grammars").mkdir()
    (root / "schemas" / FAMILY / "grammars" / "U.json").write_text(json.dumps(grammar), encoding="utf-8")
    for tag in ("a", "b"):
        folder = root / "schemas" / FAMILY / "examples" / "U" / "valid"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{tag}.json").write_text(json.dumps({"k": tag}), encoding="utf-8")
    return root


def test_a_stream_without_readers_is_judged_by_its_grammars(tmp_path: Path) -> None:
    old, new = _small_stream(tmp_path / "old", ["end"]), _small_stream(tmp_path / "new", ["end", "open"])
    types = (family_types(old), family_types(new))

    def no_reader() -> Path:
        raise AssertionError("no reader to replay through")

    [report] = judge_streams(FAMILY, (old, new), types, [], (no_reader, no_reader), ("old", "new"))
    assert (report.name, report.verdict) == ("U (stream)", WIDENED)
    assert [c.kind for c in report.changes] == ["stream-end-added"]
    [w] = report.witnesses
    assert (w.payload, w.rejected_because) == ([{"k": "a"}], "the old grammar rejects it")
    assert w.found_by == "a stream of a (message); judged by the grammars"
    assert report.notes == ["evo/U has no stream readers to replay the witnesses through"]


def test_both_readers_refuse_alike_a_frame_given_a_role_they_cannot_keep(tmp_path: Path) -> None:
    """A grammar edited by hand past the generator (the stop and usage tags swapped in both shipped
    copies): the Python and the TypeScript reader say the same line."""
    ignore = shutil.ignore_patterns("__pycache__", "node_modules")
    shutil.copytree(ROOT / "chatschema", tmp_path / "chatschema", ignore=ignore)
    shutil.copytree(ROOT / "npm" / "esm", tmp_path / "npm" / "esm", ignore=ignore)
    shipped = tmp_path / "chatschema" / "schemas" / "letta" / "grammars" / "LettaStreamingResponse.json"
    grammar = json.loads(shipped.read_text(encoding="utf-8"))
    roles = grammar["roles"]
    roles["stop"]["tags"], roles["usage"]["tags"] = roles["usage"]["tags"], roles["stop"]["tags"]
    shipped.write_text(json.dumps(grammar), encoding="utf-8")
    meta = tmp_path / "npm" / "esm" / "validators" / "letta.meta.js"
    lines = meta.read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("export const grammars = "))
    shipped_js = json.loads(lines[at].removeprefix("export const grammars = ").removesuffix(";"))
    js_roles = shipped_js["LettaStreamingResponse"]["roles"]
    js_roles["stop"]["tags"], js_roles["usage"]["tags"] = js_roles["usage"]["tags"], js_roles["stop"]["tags"]
    lines[at] = f"export const grammars = {json.dumps(shipped_js)};"
    meta.write_text("\n".join(lines) + "\n", encoding="utf-8")
    usage = json.loads((ROOT / "schemas/letta/examples/LettaStreamingResponse/valid/l8_usage.json").read_text())
    reader = READERS[("letta", "LettaStreamingResponse")]
    (outcomes, _), note = replay((tmp_path, tmp_path), reader, [[usage]], ("edited", "edited"))
    assert note == ""
    assert outcomes == [("frame 0: a usage_statistics frame cannot play the role 'stop'",) * 2]


def test_without_node_the_python_readers_replay_and_the_report_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("release.evolution.replay.shutil.which", lambda name: None)
    stop = {"message_type": "stop_reason", "stop_reason": "end_turn"}
    reader = READERS[("letta", "LettaStreamingResponse")]
    (before, now), note = replay((ROOT, ROOT), reader, [[stop], []], ("a", "b"))
    assert note == "node not found: the witness streams were replayed through the Python readers only"
    assert (
        before
        == now
        == [(None, None), ("stream truncated: it ends without a stop_reason (or an error or a cancellation)",) * 2]
    )


def test_a_grammar_the_gate_cannot_read_is_one_line(tmp_path: Path) -> None:
    old, new = _small_stream(tmp_path / "old", ["end"]), _small_stream(tmp_path / "new", ["nowhere"])
    types = (family_types(old), family_types(new))
    with pytest.raises(DiffError) as caught:
        judge_streams(FAMILY, (old, new), types, [], (Path, Path), ("HEAD", "work tree"))
    assert caught.value.lines == ["work tree: schemas/evo/grammars/U.json: /final/0: no state 'nowhere' [grammar]"]


def test_a_grammar_removed_is_the_stream_removed(tmp_path: Path) -> None:
    old, new = _small_stream(tmp_path / "old", ["end"]), _small_stream(tmp_path / "new", ["end"])
    (new / "schemas" / FAMILY / "grammars" / "U.json").unlink()
    types = (family_types(old), family_types(new))
    [report] = judge_streams(FAMILY, (old, new), types, [], (Path, Path), ("old", "new"))
    assert (report.verdict, report.notes) == ("removed", ["the stream's grammar was removed"])
