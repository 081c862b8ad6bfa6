"""The npm package for non-Python clients: TypeScript types, the schema files and precompiled validators.

Types come from json-schema-to-typescript (pinned in codegen/node/package-lock.json), which keeps
tagged unions and optional-vs-nullable apart. Validators are ajv standalone code, generated here
(codegen/node/standalone.cjs), so the package compiles nothing at run time. Every module is an ES
module under npm/esm/, where the hand-written runtime (core.js, stream.js, ...) lives beside the
generated modules. At the package root, each generated module has a CommonJS build (esbuild,
pinned) and each hand-written one a CommonJS entry that `require`s the ES module itself, so both
module formats run the one implementation that is edited.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
import threading
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from . import walk
from .bundle import bundle_path, dump, index
from .constraints import with_constraints
from .escape import ts_comment
from .layout import FAMILY_TS_MODULES, NPM_PACKAGE, REPO
from .model import FamilyModel
from .names import EXTENSION, ref_target_name
from .render import render, shipped_schema

NODE_DIR = Path(__file__).parent / "node"
# Families whose entry point has `fromSdk`, for values typed by their system's official SDK.
SDK_FAMILIES = frozenset({"letta"})
PACKAGE_NAME = "chatschema"
# What chatschema/ajv (createAjv) needs, an optional peer of the package from the pins in
# codegen/node/package.json on.
RUNTIME_DEPENDENCIES = ("ajv", "ajv-formats")
# The hand-written ES modules every build ships, and their declarations.
RUNTIME_MODULES = ("ajv.js", "core.js", "formats.js", "keywords.js")
DECLARATIONS = ("ajv.d.ts", "core.d.ts")
# Modules that ship only with their family (the Letta stream reassembly uses letta's validators).
FAMILY_MODULES = FAMILY_TS_MODULES


def _runtime_names(families: Iterable[str], suffix: str) -> list[str]:
    """The hand-written modules (suffix ".js") or declarations (".d.ts") shipped with these families."""
    base = RUNTIME_MODULES if suffix == ".js" else DECLARATIONS
    return [*base, *(FAMILY_MODULES[f] + suffix for f in sorted(families) if f in FAMILY_MODULES)]


# A subschema with none of these keywords admits any JSON value; json-schema-to-typescript would
# make it an object type (it reads `default: null` and the like), so it becomes `unknown`.
_SHAPING_KEYWORDS = {
    "type", "$ref", "tsType", "const", "enum", "anyOf", "oneOf", "allOf",
    "properties", "items", "prefixItems", "additionalProperties",
}  # fmt: skip


# Keywords json-schema-to-typescript never reads: scalar values it lists among the keys it does not
# walk (16.0.0's utils.js), and what they say reaches a declaration only in the description's
# statement of constraints (with_constraints). Left out of its input, so that the declarations are
# cached across an edit of them (codegen/declarations.py): a bound tightened compiles no declaration.
_NOT_READ_BY_JSON2TS = frozenset({
    "maxLength", "minLength", "pattern", "format", "minimum", "maximum", "exclusiveMinimum",
    "exclusiveMaximum", "multipleOf", "minProperties", "maxProperties", "uniqueItems",
})  # fmt: skip


def node_modules() -> Path:
    """Where the pinned Node tooling is installed."""
    return NODE_DIR / "node_modules"


def lock_digest() -> str:
    """The digest of the pinned Node tooling (codegen/node/package-lock.json)."""
    return hashlib.sha256((NODE_DIR / "package-lock.json").read_bytes()).hexdigest()


def setup_node(force: bool = False) -> None:
    """Install the pinned Node tooling (`npm ci` in codegen/node) unless that exact lock file is installed."""
    stamp = node_modules() / ".chatschema-lock-sha256"
    if not force and stamp.is_file() and stamp.read_text(encoding="utf-8") == lock_digest():
        link_node_modules(REPO / NPM_PACKAGE)
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
    stamp.write_text(lock_digest(), encoding="utf-8")
    link_node_modules(REPO / NPM_PACKAGE)


def link_node_modules(package: Path) -> None:
    """Give an npm package folder (npm/, or a scratch copy of it) the pinned tooling's node_modules,
    as an installed package has its dependencies: ES modules find `ajv` only by walking up folders."""
    link = package / "node_modules"
    if link.is_symlink() and link.resolve() == node_modules().resolve():
        return
    if link.is_symlink():
        link.unlink()
    if package.is_dir() and not link.exists():
        link.symlink_to(node_modules(), target_is_directory=True)


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


def _free_form_object(node: Mapping[str, Any]) -> bool:
    types = node.get("type")
    is_object = types == "object" or (isinstance(types, tuple | list) and "object" in types)
    shaped = {"properties", "additionalProperties", "patternProperties", "allOf", "oneOf", "anyOf", "$ref"}
    return is_object and not shaped.intersection(node)


def _ts_schema(schema: Any) -> Any:
    """Replace each `$ref` to a named type with `tsType: <Name>`.

    json-schema-to-typescript declares every `$defs` entry once (unreachableDefinitions); a `$ref`
    with sibling keywords (a property's `description`) would otherwise become a numbered copy
    (`MessageContent1`, ...) of the type it points at.
    """
    return walk.transform(schema, _ts_node)


def _ts_node(original: Mapping[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if not _SHAPING_KEYWORDS.intersection(original):
        out["tsType"] = "unknown"
    if _free_form_object(original):
        # A free-form object is `{[k: string]: unknown}` in every family; in a closed family
        # json-schema-to-typescript would make it `{}`, which also admits strings and numbers.
        out["additionalProperties"] = True
    for key, value in node.items():
        if walk.keyword(key).walk is walk.Walk.DATA and _holds_ref(value):
            # json-schema-to-typescript would resolve a "$ref" key even inside a value: leave it out
            if key in ("const", "enum"):
                out["tsType"] = "unknown"
            continue
        if key in _NOT_READ_BY_JSON2TS:
            continue
        if key == "$ref" and isinstance(value, str):
            out["tsType"] = _type_name(value)
        elif key == "description" and isinstance(value, str):
            # json-schema-to-typescript pastes descriptions into /** */ comments as they are
            extension = original.get(EXTENSION)
            note = f"\n\nchatschema extension: {extension}" if isinstance(extension, str) else ""
            out[key] = ts_comment(with_constraints(value + note, original))
        else:
            out[key] = value
    return _ts_shapes(out)


def _holds_ref(value: Any) -> bool:
    """Whether a JSON value holds an object with a "$ref" key, at any depth."""
    if isinstance(value, Mapping):
        return "$ref" in value or any(_holds_ref(v) for v in value.values())
    if isinstance(value, list | tuple):
        return any(_holds_ref(v) for v in value)
    return False


def _ts_shapes(node: dict[str, Any]) -> dict[str, Any]:
    """What json-schema-to-typescript can type of the newer array and object keywords: a
    `prefixItems` tuple in its older spelling (`items` as a list, `additionalItems` the rest), and
    `patternProperties` as an open index signature (a key that no pattern admits may hold anything)."""
    if "prefixItems" in node:
        node["additionalItems"] = node.pop("items", True)
        node["items"] = node.pop("prefixItems")
    if node.pop("patternProperties", None) is not None and node.get("additionalProperties") is not True:
        node["additionalProperties"] = True
    return node


def schema_map_name(family: str) -> str:
    """The generated interface mapping each type name of a family to its type, e.g. `DocentSchemas`."""
    return family.capitalize() + "Schemas"


def _flattened(family: FamilyModel, name: str, schema: Mapping[str, Any]) -> Mapping[str, Any]:
    """A type that extends others with `allOf` `$ref`s, as one object with every property restated.

    json-schema-to-typescript would emit `Base & ToolCallMessage1`, an intersection with a numbered
    helper interface; one interface is what a TypeScript user expects, and means the same.
    """
    parts = schema.get("allOf")
    if not isinstance(parts, tuple) or not all(isinstance(p, Mapping) and set(p) == {"$ref"} for p in parts):
        return schema
    t = family.types[name]
    flat = {k: v for k, v in schema.items() if k != "allOf"}
    flat["properties"] = {p.name: p.schema for p in t.properties}
    flat["required"] = [p.name for p in t.properties if p.required]
    if not t.also_one_of:
        return flat
    # also one of a union's branches: `Union & <Name>Fields`, the fields under a name of their own
    # (json-schema-to-typescript would number it)
    unions = [p for p in parts if ref_target_name(p["$ref"]) in t.also_one_of]
    fields = {**flat, "title": f"{name}Fields", "description": f"The fields of {name} beside its {_or(t.also_one_of)}."}
    outer: dict[str, Any] = {k: flat[k] for k in ("title", "description", "deprecated") if k in flat}
    return {**outer, "allOf": (*unions, fields)}


def _or(names: tuple[str, ...]) -> str:
    return " and ".join(names)


def ts_input(family: FamilyModel) -> dict[str, Any]:
    """The schema handed to json-schema-to-typescript for one family."""
    defs = {name: _flattened(family, name, schema) for name, schema in family.bundle["$defs"].items()}
    return {
        "title": schema_map_name(family.name),
        "description": f"Every named type of the {family.name!r} family, by name.",
        "type": "object",
        "properties": {name: {"tsType": name} for name in defs},
        "required": list(defs),
        "additionalProperties": False,
        "$defs": {name: _ts_schema(schema) for name, schema in defs.items()},
    }


def _validation_only(schema: Any) -> Any:
    """`schema` without the keywords that only annotate: ajv's standalone code embeds the schema objects
    it reports in errors, descriptions and all, and validates the same without them."""
    return walk.transform(schema, lambda _, node: {k: v for k, v in node.items() if k not in walk.ANNOTATIONS})


_UNEVALUATED = frozenset({"unevaluatedProperties", "unevaluatedItems"})


def uses_unevaluated(schema: Any) -> bool:
    """Whether `schema` (a family's bundle) has `unevaluatedProperties` or `unevaluatedItems` anywhere
    (lint refuses them, but an unknown keyword is still walked: nothing inside it is missed)."""
    return any(_UNEVALUATED.intersection(node) for _, node in walk.subschemas(schema))


def validator_input(family: FamilyModel) -> dict[str, Any]:
    """What codegen/node/standalone.cjs compiles for one family: its bundle without annotations, the
    `$id` of each named type (the precompiled module exports one function per type, by name), and
    whether ajv must track evaluated properties and items (only unevaluated* needs it; the tracking
    leaves top-level statements that keep a bundler from dropping unused validators)."""
    schema = family.bundle
    return {
        "schema": _validation_only(schema),
        "refs": {name: f"{schema['$id']}#/$defs/{name}" for name in sorted(schema["$defs"])},
        "unevaluated": uses_unevaluated(schema),
    }


def tag_table(family: FamilyModel) -> dict[str, dict[str, Any]]:
    """Each named type's string `const` properties (`{"ToolCallMessage": {"message_type": "tool_call_message"}}`):
    the runtime names a union's expected tags from it (core.js tagValues)."""
    table: dict[str, dict[str, Any]] = {}
    for name, t in sorted(family.types.items()):
        consts = {p.name: p.const for p in t.own() if p.has_const and isinstance(p.const, str)}
        if consts:
            table[name] = consts
    return table


def _grammars(fam: FamilyModel) -> dict[str, Any]:
    """The grammars as the readers use them: without their descriptions."""
    out: dict[str, Any] = {}
    for g in fam.grammars:
        c = g.contents
        roles = {role: {k: v for k, v in spec.items() if k != "description"} for role, spec in c["roles"].items()}
        states = {name: spec["next"] for name, spec in c["states"].items()}
        out[g.name] = {"tag": c["tag"], "roles": roles, "start": c["start"], "next": states, "final": c["final"]}
    return out


def family_modules(name: str, fam: FamilyModel) -> dict[str, str]:
    """A family's rendered ES modules (its entry point and tag table); its validators come from Node."""
    return {
        f"{name}.js": render(
            "typescript/family.js.jinja2",
            family=name,
            version=fam.version,
            names=sorted(fam.types),
            unions=sorted(t.name for t in fam.unions),
            sdk=name in SDK_FAMILIES,
        ),
        f"validators/{name}.meta.js": (
            f"// Generated by chatschema codegen from schemas/{name}/: do not edit.\n"
            "// Each named type's `const` properties: the tags a union error names as expected.\n"
            f"export const tags = {json.dumps(tag_table(fam), ensure_ascii=True, sort_keys=True)};\n"
            "// Its stream grammars (schemas/<family>/grammars/), by union: what the stream readers follow.\n"
            f"export const grammars = {json.dumps(_grammars(fam), ensure_ascii=True, sort_keys=True)};\n"
            "// Its tagged unions: the tag and the values it knows, to tell an unknown variant (core.js).\n"
            f"export const unions = {json.dumps(union_table(fam), ensure_ascii=True, sort_keys=True)};\n"
        ),
    }


def union_table(family: FamilyModel) -> dict[str, dict[str, Any]]:
    """Each tagged union's tag and known tag values, in branch order."""
    return {t.name: {"tag": t.tag, "known": [b.tag_value for b in t.branches]} for t in family.unions}


def shared_modules(families: dict[str, FamilyModel]) -> dict[str, str]:
    """The generated ES modules shared by the families: the root entry and the schema index."""
    modules: dict[str, str] = {}
    modules["schema-index.js"] = (
        "// Generated by chatschema codegen (schemas/index.json as a module): do not edit.\n"
        f"export default {json.dumps(index(families), ensure_ascii=True, indent=2)};\n"
    )
    names = sorted(f"{name}/{t}" for name, fam in families.items() for t in fam.types)
    modules["index.js"] = render("typescript/index.js.jinja2", families=sorted(families), schema_names=names)
    return modules


def family_paths(name: str) -> list[str]:
    """The package's JavaScript files that belong to one family (relative to esm/ or the root)."""
    return [f"{name}.js", f"validators/{name}.meta.js", f"validators/{name}.js", f"validators/{name}.first.js"]


class NodeJob:
    """One codegen/node script fed JSON on stdin, running while the caller does other work."""

    def __init__(self, script: str, payload: Any) -> None:
        self._script = script
        self._result: tuple[str, str] = ("", "")
        setup_node()
        proc = subprocess.Popen(
            [_node(), str(NODE_DIR / script)],
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

    def result(self) -> Any:
        """The script's JSON output; RuntimeError naming the script if it failed."""
        self._thread.join()
        out, err = self._result
        if self._proc.returncode != 0:
            raise RuntimeError(f"codegen/node/{self._script} failed:\n{err}")
        return json.loads(out)


def js_input(name: str, fam: FamilyModel) -> dict[str, Any]:
    """Everything a family's JavaScript (its precompiled validators and the CommonJS builds of its
    modules) is made from. Descriptions are not in it: an edit of one leaves that JavaScript as it was."""
    return {"validators": validator_input(fam), "modules": family_modules(name, fam)}


def js_build(inputs: dict[str, dict[str, Any]], shared: dict[str, str] | None) -> NodeJob:
    """Start precompiling the validators of the families in `inputs` (js_input) and building the
    CommonJS files of their modules and of `shared` (shared_modules, or None when cached) with
    codegen/node/standalone.cjs."""
    modules = dict(shared or {})
    for unit in (inputs[name] for name in sorted(inputs)):
        modules.update(unit["modules"])
    return NodeJob(
        "standalone.cjs",
        {"validators": {name: inputs[name]["validators"] for name in sorted(inputs)}, "modules": modules},
    )


_CLASS = re.compile(r"^(?:export )?class ", re.MULTILINE)


def js_files(families: dict[str, FamilyModel], built: dict[str, Any]) -> dict[str, str]:
    """The package's generated JavaScript, relative to npm/: each ES module under esm/ and its
    CommonJS build at the root. `built` is codegen/node/standalone.cjs's output for every family."""
    modules = shared_modules(families)
    for name, fam in sorted(families.items()):
        modules.update(family_modules(name, fam))
    for name, code in sorted(built["validators"].items()):
        header = (
            f"// Generated by chatschema codegen from schemas/{name}/ with ajv's standalone code "
            "(codegen/node/standalone.cjs): do not edit.\n"
        )
        modules[f"validators/{name}.js"] = header + "// Collects every error.\n" + code["all"]
        modules[f"validators/{name}.first.js"] = header + "// Stops at the first error.\n" + code["first"]
    files: dict[str, str] = {}
    for rel, text in sorted(modules.items()):
        if _CLASS.search(text):
            # esbuild's CommonJS build would hold a second class, not `instanceof` the ES module's
            raise RuntimeError(f"{rel}: a generated module declares a class; declare it in the runtime (esm/core.js)")
        files[f"esm/{rel}"] = text
        files[rel] = (
            f"// Generated by chatschema codegen: the CommonJS build (esbuild) of esm/{rel}: do not edit.\n"
            '"use strict";\n' + built["cjs"][rel]
        )
    for rel in _runtime_names(families, ".js"):
        # require() of an ES module (Node 20.19+): CommonJS users run the very module that is edited,
        # and share its classes (PayloadError) with ES module users.
        files[rel] = (
            f"// Generated by chatschema codegen: the CommonJS entry of esm/{rel} (hand-written): do not edit.\n"
            f'"use strict";\nmodule.exports = require("./esm/{rel}");\n'
        )
    return files


def _pins() -> dict[str, str]:
    manifest = json.loads((NODE_DIR / "package.json").read_text(encoding="utf-8"))
    deps: dict[str, str] = manifest["dependencies"]
    return {name: deps[name] for name in RUNTIME_DEPENDENCIES}


def _entry(path: str) -> dict[str, dict[str, str]]:
    """An `exports` entry: the ES module for `import`, its CommonJS build for `require`, each with its types."""
    return {
        "import": {"types": f"./esm/{path}.d.ts", "default": f"./esm/{path}.js"},
        "require": {"types": f"./{path}.d.ts", "default": f"./{path}.js"},
    }


# The Node versions that load an ES module with require() without a flag (20.19+, 22.12+): the
# CommonJS entries of the hand-written modules do.
NODE_ENGINES = "^20.19.0 || >=22.12.0"
# The oldest TypeScript that compiles the declarations (`export type *` is 5.0's): tests/test_npm_tarball.py
# compiles the consumer project (tests/consumer/) from the packed tarball with exactly this one.
MIN_TYPESCRIPT = "5.0.4"
# pyproject.toml's [project.urls] keys that package.json has a field for.
_URL_FIELDS = {"Homepage": "homepage", "Repository": "repository", "Issues": "bugs"}


def project_fields(project: Mapping[str, Any]) -> dict[str, Any]:
    """package.json's license, author, keywords and links, from pyproject.toml's [project] table,
    so that the two packages say the same; a link pyproject.toml does not have is left out."""
    fields: dict[str, Any] = {
        "license": project["license"],
        "author": ", ".join(a["name"] for a in project["authors"]),
        "keywords": [*project["keywords"], "typescript"],
    }
    urls: Mapping[str, str] = project.get("urls", {})
    for key, field in _URL_FIELDS.items():
        if key in urls:
            fields[field] = {"type": "git", "url": f"git+{urls[key]}"} if field == "repository" else urls[key]
    return fields


def _package_json(project: Mapping[str, Any], families: list[str]) -> str:
    """npm/package.json for `families`, its version and metadata from pyproject.toml's [project] table."""
    exports: dict[str, Any] = {".": _entry("index")}
    exports.update({f"./{name}": _entry(name) for name in families})
    exports.update({f"./{FAMILY_MODULES[f]}": _entry(FAMILY_MODULES[f]) for f in families if f in FAMILY_MODULES})
    exports["./ajv"] = _entry("ajv")
    exports["./schemas/*"] = "./schemas/*"
    exports["./package.json"] = "./package.json"
    pins = _pins()
    manifest = {
        "name": PACKAGE_NAME,
        "version": project["version"],
        "description": (
            "TypeScript types, JSON Schemas and precompiled validators for the chat messages and tool calls "
            "of Docent, Letta, bridgic and agent-swarm-kit."
        ),
        **project_fields(project),
        # The .js files at the root are CommonJS; esm/ has its own package.json saying "module".
        "type": "commonjs",
        "main": "./index.js",
        "types": "./index.d.ts",
        "exports": exports,
        # No module runs code on import beyond defining its exports: bundlers drop what is not used.
        "sideEffects": False,
        "files": ["*.js", "*.d.ts", "validators/", "esm/", "types/", "schemas/", "README.md"],
        # Only chatschema/ajv (createAjv) loads ajv: the validators are precompiled. TypeScript is
        # for the declarations: npm refuses an older one beside the package, and asks for neither.
        "peerDependencies": {
            **{name: f"^{version}" for name, version in pins.items()},
            "typescript": f">={MIN_TYPESCRIPT}",
        },
        "peerDependenciesMeta": {name: {"optional": True} for name in [*pins, "typescript"]},
        "engines": {"node": NODE_ENGINES},
    }
    return json.dumps(manifest, indent=2) + "\n"


_COMMENT = re.compile(r"^([ \t]*)/\*\*\n(?:\1 \*[^\n]*\n)*?\1 \*/\n", re.MULTILINE)
_DEPRECATED = re.compile(r"Deprecated( but still required)?: (.+?)[.;] [Uu]se (.+)")


def _doc_comment(block: str) -> str:
    """One JSDoc block of json-schema-to-typescript's, made to read well in an editor: without its
    "This interface was referenced by ..." lines, and with the summary first and `@deprecated`
    giving the reason only (json-schema-to-typescript puts the tag above the whole description)."""
    indent = block[: len(block) - len(block.lstrip())]
    lines = [line.removeprefix(indent + " *").removeprefix(" ") for line in block.splitlines()[1:-1]]
    referenced = next((i for i, line in enumerate(lines) if line.startswith("This interface was referenced by")), None)
    if referenced is not None:
        lines = lines[:referenced]
    deprecated = "@deprecated" in lines
    lines = [line for line in lines if line != "@deprecated"]
    while lines and not lines[-1]:
        lines.pop()
    if deprecated:
        found = _DEPRECATED.fullmatch(lines[0]) if len(lines) == 1 else None
        if found is not None:
            still, summary, reason = found.groups()
            lines = [
                summary[0].upper() + summary[1:] + "." + (" Still required." if still else ""),
                "",
                f"@deprecated Use {reason}",
            ]
        else:
            lines += ["", "@deprecated"] if lines else ["@deprecated"]
    if not lines:
        return ""
    body = "".join(f"{indent} *{' ' + line if line else ''}\n" for line in lines)
    return f"{indent}/**\n{body}{indent} */\n"


def type_declarations(family: str, text: str) -> str:
    """A family's `types/<family>.d.ts`: json-schema-to-typescript's output, doc comments tidied, under our header."""
    return (
        f"// Generated by chatschema codegen from schemas/{family}/ with json-schema-to-typescript: do not edit.\n"
        "// Edit the schema and run `nox -s generate`.\n\n"
    ) + _COMMENT.sub(lambda m: _doc_comment(m.group(0)), text)


def _sdk_shapes(family: FamilyModel) -> dict[str, dict[str, str]]:
    """Each named type's string tags (`const` properties), for the SDK helper's parameter types."""
    shapes = {
        name: {prop: value for prop, value in consts.items() if isinstance(value, str)}
        for name, consts in tag_table(family).items()
    }
    return {name: consts for name, consts in shapes.items() if consts}


def _declarations(families: dict[str, FamilyModel], types_dir: str) -> dict[str, str]:
    """The generated `.d.ts` files of one build; `types_dir` is where types/ is seen from it."""
    files: dict[str, str] = {}
    names = {fam_name: sorted(fam.types) for fam_name, fam in sorted(families.items())}
    for name, types in names.items():
        files[f"{name}.d.ts"] = render(
            "typescript/family.d.ts.jinja2",
            family=name,
            names=types,
            types=types_dir,
            map_name=schema_map_name(name),
            example=f"{name}/{types[0]}",
            sdk_shapes=_sdk_shapes(families[name]) if name in SDK_FAMILIES else {},
            unions={t.name: t.tag for t in sorted(families[name].unions, key=lambda t: t.name)},
        )
    files["index.d.ts"] = render("typescript/index.d.ts.jinja2", families=names)
    return files


def package_files(
    families: dict[str, FamilyModel], project: Mapping[str, Any], types: dict[str, str], built: dict[str, Any]
) -> dict[str, str]:
    """Every generated file of the npm package, relative to npm/; `project` is pyproject.toml's [project]
    table, `types` maps each family to its `types/<family>.d.ts` text, `built` is
    codegen/node/standalone.cjs's output (js_build)."""
    files: dict[str, str] = {"package.json": _package_json(project, sorted(families))}
    # npm puts a LICENSE in every tarball; this one is the repository's
    license_file = REPO / "LICENSE"
    if not license_file.is_file():
        raise RuntimeError(f"{license_file}: missing; the npm package ships the repository's LICENSE")
    files["LICENSE"] = license_file.read_text(encoding="utf-8")
    # Under esm/, `.js` files are ES modules; at the root ("type": "commonjs") they are CommonJS.
    files["esm/package.json"] = json.dumps({"type": "module", "sideEffects": False}, indent=2) + "\n"
    files.update(js_files(families, built))
    files.update(_declarations(families, "./types"))
    for name in _runtime_names(families, ".d.ts"):
        # A copy, not `export * from "./esm/..."`: before TypeScript 5.8, a CommonJS declaration file
        # cannot re-export an ES module's (TS1479). Its classes are the ES module's at run time.
        text = (REPO / NPM_PACKAGE / "esm" / name).read_text(encoding="utf-8")
        files[name] = (
            f"// Generated by chatschema codegen: a copy of esm/{name} (hand-written), the declarations for "
            "require(): do not edit.\n" + text
        )
    files.update({f"esm/{rel}": text for rel, text in _declarations(families, "../types").items()})
    for name, text in sorted(types.items()):
        files[f"types/{name}.d.ts"] = text
    for name, fam in sorted(families.items()):
        for f in fam.files:
            files[f"schemas/{name}/{f.name}"] = shipped_schema(name, f.name, f.contents)
        files[bundle_path(name)] = dump(fam.bundle_json())
    files["schemas/index.json"] = dump(index(families))
    return dict(sorted(files.items()))
