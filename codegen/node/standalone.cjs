// Precompile the package's validators and build its CommonJS files (codegen/typescript.py).
// stdin: {"validators": {"<family>": {"schema": <bundle>, "refs": {"<Type>": "<$id>#/$defs/<Type>"},
//                                     "unevaluated": <whether a schema uses unevaluated*>}},
//         "modules": {"<path>": "<ES module source>"}}
// stdout: {"<family>": {"all": <ES module>, "first": <ES module>}, ...} under "validators", and under
// "cjs" each module (given and precompiled) turned into CommonJS by esbuild. The validators are ajv
// standalone code: plain functions, so the package compiles nothing and needs no eval at run time.
"use strict";
const Ajv2020 = require("ajv/dist/2020").default;
const standaloneCode = require("ajv/dist/standalone").default;
const { _, str } = require("ajv/dist/compile/codegen");
const esbuild = require("esbuild");

// the formats and keyword-helper modules, by names no schema-derived identifier can take
const FORMATS = "__chatschemaFormats";
const KEYWORDS = "__chatschemaKeywords";
// ajv's runtime helpers, which its standalone code `require`s: the package's own instead (keywords.js)
const HELPERS = /require\("ajv\/dist\/runtime\/(ucs2length|equal)"\)\.default/g;
const CONCAT = /vErrors\.concat\(([\w$.]+)\)/g;

// The same as the package's ajv.js appendInPlace: errors appended in place, in linear time.
function appendInPlace(source) {
  return source.replace(CONCAT, "(function (a, b) { for (let i = 0; i < b.length; i++) a.push(b[i]); return a; })(vErrors, $1)");
}

// JSON Schema's multipleOf with Python jsonschema's verdicts (keywords.js): ajv's own divides and
// compares with parseInt, so 1e21 is no multiple of 1 there.
const MULTIPLE_OF = {
  keyword: "multipleOf",
  type: "number",
  schemaType: "number",
  error: {
    message: ({ schemaCode }) => str`must be multiple of ${schemaCode}`,
    params: ({ schemaCode }) => _`{multipleOf: ${schemaCode}}`,
  },
  code(cxt) {
    cxt.fail(_`!__chatschemaKeywords.multipleOf(${cxt.data}, ${cxt.schemaCode})`);
  },
};

// unevaluatedProperties and unevaluatedItems, in a family whose schemas use neither (ajv tracks what
// they need for them only if asked): a schema that does after all is refused, not silently misread.
const UNEVALUATED = ["unevaluatedProperties", "unevaluatedItems"].map((keyword) => ({
  keyword,
  code() {
    throw new Error(`${keyword} is used, but the family's schemas were said to use no unevaluated* keyword`);
  },
}));

// ajv writes an error's schemaPath relative to the function that reports it: a named type compiled
// on its own starts at its own root (`#/properties/x/type`), a `$ref` inlined into it at the `$ref`'s
// target (`#/$defs/Timestamp/pattern`, already a pointer into the bundle). Each function's paths
// are made pointers into the family bundle too (`#/$defs/ToolCall/properties/x/type`), so one error
// says where its keyword is whichever function reported it (core.js gives it as `schemaPath`).
function bundlePaths(ajv, schema, refs) {
  const names = new Map(Object.entries(schema.$defs).map(([name, def]) => [def, name]));
  const done = new Set();
  const visit = (validate) => {
    if (typeof validate !== "function" || done.has(validate)) return;
    done.add(validate);
    const name = names.get(validate.schemaEnv.schema);
    if (name === undefined || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
      throw new Error(`a precompiled function validates no named type of the bundle (${name})`);
    }
    if ("$defs" in validate.schemaEnv.schema) throw new Error(`${name}: a named type holds $defs of its own`);
    const source = validate.source;
    source.validateCode = source.validateCode.replace(/schemaPath:"#(\/(?:[^"\\]|\\.)*)?"/g, (found, rest = "") =>
      rest.startsWith("/$defs/") ? found : `schemaPath:"#/$defs/${name}${rest}"`,
    );
    for (const value of (source.scopeValues.validate || new Map()).values()) visit(value.value && value.value.ref);
  };
  for (const ref of Object.values(refs)) visit(ajv.getSchema(ref));
}

function compile(family, { schema, refs, unevaluated }, allErrors) {
  const ajv = new Ajv2020({
    strict: true,
    // A keyword that applies to one type may stand where `type` is absent or a list (it applies
    // to values of its type only), and `required` may name keys its object does not describe.
    strictTypes: false,
    strictRequired: false,
    strictTuples: false,
    // and `then` without `if`, or `minContains` without `contains`, are valid and simply ignored
    // (lint refuses unknown keywords, which is what strictSchema is for)
    strictSchema: false,
    allowUnionTypes: true,
    discriminator: true,
    allErrors,
    // errors carry their schema and data (core.js names a union's tags and an enum's value from
    // them); the first-error validators only give a verdict, so they go without (smaller code)
    verbose: allErrors,
    code: { source: true, esm: true, process: appendInPlace, formats: _`__chatschemaFormats` },
  });
  // Only the name matters here: the code calls formats.js's validate at run time.
  ajv.addFormat("date-time", { type: "string", validate: () => true });
  ajv.addKeyword({ keyword: "x-chatschema-extension", schemaType: "string" });
  ajv.removeKeyword("multipleOf");
  ajv.addKeyword(MULTIPLE_OF);
  if (!unevaluated) {
    // Ajv2020 always tracks the properties and items each validator evaluated, for unevaluated*: a
    // `validateN.evaluated = {...}` statement per function at the module's top level, which a
    // bundler must keep (a side effect), and so every validator of the module. Without the
    // keywords the tracking decides nothing, and the validators are plain function declarations.
    ajv.opts.unevaluated = false;
    for (const definition of UNEVALUATED) {
      ajv.removeKeyword(definition.keyword);
      ajv.addKeyword(definition);
    }
  }
  ajv.addSchema(schema);
  bundlePaths(ajv, schema, refs);
  let code = standaloneCode(ajv, refs).replace(HELPERS, (_match, name) => `${KEYWORDS}.${name}`);
  // ajv's standalone code loads its runtime helpers (ucs2length, equal, ...) with `require("...")`;
  // inside a string literal the quote would be escaped (`require(\"`), so schema text cannot match.
  const required = code.match(/require\("[^"]*"\)/);
  if (required) throw new Error(`${family}: the precompiled validators need ${required[0]}, which the package does not ship`);
  // `code.process` above rewrites the code ajv compiles, not what standaloneCode prints from it
  code = appendInPlace(code.replace(/^"use strict";/, ""));
  if (code.includes("vErrors.concat(")) throw new Error(`${family}: errors still appended by concat (quadratic)`);
  if (!unevaluated && /\bvalidate\d+\.evaluated\b/.test(code)) throw new Error(`${family}: the validators still track evaluated properties`);
  const helpers = code.includes(KEYWORDS) ? `import * as ${KEYWORDS} from "../keywords.js";\n` : "";
  return `import { formats as ${FORMATS} } from "../formats.js";\n${helpers}${code}\n`;
}

// A module's CommonJS build, by esbuild's service (a process of its own): started as soon as the
// module's source is known, so that it runs on the other core while ajv compiles the next family.
function toCommonJs(source, path) {
  const build = esbuild.transform(source, { format: "cjs", platform: "node", target: "node18", sourcefile: path });
  build.catch(() => {}); // awaited in order below, where a failure is reported; not an unhandled one meanwhile
  return build;
}

async function main() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  const input = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  const validators = {};
  const builds = new Map(Object.entries(input.modules).map(([path, source]) => [path, toCommonJs(source, path)]));
  for (const family of Object.keys(input.validators).sort()) {
    const spec = input.validators[family];
    validators[family] = { all: compile(family, spec, true), first: compile(family, spec, false) };
    for (const [kind, path] of [["all", `validators/${family}.js`], ["first", `validators/${family}.first.js`]]) {
      builds.set(path, toCommonJs(validators[family][kind], path));
    }
  }
  const cjs = {};
  for (const path of [...builds.keys()].sort()) cjs[path] = (await builds.get(path)).code;
  await esbuild.stop(); // its service process, reaped here rather than left behind as a zombie
  process.stdout.write(JSON.stringify({ validators, cjs }));
}

main().catch((err) => {
  // one line, no stack: a schema the tool refuses is bad input to report, not a crash to debug
  process.stderr.write(`standalone: ${String(err && err.message ? err.message : err).split("\n")[0]}\n`);
  process.exit(1);
});
