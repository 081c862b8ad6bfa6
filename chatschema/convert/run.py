"""What every conversion into a Docent agent run shares: the checked input, the state built while
the messages are read, the tool calls, and the finished run, checked against its schema."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from chatschema import schemas
from chatschema._base import to_json_value
from chatschema.docent import AgentRun
from chatschema.jsontext import MAX_DEPTH, depth, refused

from .errors import ConversionError

RAW_ARGUMENTS = "__parse_error_raw_args"  # Docent's key for tool-call arguments that are not a JSON object


@dataclass
class Conversion:
    """What is built while the messages are read."""

    strict: bool
    messages: list[dict[str, Any]] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)  # records that are not messages, with their index
    set_aside: list[dict[str, Any]] = field(default_factory=list)
    functions: dict[str, str] = field(default_factory=dict)  # tool_call_id -> the function called

    def cannot(self, index: int | None, where: str, reason: str, value: Any) -> None:
        """An input with no counterpart: an error when strict, else kept in the run's metadata."""
        if self.strict:
            raise ConversionError(index, where, reason)
        # What is set aside is kept as it came, unchecked: it must still be something a valid run holds.
        unkept = refused(value)
        if unkept is not None:
            raise ConversionError(index, where, f"{reason}; cannot be set aside: {unkept[1]}")
        self.set_aside.append({"index": index, "field": where, "reason": reason, "value": value})

    def checked(self, raw: Any, schema: str, kind: str) -> list[dict[str, Any] | None]:
        """The messages as JSON (models dumped as they serialize), each valid under `schema`; an
        invalid one is an error when strict, else set aside (None in its place, so that indexes stay)."""
        if not isinstance(raw, list | tuple):
            raise ConversionError(None, "$", f"expected a list of {kind}s")
        messages: list[dict[str, Any] | None] = []
        for index, given in enumerate(raw):
            try:
                messages.append(to_json_value(given))
            except ValueError as exc:  # not JSON data: too deep, circular, or of a type JSON has not
                raise ConversionError(index, "$", f"not a {kind}: {exc}") from None
        for index, message in enumerate(messages):
            if schemas.is_valid(message, schema):  # the common case, without collecting errors
                continue
            first = schemas.violations(message, schema)[0]
            self.cannot(index, first.path, f"not a {kind}: {first.message}", message)
            messages[index] = None
        return messages

    def checked_part(self, given: Any, schema: str, where: str) -> Any | None:
        """One part of the input besides its messages (a LettaResponse's `stop_reason`), as JSON,
        if it is valid under `schema`; an invalid one is an error when strict, else set aside (None)."""
        kind = schema.split("/")[-1]
        try:
            value = to_json_value(given)
        except ValueError as exc:  # not JSON data (as for messages, an error even when lenient)
            raise ConversionError(None, where, f"not a {kind}: {exc}") from None
        if schemas.is_valid(value, schema):
            return value
        first = schemas.violations(value, schema)[0]
        self.cannot(None, where + first.path[1:], f"not a {kind}: {first.message}", value)
        return None

    def tool_call(
        self, call_id: str, function: str, arguments: dict[str, Any], error: str | None = None
    ) -> dict[str, Any]:
        """A Docent ToolCall (with its `parse_error`, if any), remembered so that its result can name
        the function."""
        self.functions[call_id] = function
        call = {"id": call_id, "function": function, "type": "function", "arguments": arguments}
        return call if error is None else {**call, "parse_error": error}

    def answered(self, call_id: str, index: int, where: str) -> str | None:
        """The function of the call a tool result answers; a result that answers none cannot be mapped."""
        function = self.functions.get(call_id)
        if function is None:
            self.cannot(index, where, f"{call_id!r} answers no tool call before it", call_id)
        return function

    def finish(self, family: str, run_metadata: dict[str, Any], name: str | None) -> AgentRun:
        """The agent run of one transcript holding the messages, checked against `docent/AgentRun`."""
        transcript: dict[str, Any] = {"messages": self.messages, "metadata": {}}
        if self.events:
            transcript["metadata"][family] = {"events": self.events}
        run: dict[str, Any] = {"transcripts": [transcript], "metadata": {family: run_metadata} if run_metadata else {}}
        if self.set_aside:
            run["metadata"]["chatschema"] = {"set_aside": self.set_aside}
        if name is not None:
            run["name"] = name
        # Each message is within the readers' depth, but the run nests it a few levels deeper: a run
        # that no reader takes is no valid run. (Everything in `run` was checked, so holds no cycle.)
        if depth(run) > MAX_DEPTH:
            raise ConversionError(
                None, "$", f"the Docent run is invalid: nesting too deep: more than {MAX_DEPTH} levels"
            )
        # The converter's own guarantee. The generated model says exactly what `docent/AgentRun` says
        # (the conformance suite holds them to it), at a fraction of the schema validator's time.
        try:
            return AgentRun.model_validate(run)
        except ValidationError as exc:
            error = exc.errors()[0]
            where = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error["loc"])
            raise ConversionError(None, where, f"the Docent run is invalid: {error['msg']}") from None


def json_arguments(text: str) -> tuple[dict[str, Any], str | None]:
    """Tool-call arguments given as JSON text, as Docent holds them: the object; or, when the text
    is not a JSON object, the text under Docent's raw-arguments key, with a parse error."""
    try:
        arguments = json.loads(text)
    except ValueError:
        arguments = None
    if isinstance(arguments, dict):
        return arguments, None
    return {RAW_ARGUMENTS: text}, "the arguments are not a JSON object"
