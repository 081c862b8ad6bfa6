"""The generator as a schema author uses it: drift check, regeneration, and schema lint errors."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from codegen.cache import CACHE_DIR, Cache
from codegen.generate import build, read_tree, write_tree
from codegen.lint import lint
from codegen.load import load_schemas
from codegen.warm import WarmVerifier
from tests.codegen_cli import codegen_scratch, run_codegen

ROOT = Path(__file__).parent.parent


@pytest.fixture
def repo(tmp_path: Path, codegen_cache: Path) -> Path:
    """A scratch copy of what codegen reads and writes, with a warm cache."""
    return codegen_scratch(tmp_path, codegen_cache)


def edit_schema(root: Path, file: str, change: Callable[[dict[str, Any]], None]) -> None:
    path = root / "schemas" / "docent" / file
    doc = json.loads(path.read_text())
    change(doc)
    path.write_text(json.dumps(doc, indent=2) + "\n")


def test_check_passes_on_the_committed_tree_with_any_hash_seed() -> None:
    for seed in ("1", "2"):
        proc = run_codegen(ROOT, "generate", "--check", env={"PYTHONHASHSEED": seed})
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert "up to date" in proc.stdout


def test_edited_description_is_stale_until_regenerated(repo: Path) -> None:
    new = "Instructions for the model, set before the conversation starts."

    def change(doc: dict[str, Any]) -> None:
        doc["$defs"]["SystemMessage"]["description"] = new

    edit_schema(repo, "message.json", change)
    stale = run_codegen(repo, "generate", "--check")
    assert stale.returncode == 1
    assert "stale" in stale.stderr
    assert "+++ chatschema/docent/models/message.py" in stale.stdout
    assert "+++ chatschema/docent/typeddicts/message.py" in stale.stdout
    assert f"+    {new}" in stale.stdout
    assert "-    Instructions and context for the conversation." in stale.stdout

    assert run_codegen(repo, "generate").returncode == 0
    assert new in (repo / "chatschema/docent/models/message.py").read_text()
    assert new in (repo / "chatschema/docent/typeddicts/message.py").read_text()
    assert run_codegen(repo, "generate", "--check").returncode == 0


def test_added_optional_property_reaches_models_and_typeddicts(repo: Path) -> None:
    def change(doc: dict[str, Any]) -> None:
        doc["$defs"]["UserMessage"]["properties"]["priority"] = {
            "description": "How urgent the message is.",
            "type": "integer",
        }

    edit_schema(repo, "message.json", change)
    assert run_codegen(repo, "generate").returncode == 0
    probe = """
import typing
from pydantic import ValidationError
from chatschema.docent import UserMessage, parse_chat_message
from chatschema.docent.typeddicts import UserMessage as TD
assert UserMessage.model_fields["priority"].description == "How urgent the message is."
assert parse_chat_message({"role": "user", "content": "x", "priority": 2}).priority == 2
try:
    parse_chat_message({"role": "user", "content": "x", "priority": None})
except ValidationError:
    pass
else:
    raise AssertionError("absent-only property accepted null")
assert "priority" in TD.__optional_keys__
print("ok")
"""
    env = {**os.environ, "PYTHONPATH": str(repo)}
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, cwd=repo, check=False)
    assert proc.stdout.strip() == "ok", proc.stderr


BROKEN: dict[str, tuple[str, Callable[[dict[str, Any]], None], str]] = {
    "dangling-ref": (
        "message.json",
        lambda d: d["$defs"]["ChatMessage"]["oneOf"].__setitem__(2, {"$ref": "#/$defs/AssistantMesage"}),
        "schemas/docent/message.json: /$defs/ChatMessage/oneOf/2/$ref: dangling $ref '#/$defs/AssistantMesage'",
    ),
    "dangling-ref-other-file": (
        "message.json",
        lambda d: d["$defs"]["AssistantMessage"]["properties"]["tool_calls"]["items"].update(
            {"$ref": "tools.json#/$defs/ToolCall"}
        ),
        "schemas/docent/message.json: /$defs/AssistantMessage/properties/tool_calls/items/$ref: dangling $ref",
    ),
    "no-discriminator": (
        "parts.json",
        lambda d: d["$defs"]["Content"].pop("discriminator"),
        "schemas/docent/parts.json: /$defs/Content/oneOf: union without a discriminator hint",
    ),
    "duplicate-tag": (
        "parts.json",
        lambda d: d["$defs"]["ContentReasoning"]["properties"]["type"].update({"const": "text"}),
        "schemas/docent/parts.json: /$defs/Content/oneOf/1: tag value type='text' is used by branches 0 and 1",
    ),
    "tag-not-required": (
        "parts.json",
        lambda d: d["$defs"]["ContentText"]["required"].remove("type"),
        "schemas/docent/parts.json: /$defs/Content/oneOf/0: branch ContentText must list its tag 'type' in required",
    ),
    "type-without-description": (
        "tool.json",
        lambda d: d["$defs"]["ToolParam"].pop("description"),
        "schemas/docent/tool.json: /$defs/ToolParam/description: every type needs a description",
    ),
    "property-without-description": (
        "tool.json",
        lambda d: d["$defs"]["ToolCall"]["properties"]["view"].pop("description"),
        "schemas/docent/tool.json: /$defs/ToolCall/properties/view/description: every property needs a description",
    ),
    "mapping": (
        "citation.json",
        lambda d: d["$defs"]["CitationItem"]["discriminator"].update({"mapping": {}}),
        "schemas/docent/citation.json: /$defs/CitationItem/discriminator/mapping: no mapping",
    ),
    "wrong-id": (
        "tool.json",
        lambda d: d.update({"$id": "https://example.com/tool.json"}),
        "schemas/docent/tool.json: /$id: must be 'https://chatschema.dev/schemas/docent/tool.json'",
    ),
    "module-clashes-with-property": (
        "message.json",
        lambda d: d["$defs"]["AssistantMessage"]["properties"].update(
            {"tool": {"description": "A property named like the module tool.json.", "type": "string"}}
        ),
        "schemas/docent/message.json: /$defs/AssistantMessage/properties/tool_calls/items/$ref: module 'tool'",
    ),
    "not-a-schema": (
        "tool.json",
        lambda d: d["$defs"]["ToolInfo"].update({"required": "name"}),
        "schemas/docent/tool.json: /$defs/ToolInfo/required: not a valid 2020-12 schema: 'name' is not of type 'array'",
    ),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_lint_names_file_and_location(repo: Path, case: str) -> None:
    file, change, expected = BROKEN[case]
    edit_schema(repo, file, change)
    files, problems = load_schemas(repo)
    lines = [str(p) for p in problems + lint(files)]
    assert any(line.startswith(expected) for line in lines), lines


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            '{"$defs": {',
            "schemas/docent/tool.json: /: invalid JSON at line 1 column 12: Expecting property name enclosed in double quotes",
        ),
        ('{"$id": "a", "$id": "b"}', "schemas/docent/tool.json: /: invalid JSON: duplicate key '$id'"),
        ('{"$defs": {"X": {"minimum": NaN}}}', "schemas/docent/tool.json: /: invalid JSON: NaN is not JSON"),
    ],
)
def test_invalid_json_is_one_clear_line(repo: Path, text: str, expected: str) -> None:
    (repo / "schemas/docent/tool.json").write_text(text)
    _, problems = load_schemas(repo)
    assert [str(p) for p in problems] == [expected]


@pytest.mark.parametrize("command", [["lint"], ["generate"], ["generate", "--check"]], ids=" ".join)
def test_a_root_that_is_no_directory_is_one_line(tmp_path: Path, command: list[str]) -> None:
    a_file = tmp_path / "pyproject.toml"
    a_file.write_text("")
    for root, reason in ((tmp_path / "missing", "no such directory"), (a_file, "not a directory")):
        proc = run_codegen(root, *command)
        assert (proc.returncode, proc.stderr) == (2, f"python -m codegen: --root {root}: {reason}\n")
    hostile = run_codegen(tmp_path / "a\x1b[31m\nb", *command)
    assert (hostile.returncode, hostile.stderr) == (
        2,
        f"python -m codegen: --root {tmp_path}/a\\x1b[31m\\nb: no such directory\n",
    )


def test_broken_schema_fails_and_leaves_generated_untouched(repo: Path) -> None:
    before = read_tree(repo)
    edit_schema(repo, "parts.json", BROKEN["duplicate-tag"][1])
    edit_schema(repo, "tool.json", BROKEN["type-without-description"][1])
    proc = run_codegen(repo, "generate")
    assert proc.returncode == 1
    errors = proc.stderr.strip().splitlines()
    assert errors[-1] == "codegen: 2 schema problem(s); generated files left unchanged"
    assert errors[0].startswith("schemas/docent/parts.json: /$defs/Content/oneOf/1: tag value")
    assert errors[1].startswith("schemas/docent/tool.json: /$defs/ToolParam/description:")
    assert "Traceback" not in proc.stderr
    assert read_tree(repo) == before
    assert run_codegen(repo, "lint").returncode == 1


def test_cached_build_is_byte_identical_to_a_clean_one(repo: Path) -> None:
    def change(doc: dict[str, Any]) -> None:
        doc["$defs"]["SystemMessage"]["description"] = "Instructions for the model."

    edit_schema(repo, "message.json", change)
    assert run_codegen(repo, "generate").returncode == 0  # fills the cache
    cache = Cache(repo / CACHE_DIR)
    units = {p.name.rsplit("-", 1)[0] for p in (repo / CACHE_DIR).glob("*.json")}
    assert {"lint", "package-init", "patterns", "meta-docent-message"} <= units
    assert {f"{k}-{f}" for k in ("py", "ts", "js") for f in ("bridgic", "docent", "letta", "swarm")} <= units
    warm = build(repo, cache)
    assert warm == build(repo, None) == read_tree(repo)
    # a damaged entry is a miss, not a wrong tree
    for entry in (repo / CACHE_DIR).glob("py-docent-*.json"):
        entry.write_text("{not json", encoding="utf-8")
    assert build(repo, cache) == warm
    assert run_codegen(repo, "generate", "--check").returncode == 0


def test_a_schema_edit_rebuilds_only_its_family(repo: Path) -> None:
    """Only the edited family's units are built again, and of them only those the edit reaches: a
    description is in the Python package and the declarations, not in the validators (precompiled,
    or compiled at run time by the proof of the npm package) nor in any example's verdict; a type's
    constraints are in its TypedDict only as a check that it has some."""
    assert run_codegen(repo, "generate").returncode == 0

    def rebuilt(change: Callable[[dict[str, Any]], None]) -> list[str]:
        before = {p.name for p in (repo / CACHE_DIR).glob("*.json")}
        edit_schema(repo, "tool.json", change)
        assert run_codegen(repo, "generate").returncode == 0
        after = {p.name for p in (repo / CACHE_DIR).glob("*.json")}
        return sorted(name.rsplit("-", 1)[0] for name in after - before)

    def describe(doc: dict[str, Any]) -> None:
        doc["$defs"]["ToolInfo"]["description"] = "A tool the model may call."

    def constrain(doc: dict[str, Any]) -> None:
        doc["$defs"]["ToolInfo"]["properties"]["name"]["maxLength"] = 64

    def tighten(doc: dict[str, Any]) -> None:
        doc["$defs"]["ToolInfo"]["properties"]["name"]["maxLength"] = 32

    def reorder(doc: dict[str, Any]) -> None:
        properties = doc["$defs"]["ToolInfo"]["properties"]
        doc["$defs"]["ToolInfo"]["properties"] = dict(reversed(properties.items()))

    unchanged = ["lint", "meta-docent-tool", "py-docent", "ts-docent", "verified-docent"]
    # no generator run (datamodel-codegen, json-schema-to-typescript), no validator compiled, no
    # verdict checked again
    assert rebuilt(describe) == unchanged
    validators = ["dcg-models-docent", "js-docent", "validated-docent"]
    # the type's first constraint gives its TypedDict a check of the schema
    assert rebuilt(constrain) == sorted([*unchanged, *validators, "dcg-typeddicts-docent"])
    # a bound is in the models and the validators, in the TypedDicts' and the declarations' input
    # only as a statement in a description, which is a placeholder there
    assert rebuilt(tighten) == sorted([*unchanged, *validators])
    # the order of properties is the order ajv checks them in: new validators, the same verdicts
    generators = ["dcg-models-docent", "dcg-typeddicts-docent", "js-docent", "json2ts-docent"]
    assert rebuilt(reorder) == sorted([*unchanged, *generators])
    assert "maxLength" in (repo / "npm" / "esm" / "validators" / "docent.js").read_text(encoding="utf-8")
    assert build(repo, Cache(repo / CACHE_DIR)) == build(repo, None) == read_tree(repo)


def test_the_declarations_are_the_same_with_the_keywords_json2ts_never_reads_left_out(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The keywords left out of json-schema-to-typescript's input (so that a bound tightened compiles
    no declaration) change nothing it writes: a schema with every one of them builds the same tree
    with them given to the tool."""
    import codegen.typescript

    def change(doc: dict[str, Any]) -> None:
        info = doc["$defs"]["ToolInfo"]
        info["minProperties"], info["maxProperties"] = 1, 9
        props = info["properties"]
        props["name"].update(minLength=1, maxLength=64, pattern="^[a-z_]")
        props["created"] = {"description": "When.", "type": "string", "format": "date-time"}
        props["weight"] = {
            "description": "How much.", "type": "number", "minimum": 0, "maximum": 10, "exclusiveMinimum": -1, "exclusiveMaximum": 11,
            "multipleOf": 0.5,
        }  # fmt: skip
        props["tags"] = {"description": "Tags.", "type": "array", "items": {"type": "string"}, "uniqueItems": True}

    edit_schema(repo, "tool.json", change)
    dropped = codegen.typescript._NOT_READ_BY_JSON2TS
    assert all(f'"{key}"' in (repo / "schemas" / "docent" / "tool.json").read_text() for key in dropped)
    left_out = build(repo, None)
    monkeypatch.setattr(codegen.typescript, "_NOT_READ_BY_JSON2TS", frozenset())
    assert left_out == build(repo, None)


HOSTILE_DESCRIPTIONS = [
    "It's a tool.",
    'Say "hi".',
    'Ends with a quote"',
    'Holds """ three quotes and a \\ backslash \\"',
    "Two paragraphs.\n\n    The second, indented,\nand a last line.\n",
    "Trailing spaces  \n   \n  close a comment: */ \n",  # prettier keeps two (a Markdown line break)
    "* a list  \n* of two\n  - and a tag:\n@deprecated  ",
    "A\ttab.",
    "Code:\n\tindented by a tab\n  \t and by both",  # ruff refuses mixed indentation: expanded
    "Non-ASCII: é, 漢字, 😀, and a combining e\u0301.",
]
# a family with a description like this one is generated from the real text: it is tried alone
LIKE_A_PLACEHOLDER = "Looks like a placeholder: QzD0Z, 'QzD1Z'."


@pytest.mark.parametrize(
    "texts", [HOSTILE_DESCRIPTIONS, [LIKE_A_PLACEHOLDER]], ids=["hostile texts", "like a placeholder"]
)
def test_the_generators_output_is_the_same_with_descriptions_hidden_or_not(
    repo: Path, texts: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Descriptions are hidden from datamodel-codegen and json-schema-to-typescript and written back
    (codegen/descriptions.py): a description of any text is written exactly as each tool writes it
    from the real text. Each text describes a type of its own, at every place a description goes
    (two builds of every family for all the texts: a build per text took 11 times as long)."""
    import codegen.declarations
    import codegen.generator_output

    def change(doc: dict[str, Any]) -> None:
        for number, text in enumerate(texts):
            doc["$defs"][f"HostileText{number}"] = {
                "title": f"HostileText{number}",
                "description": text,
                "type": "object",
                "properties": {
                    "name": {"type": "string", "description": text},
                    "description": {"type": "string", "description": text + " " + text},
                    # a tuple whose items share a description gets an "Items:" line in its doc comment
                    "pair": {
                        "description": "Two numbers.",
                        "type": "array",
                        "prefixItems": [{"type": "number", "description": text}] * 2,
                        "items": False,
                    },
                },
            }

    edit_schema(repo, "tool.json", change)
    hidden = build(repo, None)
    monkeypatch.setattr(codegen.generator_output, "Placeholders", lambda: None)
    monkeypatch.setattr(codegen.declarations, "Placeholders", lambda _: None)
    assert hidden == build(repo, None)


def test_a_doc_comment_keeps_a_description_with_white_space_javascript_trims_differently() -> None:
    """prettier trims comment lines by JavaScript's white space: a description with other white
    space than spaces, tabs and line breaks is given to json-schema-to-typescript as it is."""
    from codegen.descriptions import Placeholders

    schema = {
        "properties": {n: {"description": f"a{s}"} for n, s in (("a", " \t\n"), ("b", "\u00a0"), ("c", "\ufeff"))}
    }
    hidden = Placeholders(True).hide(schema)["properties"]
    assert hidden["a"]["description"] != "a \t\n"
    assert [hidden[n]["description"] for n in "bc"] == ["a\u00a0", "a\ufeff"]
    assert Placeholders().hide(schema)["properties"]["b"]["description"] != "a\u00a0"


def test_a_placeholder_where_the_tools_writing_is_not_known_is_not_guessed_at() -> None:
    """Restoring returns None (the family is then generated from the real text) for a placeholder in
    a comment, cut short, or not made by this build; a docstring line and a literal are restored."""
    from codegen.descriptions import Placeholders

    hiding = Placeholders()
    placeholder = hiding.hide({"description": "It's here."})["description"]
    assert hiding.restore_python(f'    """\n    {placeholder}\n    """\nx = Field(description={placeholder!r})') == (
        '    """\n    It\'s here.\n    """\nx = Field(description="It\'s here.")'
    )
    for source in (f"# {placeholder}", f"x = '{placeholder[:-1]}'", "x = 'QzD999Z'"):
        assert hiding.restore_python(source) is None
        assert hiding.restore_typescript(source) is None


def test_generate_and_lint_need_only_the_codegen_requirements() -> None:
    """`nox -s generate` installs requirements/codegen.txt only: no hypothesis, no test harness."""
    probe = (
        "import sys\n"
        "for name in ('hypothesis', 'hypothesis_jsonschema', 'tests'):\n"
        "    sys.modules[name] = None  # importing any of them now fails\n"
        "from codegen.__main__ import main\n"
        "raise SystemExit(main(['lint']))\n"
    )
    proc = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr


def test_generate_checks_every_kind_of_example_and_names_the_file(repo: Path) -> None:
    """A stream example, a sample and a type example that no longer hold stop `generate`, even when
    no generated file changes and an earlier run had verified everything."""
    assert run_codegen(repo, "generate").returncode == 0  # verified once, remembered
    examples = repo / "schemas"
    stream = examples / "letta" / "examples" / "streams" / "cancelled_event.json"
    doc = json.loads(stream.read_text(encoding="utf-8"))
    doc["expected"]["done"] = not doc["expected"]["done"]
    stream.write_text(json.dumps(doc), encoding="utf-8")
    invalid = sorted((examples / "docent" / "examples" / "UserMessage" / "invalid").glob("*.json"))[0]
    invalid.write_text('{"role": "user", "content": "now valid"}', encoding="utf-8")
    sample = examples / "swarm" / "examples" / "ISwarmMessage" / "history.jsonl"
    sample.write_text(sample.read_text(encoding="utf-8").replace('"mode": "agent"', '"mode": "tool"'), encoding="utf-8")
    proc = run_codegen(repo, "generate")
    assert proc.returncode == 1
    lines = proc.stderr.splitlines()
    assert (
        f"  schemas/docent/examples/UserMessage/invalid/{invalid.name}: docent/UserMessage: this invalid example is valid under the new schema"
        in lines
    )
    assert "  schemas/letta/examples/streams/cancelled_event.json: the reassembly differs from `expected`" in lines
    assert "  schemas/letta/examples/streams/cancelled_event.json: npm: the reassembly differs from `expected`" in lines
    assert any(
        line.startswith("  schemas/swarm/examples/ISwarmMessage/history.jsonl: swarm/ISwarmMessage: a sample")
        for line in lines
    )
    assert lines[-1] == "codegen: generated files left unchanged"


@pytest.mark.parametrize(
    ("example", "data", "reason"),
    [
        ("swarm/examples/ITool/valid/a1_search_with_enum.json", b"\xff\xfe{", "'utf-8' codec can't decode byte 0xff"),
        ("swarm/examples/ITool/valid/a1_search_with_enum.json", b"", "Expecting value"),
        ("swarm/examples/ISwarmMessage/history.jsonl", b'{"role": "user"}\n{"role":\n', "Expecting value"),
        ("swarm/examples/ISwarmMessage/history.jsonl", b'{"a": NaN}\n', "NaN is not JSON"),
        ("swarm/examples/ITool/invalid/missing_type.json", b"\xff{", "'utf-8' codec can't decode byte 0xff"),
        ("letta/examples/streams/cancelled_event.json", b'{"events":', "Expecting value"),
    ],
)
def test_an_unreadable_example_is_one_line_naming_it(repo: Path, example: str, data: bytes, reason: str) -> None:
    (repo / "schemas" / example).write_bytes(data)
    proc = run_codegen(repo, "generate")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    first = proc.stderr.splitlines()[0]
    assert first.startswith(f"schemas/{example}: /: not a readable JSON example: ") and reason in first, first
    assert first.endswith("[examples]")


def test_every_unreadable_example_is_named_at_once(repo: Path) -> None:
    # they were found one at a time, after the packages were generated; an invalid example or a
    # stream was only a JSONDecodeError from the verification, naming no file
    broken = ["docent/examples/UserMessage/invalid/" + _first_file(repo, "docent/examples/UserMessage/invalid")]
    broken += [
        "letta/examples/streams/cancelled_event.json",
        "bridgic/examples/Message/valid/" + _first_file(repo, "bridgic/examples/Message/valid"),
    ]
    for example in broken:
        (repo / "schemas" / example).write_text("{", encoding="utf-8")
    proc = run_codegen(repo, "generate")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert [line.split(":")[0] for line in proc.stderr.splitlines()[:-1]] == sorted(f"schemas/{e}" for e in broken)
    assert proc.stderr.splitlines()[-1] == "codegen: 3 schema problem(s); generated files left unchanged"


def _first_file(repo: Path, folder: str) -> str:
    return sorted((repo / "schemas" / folder).iterdir())[0].name


def _verify_imports(tree: Path, families: str) -> list[str]:
    """The problems codegen/verify_tree.py reports for `tree` when it verifies `families` ("": all)."""
    env = {**os.environ, "PYTHONPATH": str(tree), "CHATSCHEMA_VERIFY_FAMILIES": families, "CHATSCHEMA_VERIFY_SKIP": ""}
    script = ROOT / "codegen" / "verify_tree.py"
    proc = subprocess.run(
        [sys.executable, "-P", str(script), str(tree), str(tree / "schemas")],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    return proc.stdout.splitlines()


def test_verify_imports_what_the_changed_families_can_break(tmp_path: Path) -> None:
    """A family's own modules and every shared module that names it are imported; another family's
    modules and shared modules that name none of the changed families were proven with the same files."""
    package = tmp_path / "chatschema"
    for folder in (package / "edited", package / "other"):
        folder.mkdir(parents=True)
    (package / "__init__.py").write_text('FAMILIES = ("edited", "other")\n')
    (package / "edited" / "__init__.py").write_text("")
    (package / "other" / "__init__.py").write_text("raise ImportError('other is broken')\n")
    (package / "uses_edited.py").write_text(
        "from chatschema import edited\nraise ImportError('needs a name edited lost')\n"
    )
    (package / "unrelated.py").write_text("raise ImportError('unrelated is broken')\n")
    only_edited = _verify_imports(tmp_path, "edited")
    assert len(only_edited) == 1 and "import chatschema.uses_edited failed" in only_edited[0]
    every = _verify_imports(tmp_path, "")
    assert [line.split(" failed")[0].split()[-1] for line in every] == [
        "chatschema.other",
        "chatschema.unrelated",
        "chatschema.uses_edited",
    ]


def _generator_run(folder: Path, schema: str) -> list[str]:
    """datamodel-codegen arguments for one schema file in `folder`."""
    folder.mkdir()
    (folder / "s.json").write_text(schema)
    return ["--input", str(folder), "--input-file-type", "jsonschema", "--output-model-type",
            "pydantic_v2.BaseModel", "--formatters", "builtin", "--output", str(folder / "out")]  # fmt: skip


@pytest.mark.parametrize("where", ["this process", "a warm process of its own"])
def test_every_generator_run_runs_and_a_failure_names_its_input(tmp_path: Path, where: str) -> None:
    from codegen.pythongen import PARALLEL_BYTES, run_all
    from codegen.warm import WarmGenerator

    padding = "x" * PARALLEL_BYTES  # two runs this large go to two forked workers
    good = [
        _generator_run(tmp_path / f"good{i}", json.dumps({"title": f"T{i}", "type": "object", "description": padding}))
        for i in range(2)
    ]
    broken = _generator_run(tmp_path / "broken", '{"title": "B", ')  # not JSON

    def run(runs: list[list[str]]) -> None:
        if where == "this process":
            run_all(runs)
            return
        generator = WarmGenerator()
        try:
            generator.run_all(runs)
        finally:
            generator.close()

    run(good)
    assert all((tmp_path / f"good{i}" / "out").exists() for i in range(2))
    with pytest.raises(RuntimeError, match=f"datamodel-codegen failed on {tmp_path / 'broken'}: "):
        run([*good, broken])


def test_verify_names_each_type_without_a_validator(tmp_path: Path) -> None:
    """The validators of a family are built together; when that fails, each type that has none is named."""
    package = tmp_path / "chatschema" / "edited"
    (package / "typeddicts").mkdir(parents=True)
    (tmp_path / "chatschema" / "__init__.py").write_text('FAMILIES = ("edited",)\n')
    types = "class NoSchema:  # a plain class: Pydantic has no validator for it\n    pass\n\nFine = int\n"
    (package / "__init__.py").write_text(types)
    (package / "typeddicts" / "__init__.py").write_text(types)
    probe = (
        "import sys, pathlib\n"
        f"sys.path.insert(0, {str(ROOT / 'codegen')!r})\n"
        "import verify_tree\n"
        "tree = pathlib.Path(sys.argv[1])\n"
        "print(verify_tree._validators(tree, 'edited', ['Fine', 'NoSchema']))\n"
        "print(verify_tree._validators(tree, 'edited', ['Fine']))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    proc = subprocess.run(
        [sys.executable, "-c", probe, str(tmp_path)], cwd=tmp_path, capture_output=True, text=True, env=env, check=False
    )
    assert proc.returncode == 0, proc.stderr
    failing, fine = proc.stdout.splitlines()
    assert "chatschema.edited.NoSchema: no validator:" in failing
    assert "chatschema.edited.typeddicts.NoSchema: no validator:" in failing
    assert "Fine" not in failing and fine == "[]"


def test_a_warm_generator_never_holds_up_the_exit() -> None:
    """Started and never closed (a build that failed early), or closed twice: the program still
    ends at once, and so does the generator's process."""
    probe = (
        "from codegen.warm import WarmGenerator\n"
        "left_open = WarmGenerator()\n"
        "closed = WarmGenerator()\n"
        "closed.close()\n"
        "closed.close()\n"
        "print(left_open._process.pid)\n"
    )
    proc = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    pid = int(proc.stdout)
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # gone (reaped by the program that started it)


def test_a_warm_generator_ended_during_its_warm_up_leaves_no_temporary_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A build that needs no generator run ends the warm process at once, often while it warms up
    in a temporary folder: the folder goes too (each such build used to leave one in /tmp)."""
    from codegen import pythongen
    from codegen.warm import WarmGenerator

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # the fork's temporary folder
    pythongen.warm_up.cache_clear()  # warmed up in this process, the fork would not warm up again
    generator = WarmGenerator()
    try:
        deadline = time.monotonic() + 120  # a bound on a hang, not a speed
        while not list(tmp_path.glob("chatschema-warm-*/warm.json")):
            assert time.monotonic() < deadline, "the warm-up never began"
            time.sleep(0.001)
    finally:
        generator.close()  # during the generator's run on warm.json
    assert list(tmp_path.iterdir()) == []


def test_the_warm_verifier_checks_the_staged_tree_and_reports_what_ends_it(tmp_path: Path) -> None:
    """The verifier forked before the build imports the staged package, never the checkout's (even
    from a process that imported it: this one), and a generated module that exits is a verdict, not
    a verifier gone silent."""
    importlib.import_module("chatschema")
    exiting = tmp_path / "exiting"
    (exiting / "chatschema").mkdir(parents=True)
    (exiting / "chatschema" / "__init__.py").write_text("raise SystemExit(3)\n", encoding="utf-8")
    # an exit with a message of many lines (one that could forge the output's lines) is still one line
    forging = tmp_path / "forging"
    (forging / "chatschema").mkdir(parents=True)
    message = "raise SystemExit('first\\ncodegen: wrote 0 of 0 generated files\\n' + 'x' * 100_000)\n"
    (forging / "chatschema" / "__init__.py").write_text(message, encoding="utf-8")
    for staging, expected in (
        (exiting, "the verification failed: SystemExit: 3"),
        (tmp_path / "empty", "imported chatschema from"),
        (forging, "the verification failed: SystemExit: first"),
    ):
        verifier = WarmVerifier()
        try:
            verifier.start(staging, ROOT / "schemas", {})
            problems = verifier.result()
        finally:
            verifier.close()
        assert len(problems) == 1 and problems[0].startswith(expected), problems
        assert "\n" not in problems[0]


def _alive(pid: int) -> bool:
    """Whether the process runs (a zombie, ended but not yet reaped, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8")
    except FileNotFoundError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads process states from /proc")
def test_the_forked_processes_end_when_the_build_is_killed() -> None:
    """A build killed outright (SIGKILL: no clean-up of its own runs) leaves no generator or verifier
    waiting for it for ever: they hold no end of its pipes, so its end is an end of input to them."""
    code = (
        "import time\n"
        "from codegen.warm import WarmGenerator, WarmVerifier\n"
        "generator, verifier = WarmGenerator(), WarmVerifier()\n"
        "print(generator._process.pid, verifier._process.pid, flush=True)\n"
        "time.sleep(600)\n"
    )
    build = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    assert build.stdout is not None
    pids = [int(pid) for pid in build.stdout.readline().split()]
    build.kill()
    build.wait()
    deadline = time.monotonic() + 120  # a bound on a hang, not a speed: they end within a second or two
    while any(_alive(pid) for pid in pids):
        assert time.monotonic() < deadline, f"still waiting for a killed build: {[p for p in pids if _alive(p)]}"
        time.sleep(0.05)


def test_the_staging_copy_goes_to_the_system_s_temporary_folder_when_the_cache_folder_is_taken(tmp_path: Path) -> None:
    """`.codegen-cache` may be a file (or the root read-only): the check still runs, in a scratch
    folder elsewhere, and the tree is written."""
    (tmp_path / CACHE_DIR).write_text("not a folder\n", encoding="utf-8")
    staged: list[Path] = []

    def look(staging: Path) -> None:
        staged.append(staging)
        assert (staging / "generated" / "note.json").read_text(encoding="utf-8") == "{}\n"

    write_tree(tmp_path, {"generated/note.json": b"{}\n"}, verify=look, current={})
    assert (tmp_path / "generated" / "note.json").read_bytes() == b"{}\n"
    assert staged and not staged[0].is_relative_to(tmp_path) and not staged[0].exists()
    assert (tmp_path / CACHE_DIR).read_text(encoding="utf-8") == "not a folder\n"
