"""The npm package for non-Python clients: TypeScript types, the schema files and an ajv `validate`.

Types come from json-schema-to-typescript (pinned in codegen/node/package-lock.json), which keeps
tagged unions and optional-vs-nullable apart. The validation entry point (codegen/typescript_runtime/)
is plain CommonJS with a hand-written `.d.ts`, so it runs in Node without a build step.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import threading
from pathlib import Path
from typing import Any

from .bundle import bundle, bundle_path, dump, index
from .escape import ts_comment
from .families import CLOSED_TS_FAMILIES
from .inventory import EXTENSION, Family
from .render import render, shipped_schema

NODE_DIR = Path(__file__).parent / "node"
TS_RUNTIME = Path(__file__).parent / "typescript_runtime"
PACKAGE_NAME = "chatschema"
# The runtime dependencies of the generated package: the same pins as codegen/node/package.json.
RUNTIME_DEPENDENCIES = ("ajv", "ajv-formats")

_DATA_KEYWORDS = {"const", "default", "enum", "examples"}
# A subschema with none of these keywords admits any JSON value; json-schema-to-typescript would
# make it an object type (it reads `default: null` and the like), so it becomes `unknown`.
_SHAPING_KEYWORDS = {
    "type", "$ref", "tsType", "const", "enum", "anyOf", "oneOf", "allOf",
    "properties", "items", "prefixItems", "additionalProperties",
}  # fmt: skip


def node_modules() -> Path:
    """Where the pinned Node tooling is installed."""
    return NODE_DIR / "node_modules"


def _lock_digest() -> str:
    return hashlib.sha256((NODE_DIR / "package-lock.json").read_bytes()).hexdigest()


def setup_node(force: bool = False) -> None:
    """Install the pinned Node tooling (`npm ci` in codegen/node) unless that exact lock file is installed."""
    stamp = node_modules() / ".chatschema-lock-sha256"
    if not force and stamp.is_file() and stamp.read_text(encoding="utf-8") == _lock_digest():
        return
    npm = shutil.which("npm")
    if npm is None:
        raise RuntimeError("npm not found: install Node.js 20 (with npm) to generate the TypeScript package")
    proc = subprocess.run(
        [npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"],
        cwd=NODE_DIR,
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"`npm ci` in {NODE_DIR} failed:\n{proc.stdout}{proc.stderr}")
    stamp.write_text(_lock_digest(), encoding="utf-8")


def node_executable() -> str:
    """The `node` on PATH; RuntimeError if there is none."""
    return _node()


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        raise RuntimeError("node not found: install Node.js 20 to generate the TypeScript package")
    return node


def _type_name(ref: str) -> str:
    return ref.rsplit("/", 1)[-1]


def _free_form_object(node: dict[str, Any]) -> bool:
    types = node.get("type")
    is_object = types == "object" or (isinstance(types, list) and "object" in types)
    shaped = {"properties", "additionalProperties", "patternProperties", "allOf", "oneOf", "anyOf", "$ref"}
    return is_object and not shaped.intersection(node)


def _ts_schema(node: Any) -> Any:
    """Replace each `$ref` to a named type with `tsType: <Name>`.

    json-schema-to-typescript declares every `$defs` entry once (unreachableDefinitions); a `$ref`
    with sibling keywords (a property's `description`) would otherwise become a numbered copy
    (`MessageContent1`, ...) of the type it points at.
    """
    if isinstance(node, dict):
        out: dict[str, Any] = {}
        if not _SHAPING_KEYWORDS.intersection(node):
            out["tsType"] = "unknown"
        if _free_form_object(node):
            # A free-form object is `{[k: string]: unknown}` in every family; in a closed family
            # json-schema-to-typescript would make it `{}`, which also admits strings and numbers.
            out["additionalProperties"] = True
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                out["tsType"] = _type_name(value)
            elif key in _DATA_KEYWORDS:
                out[key] = value
            elif key == "description" and isinstance(value, str):
                # json-schema-to-typescript pastes descriptions into /** */ comments as they are
                extension = node.get(EXTENSION)
                note = f"\n\nchatschema extension: {extension}" if isinstance(extension, str) else ""
                out[key] = ts_comment(value + note)
            elif key in ("properties", "$defs", "patternProperties") and isinstance(value, dict):
                out[key] = {name: _ts_schema(sub) for name, sub in value.items()}
            else:
                out[key] = _ts_schema(value)
        return out
    if isinstance(node, list):
        return [_ts_schema(item) for item in node]
    return node


def schema_map_name(family: str) -> str:
    """The generated interface mapping each type name of a family to its type, e.g. `DocentSchemas`."""
    return family.capitalize() + "Schemas"


def _flattened(family: Family, name: str, schema: dict[str, Any]) -> dict[str, Any]:
    """A type that extends others with `allOf` `$ref`s, as one object with every property restated.

    json-schema-to-typescript would emit `Base & ToolCallMessage1`, an intersection with a numbered
    helper interface; one interface is what a TypeScript user expects, and means the same.
    """
    parts = schema.get("allOf")
    if not isinstance(parts, list) or not all(isinstance(p, dict) and set(p) == {"$ref"} for p in parts):
        return schema
    required = family.required(name)
    properties = family.properties(name)
    flat = {k: v for k, v in schema.items() if k != "allOf"}
    flat["properties"] = properties
    flat["required"] = [p for p in properties if p in required]
    return flat


def ts_input(family: Family) -> dict[str, Any]:
    """The schema handed to json-schema-to-typescript for one family."""
    defs = {name: _flattened(family, name, schema) for name, schema in bundle(family)["$defs"].items()}
    return {
        "title": schema_map_name(family.name),
        "description": f"Every named type of the {family.name!r} family, by name.",
        "type": "object",
        "properties": {name: {"tsType": name} for name in defs},
        "required": list(defs),
        "additionalProperties": False,
        "$defs": {name: _ts_schema(schema) for name, schema in defs.items()},
    }


class TypeCompilation:
    """json-schema-to-typescript running in Node for some families, while the caller does other work."""

    def __init__(self, families: dict[str, Family]) -> None:
        self._result: tuple[str, str] | None = None
        self._proc: subprocess.Popen[str] | None = None
        self._thread: threading.Thread | None = None
        if not families:
            return
        setup_node()
        payload = {
            name: {"schema": ts_input(fam), "additionalProperties": name not in CLOSED_TS_FAMILIES}
            for name, fam in sorted(families.items())
        }
        proc = subprocess.Popen(
            [_node(), str(NODE_DIR / "json2ts.cjs")],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )
        self._proc = proc

        def talk() -> None:
            self._result = proc.communicate(json.dumps(payload))

        self._thread = threading.Thread(target=talk, daemon=True)
        self._thread.start()

    def result(self) -> dict[str, str]:
        """TypeScript declarations per family; RuntimeError if json-schema-to-typescript failed."""
        if self._proc is None or self._thread is None:
            return {}
        self._thread.join()
        out, err = self._result or ("", "")
        if self._proc.returncode != 0:
            raise RuntimeError(f"json-schema-to-typescript failed:\n{err}")
        declarations: dict[str, str] = json.loads(out)
        return declarations


def _pins() -> dict[str, str]:
    manifest = json.loads((NODE_DIR / "package.json").read_text(encoding="utf-8"))
    deps: dict[str, str] = manifest["dependencies"]
    return {name: deps[name] for name in RUNTIME_DEPENDENCIES}


def _package_json(version: str) -> str:
    manifest = {
        "name": PACKAGE_NAME,
        "version": version,
        "description": (
            "Generated by chatschema codegen from schemas/: do not edit. TypeScript types, JSON Schemas "
            "and an ajv validator for LLM chat messages and tool calls (docent, letta, bridgic, swarm)."
        ),
        "license": "MIT",
        "main": "index.js",
        "types": "index.d.ts",
        "files": [
            "index.js",
            "index.d.ts",
            "formats.js",
            "stream.js",
            "stream.d.ts",
            "types/",
            "schemas/",
            "README.md",
        ],
        "dependencies": _pins(),
    }
    return json.dumps(manifest, indent=2) + "\n"


def type_declarations(family: str, text: str) -> str:
    """A family's `types/<family>.d.ts`: json-schema-to-typescript's output under our header."""
    return (
        f"// Generated by chatschema codegen from schemas/{family}/ with json-schema-to-typescript: do not edit.\n"
        "// Edit the schema and run `nox -s generate`.\n\n"
    ) + text


def package_files(families: dict[str, Family], version: str, types: dict[str, str]) -> dict[str, str]:
    """Every file of the npm package, relative to generated/typescript/; `types` maps each family to
    its `types/<family>.d.ts` text."""
    files: dict[str, str] = {"package.json": _package_json(version)}
    for src in sorted(TS_RUNTIME.iterdir()):
        if src.is_file():
            files[src.name] = src.read_text(encoding="utf-8")
    for name, text in sorted(types.items()):
        files[f"types/{name}.d.ts"] = text
    for name, fam in sorted(families.items()):
        for f in fam.files:
            files[f"schemas/{name}/{f.name}"] = shipped_schema(name, f.name, f.contents)
        files[bundle_path(name)] = dump(bundle(fam))
    files["schemas/index.json"] = dump(index(families))
    names = {fam_name: sorted(fam.types) for fam_name, fam in sorted(families.items())}
    files["index.d.ts"] = render("typescript/index.d.ts.jinja2", families=names, map_name=schema_map_name)
    return files
