"""The base of every generated model (chatschema._base.SchemaModel): JSON key names, and dumps of
payloads deeper than pydantic-core serializes."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import Field, ValidationError

from chatschema._base import SchemaModel


class Named(SchemaModel):
    """As the generator writes a property whose key is not a Python name (`class`)."""

    class_: str = Field(alias="class")


def test_an_aliased_field_is_read_by_its_json_key_only() -> None:
    assert Named.model_validate({"class": "x"}).class_ == "x"
    with pytest.raises(ValidationError) as caught:  # the Python name is no key of the schema's
        Named.model_validate({"class_": "x"})
    assert [e["type"] for e in caught.value.errors()] == ["missing"]
    both = Named.model_validate({"class": "x", "class_": 1})  # an unknown key, kept
    assert both.model_dump() == {"class": "x", "class_": 1}
    assert json.loads(both.model_dump_json()) == {"class": "x", "class_": 1}


def nested(levels: int, leaf: Any) -> Any:
    for _ in range(levels):
        leaf = [leaf]
    return leaf


def test_a_dump_deeper_than_pydantic_serializes_keeps_text_as_text() -> None:
    """Past 255 levels the JSON dump goes through the standard library: as Pydantic's, not ASCII-escaped."""
    model = Named.model_validate({"class": "é", "deep": nested(300, "déjà vu")})
    dumped = model.model_dump_json()
    assert "déjà vu" in dumped and '"class":"é"' in dumped and "\\u00e9" not in dumped
    assert json.loads(dumped) == {"class": "é", "deep": nested(300, "déjà vu")}
    assert model.model_dump(mode="json")["deep"] == nested(300, "déjà vu")
    assert "\\u00e9" in model.model_dump_json(ensure_ascii=True)  # as asked


class Old(SchemaModel):
    """As the generator writes a deprecated property."""

    old: int | None = Field(None, deprecated=True, description="Kept for old clients. Use `new`.")


def test_a_deprecated_field_warns_where_it_is_read_naming_its_replacement() -> None:
    model = Old.model_validate({"old": 1})
    with pytest.warns(DeprecationWarning) as caught:
        assert model.old == 1
    assert [str(w.message) for w in caught] == ["Old.old is deprecated; use `new` instead"]
    assert caught[0].filename == __file__  # the line that read it, not the descriptor's


def test_a_deprecation_names_only_a_replacement_in_backticks() -> None:
    from chatschema._base import deprecation_message

    assert deprecation_message("M", "k", "Use `` for nothing.") == "M.k is deprecated: Use `` for nothing."
