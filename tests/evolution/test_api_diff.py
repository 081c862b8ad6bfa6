"""Code-level changes: the generated Python API and TypeScript types of two versions of a family."""

from __future__ import annotations

from pathlib import Path

from release.evolution.api import MAJOR, MINOR, ApiChange, api_entries, compare_api

ROOT = Path(__file__).resolve().parents[2]

MODELS = '''
from pydantic import Field
from typing_extensions import TypeAliasType
from . import parts


class Msg(SchemaModel):
    """A message."""

    role: Literal["user"] = Field("user", description="Tag.")
    text: str = Field(..., description="The text.")
    n: int | None = Field(None, description="A count.")


class Old(SchemaModel):
    a: str = Field(..., description="A.")
    b: int | None = Field(None, description="B.")


Body = TypeAliasType("Body", Annotated[str | list[parts.Content], Field(..., description="A body.")])
'''
TYPEDDICTS = """
class Msg(TypedDict):
    role: Literal["user"]
    text: str
    n: NotRequired[int | None]
"""
INIT = '''
def parse_msg(data: Mapping[str, Any] | SchemaModel) -> Msg:
    """Parse."""


def _adapter() -> None:
    pass
'''
TS = """
/**
 * A message.
 */
export interface Msg {
  /** The text. */
  text: string;
  n?: number | null;
}
export type Body = string | Content[];
export interface EvoSchemas {
  Msg: Msg;
}
"""


def write(root: Path, models: str = MODELS, typeddicts: str = TYPEDDICTS, init: str = INIT, ts: str = TS) -> Path:
    package = root / "chatschema" / "evo"
    for rel, text in (("models/a.py", models), ("typeddicts/a.py", typeddicts), ("__init__.py", init)):
        (package / rel).parent.mkdir(parents=True, exist_ok=True)
        (package / rel).write_text(text, encoding="utf-8")
    (root / "npm" / "types").mkdir(parents=True, exist_ok=True)
    (root / "npm" / "types" / "evo.d.ts").write_text(ts, encoding="utf-8")
    return root


def changes(tmp: Path, **new: str) -> dict[str, ApiChange]:
    old = api_entries(write(tmp / "old"), "evo")
    after = api_entries(write(tmp / "new", **new), "evo")
    assert old is not None and after is not None
    return {c.what: c for c in compare_api("evo", old, after)}


def test_entries_of_the_generated_package() -> None:
    entries = api_entries(ROOT, "docent")
    assert entries is not None
    assert entries["function parse_chat_message"] == (
        "(data: Mapping[str, Any] | SchemaModel | UnknownVariant, *, unknown: Literal['error']='error') -> ChatMessage"
    )
    assert entries["function parse_chat_message (overload 2)"].endswith("-> ChatMessage | UnknownChatMessage")
    assert entries["Pydantic field ContentText.refusal"] == "bool | None = None"
    assert entries["TypedDict field ContentText.refusal"] == "NotRequired[bool | None]"
    assert "TypeScript interface ContentText" in entries and "TypeScript interface DocentSchemas" not in entries
    assert api_entries(ROOT, "no_such_family") is None


def test_descriptions_and_docstrings_are_not_changes(tmp_path: Path) -> None:
    models = MODELS.replace('description="The text."', 'description="Other words."').replace(
        '"""A message."""', '"""Hi."""'
    )
    assert changes(tmp_path, models=models, ts=TS.replace("The text.", "Other words.")) == {}


def test_module_moves_are_not_changes(tmp_path: Path) -> None:
    assert changes(tmp_path, models=MODELS.replace("parts.Content", "message.Content")) == {}


def test_removed_class_and_field_are_major(tmp_path: Path) -> None:
    found = changes(tmp_path, models=MODELS.replace('    n: int | None = Field(None, description="A count.")\n', ""))
    assert found["Pydantic field Msg.n"].change == "removed" and found["Pydantic field Msg.n"].bump == MAJOR
    gone = changes(tmp_path / "2", init="")
    assert gone["function parse_msg"].change == "removed" and gone["function parse_msg"].bump == MAJOR


def test_renamed_class_is_found(tmp_path: Path) -> None:
    found = changes(tmp_path, models=MODELS.replace("class Old(", "class New("))
    assert found["Pydantic class Old"].change == "renamed" and found["Pydantic class Old"].detail == "now New"
    assert set(found) == {"Pydantic class Old"}


def test_field_type_and_optionality(tmp_path: Path) -> None:
    found = changes(
        tmp_path, models=MODELS.replace("    n: int | None = Field(None", "    n: float | None = Field(None")
    )
    assert found["Pydantic field Msg.n"].change == "changed" and found["Pydantic field Msg.n"].bump == MAJOR
    looser = changes(
        tmp_path / "2",
        models=MODELS.replace('text: str = Field(..., description="The text.")', "text: str = Field('')"),
    )
    assert looser["Pydantic field Msg.text"].bump == MINOR  # required -> optional
    stricter = changes(tmp_path / "3", typeddicts=TYPEDDICTS.replace("NotRequired[int | None]", "int | None"))
    assert stricter["TypedDict field Msg.n"].bump == MAJOR


def test_added_fields(tmp_path: Path) -> None:
    optional = MODELS.replace(
        '    n: int | None = Field(None, description="A count.")',
        "    n: int | None = Field(None)\n    m: str | None = Field(None)",
    )
    assert changes(tmp_path, models=optional)["Pydantic field Msg.m"].bump == MINOR
    required = MODELS.replace(
        '    n: int | None = Field(None, description="A count.")',
        "    n: int | None = Field(None)\n    m: str = Field(...)",
    )
    assert changes(tmp_path / "2", models=required)["Pydantic field Msg.m"].bump == MAJOR
    new_class = MODELS + "\n\nclass Extra(SchemaModel):\n    m: str = Field(...)\n"
    found = changes(tmp_path / "3", models=new_class)
    assert found["Pydantic class Extra"].bump == MINOR and found["Pydantic field Extra.m"].bump == MINOR


def test_typescript_types(tmp_path: Path) -> None:
    found = changes(tmp_path, ts=TS.replace("n?: number | null;", "n: number;"))
    assert found["TypeScript interface Msg"].change == "changed" and found["TypeScript interface Msg"].bump == MAJOR
    gone = changes(tmp_path / "2", ts=TS.replace("export type Body = string | Content[];\n", ""))
    assert gone["TypeScript type Body"].change == "removed"


OVERLOADED = '''
@overload
def parse_msg(data: Mapping[str, Any] | SchemaModel | Unknown, *, mode: Literal["error"] = "error") -> Msg: ...
@overload
def parse_msg(data: Mapping[str, Any] | SchemaModel | Unknown, *, mode: Mode) -> Msg | UnknownMsg: ...
def parse_msg(data: Mapping[str, Any] | SchemaModel | Unknown, *, mode: Mode = "error") -> Msg | UnknownMsg:
    """Parse."""
'''


def test_an_overloaded_function_is_its_overloads_and_a_widened_one_is_minor(tmp_path: Path) -> None:
    found = changes(tmp_path, init=OVERLOADED)
    first = found["function parse_msg"]  # the form an old call selects: it takes every old call
    assert (first.change, first.bump) == ("changed", MINOR)
    assert first.detail.endswith(
        "(data: Mapping[str, Any] | SchemaModel | Unknown, *, mode: Literal['error']='error') -> Msg"
    )
    second = found["function parse_msg (overload 2)"]
    assert (second.change, second.bump) == ("added", MINOR) and second.detail.endswith("-> Msg | UnknownMsg")
    assert len(found) == 2  # the implementation after the overloads adds nothing


def test_a_signature_that_refuses_an_old_call_or_returns_otherwise_is_major(tmp_path: Path) -> None:
    breaking = {
        "narrowed": "def parse_msg(data: Mapping[str, Any]) -> Msg: ...",
        "renamed": "def parse_msg(payload: Mapping[str, Any] | SchemaModel) -> Msg: ...",
        "required keyword": "def parse_msg(data: Mapping[str, Any] | SchemaModel, *, mode: str) -> Msg: ...",
        "new positional": "def parse_msg(data: Mapping[str, Any] | SchemaModel, mode: str) -> Msg: ...",
        "return widened": "def parse_msg(data: Mapping[str, Any] | SchemaModel) -> Msg | None: ...",
    }
    for why, init in breaking.items():
        change = changes(tmp_path / why.replace(" ", "_"), init=init)["function parse_msg"]
        assert change.bump == MAJOR, why
    kept = "def parse_msg(data: Mapping[str, Any] | SchemaModel | bytes, *, strict: bool = True) -> Msg: ..."
    assert changes(tmp_path / "kept", init=kept)["function parse_msg"].bump == MINOR
