"""The helpers behind the validation vocabulary, against the reference they must agree with.

- `multipleOf`: the project's rule (`chatschema.schemas.is_multiple`, the fast backend's keyword,
  npm's `keywords.js`) is python-jsonschema's, also where the quotient overflows a double;
- string lengths in code points and JSON equality in JavaScript, against Python's `len` and
  jsonschema's own `equal`;
- the generated check (`chatschema._rules`): what it accepts, how it says why not, and models
  built in Python code inside a payload;
- `chatschema._types.Integer`: JSON Schema's integers (1.0 is one).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Annotated, Any

import pytest
from jsonschema import Draft202012Validator
from jsonschema._utils import equal as reference_equal
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, with_config
from typing_extensions import TypedDict

import chatschema.letta as letta
from chatschema import schemas
from chatschema._base import TYPEDDICT_CONFIG
from chatschema._rules import conform, conformance, conforms_to
from chatschema._types import Integer
from chatschema.validate.backends import FAST_KEYWORDS, for_fast_backend
from tests.node import HERE, run_node

NPM = Path(__file__).parent.parent / "npm"
STRICT = ConfigDict(strict=True)  # as in every generated model and TypedDict
STEPS = [0.1, 0.01, 0.5, 1.5, 0.123456789, 1e-8, 2.5, 3, 7, 1]


def _values(rng: random.Random) -> list[float]:
    fixed = [0, 0.3, 0.07, 1.1, 4.5, 7.5, 1e308, -1e308, 1e21, 1e17, 5e-324, 2.0**53, 2.0**53 + 2, 0.0075]
    drawn = [rng.choice([1, -1]) * rng.uniform(0, 10) ** rng.choice([1, 3, 9]) for _ in range(300)]
    whole = [float(rng.randrange(-(10**6), 10**6)) * rng.choice([0.1, 0.01, 0.5, 1, 3]) for _ in range(300)]
    return fixed + drawn + whole


def _reference(value: Any, step: float) -> bool:
    return bool(Draft202012Validator({"multipleOf": step}).is_valid(value))


def test_is_multiple_is_jsonschemas_rule() -> None:
    values = _values(random.Random(25))
    pairs = [(v, s) for v in values for s in STEPS]
    assert [schemas.is_multiple(v, s) for v, s in pairs] == [_reference(v, s) for v, s in pairs]
    assert schemas.is_multiple(0.3, 0.1) is False  # 2.9999999999999996
    assert schemas.is_multiple(1e308, 0.5) is True  # the quotient overflows: exact
    assert schemas.is_multiple(1e308, 0.1) is False


def test_an_integer_beyond_a_double_is_judged_not_raised() -> None:
    """Plain jsonschema raises OverflowError on 10**400 with a fractional step; ours answer."""
    assert schemas.is_multiple(10**400, 0.5) is True
    assert schemas.is_multiple(10**400 + 1, 2) is False
    assert schemas.violations(10**400, "letta/UserMessage")  # an integer is no message: a verdict, no crash


def test_the_fast_backends_step_is_the_reference_rule() -> None:
    import jsonschema_rs

    for step in (0.1, 0.01, 0.5):
        check = jsonschema_rs.Draft202012Validator(for_fast_backend({"multipleOf": step}), keywords=FAST_KEYWORDS)
        for value in (0.3, 0.07, 0.5, 1e308, 3, True, "x"):
            assert check.is_valid(value) == _reference(value, step), (value, step)


def test_the_npm_helpers_agree_with_python() -> None:
    rng = random.Random(7)
    values = _values(rng)
    steps = [[v, s] for v in values for s in STEPS]
    # quotients that overflow toward a subnormal step: the exact rule reads the double's bits
    steps += [[1e300, 5e-324], [1e300, 1.5e-323], [3e300, 1.5e-323], [1e308, 2.2250738585072014e-308]]
    strings = ["", "a", "😀", "😀a", "e\u0301", "\ud800", "\udc00\ud800", "👨\u200d👩\u200d👧", "🇯🇵"]
    # the surrogate ranges' ends (U+10000, U+10FFFF), a low surrogate after a letter, a high one last
    strings += ["\U00010000", "\U0010ffff", "a\udc00", "\udbff", "\udbffa", "\udc00\udc00"]
    pairs: list[list[Any]] = [
        [1, 1.0],
        [[1], [1.0]],
        [{"a": 1, "b": [2]}, {"b": [2.0], "a": 1}],
        [1, True],
        [0, False],
        [None, {}],
    ]
    pairs += [[{"a": 1}, {"a": 1, "b": None}], [[1, 2], [2, 1]], ["1", 1], [{"x": {"y": []}}, {"x": {"y": []}}]]
    pairs += [[1, {}], [{}, 1], ["", []], [[], {}], [None, None], [{}, None]]
    out = run_node(HERE / "keywords.cjs", {"package": str(NPM), "steps": steps, "strings": strings, "pairs": pairs})
    assert out["multipleOf"] == [schemas.is_multiple(v, s) for v, s in steps]
    assert out["lengths"] == [len(s) for s in strings]
    assert out["equal"] == [bool(reference_equal(a, b)) for a, b in pairs]


def _user(**extra: Any) -> dict[str, Any]:
    return {"message_type": "user_message", "id": "message-1", "date": "2024-01-01T00:00:00Z", "content": "hi", **extra}


def test_conform_gives_the_data_back_or_says_where_and_why() -> None:
    payload = _user()
    assert conform(payload, "letta/UserMessage") is payload
    with pytest.raises(ValueError, match=r"^not a valid letta/UserMessage: \$\.content: "):
        conform(_user(content=5), "letta/UserMessage")


def test_conform_reads_models_built_in_python_as_their_json() -> None:
    delta = letta.ToolCallDelta(name="search")
    message = {**_user(), "message_type": "tool_call_message", "tool_call": delta}
    assert conform(message, "letta/ToolCallMessage") is message
    broken = letta.ToolCallDelta.model_construct(name=5)  # type: ignore[arg-type]  # unvalidated: invalid JSON
    with pytest.raises(ValueError, match=r"\$\.tool_call\.name: 5 is not of type"):
        conform({**message, "tool_call": broken}, "letta/ToolCallMessage")


def test_conform_reads_a_python_model_by_its_json_keys() -> None:
    class Delta(BaseModel):  # a field whose Python name is not its JSON key
        name_: str = Field(alias="name")

    message = {**_user(), "message_type": "tool_call_message", "tool_call": Delta(name="search")}
    assert conform(message, "letta/ToolCallMessage") is message  # as {"name": "search"}, not {"name_": ...}


def test_a_typeddict_and_an_alias_carry_the_check() -> None:
    @conforms_to("letta/UserMessage")
    @with_config(TYPEDDICT_CONFIG)
    class Loose(TypedDict, total=False):
        content: Any

    types: list[Any] = [Loose, Annotated[Any, conformance("letta/UserMessage")]]
    for tp in types:
        adapter: TypeAdapter[Any] = TypeAdapter(tp)
        assert adapter.validate_python(_user()) == _user()
        with pytest.raises(ValidationError, match="not a valid letta/UserMessage"):
            adapter.validate_python(_user(content=5))


@pytest.mark.parametrize(
    ("value", "expected"),
    [(1, 1), (1.0, 1), (-0.0, 0), (1e300, int(1e300)), (10**30, 10**30), (2.0**53 + 2, 2**53 + 2)],
)
def test_integer_takes_every_json_integer(value: Any, expected: int) -> None:
    parsed = TypeAdapter(Integer, config=STRICT).validate_python(value)
    assert parsed == expected and type(parsed) is int


@pytest.mark.parametrize("value", [1.5, True, "1", None, float("inf")])
def test_integer_refuses_what_is_no_integer(value: Any) -> None:
    with pytest.raises(ValidationError):
        TypeAdapter(Integer, config=STRICT).validate_python(value)


def test_conform_takes_a_payload_deeper_than_the_recursion_limit() -> None:
    deep: Any = "x"
    for _ in range(5000):
        deep = [deep]
    with pytest.raises(ValueError, match="not a valid letta/UserMessage"):
        conform(_user(content=deep), "letta/UserMessage")


def test_conform_takes_a_payload_that_holds_a_model_and_a_value_deeper_than_pydantic_core_dumps() -> None:
    """Models in a payload are dumped before the check, at any depth: valid stays valid, and a
    violation is still named, not taken for a failure to dump."""
    deep: Any = "y"
    for _ in range(300):
        deep = [deep]
    payload = _user(content=[letta.TextContent(text="hi")], extra=deep)
    assert conform(payload, "letta/UserMessage") is payload
    with pytest.raises(ValueError, match=r"^not a valid letta/UserMessage: \$\.date: "):
        conform({**payload, "date": "yesterday"}, "letta/UserMessage")


@pytest.mark.parametrize("validator", ["_DispatchValidator", "_VerdictValidator", "_CappedValidator"])
def test_the_projects_validators_judge_multiple_of_by_that_rule(validator: str) -> None:
    cls = getattr(schemas, validator)
    for step, value, valid in [
        (0.5, 10**400, True),
        (0.5, 0.25, False),
        (0.1, 0.3, False),
        (2, 4, True),
        (2, 5, False),
    ]:
        assert cls({"multipleOf": step}).is_valid(value) is valid, (step, value)
    assert cls({"multipleOf": 0.5}).is_valid("not a number")  # multipleOf applies to numbers only
    errors = list(cls({"multipleOf": 0.5}).iter_errors(0.25))
    assert [e.message for e in errors] == ["0.25 is not a multiple of 0.5"]
