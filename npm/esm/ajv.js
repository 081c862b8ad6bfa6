// createAjv(): an Ajv2020 instance with the project's options, for compiling schemas at run time
// (the package's own validators are precompiled and do not need it). The only module that loads
// ajv: import it from "chatschema/ajv" (or "chatschema", where a bundler drops it if unused).
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { isDateTime } from "./formats.js";
import { multipleOf } from "./keywords.js";

const CONCAT = /vErrors\.concat\(([\w$.]+)\)/g;

/** ajv appends a `$ref`'s errors with `vErrors.concat(...)`, copying all errors so far at every
 * call: quadratic in the number of violations (100,000 took 80 s). Append in place instead. The
 * precompiled validators are made with the same option (codegen/node/standalone.cjs). */
export function appendInPlace(source) {
  return source.replace(CONCAT, "(function (a, b) { for (let i = 0; i < b.length; i++) a.push(b[i]); return a; })(vErrors, $1)");
}

/** A new Ajv2020 instance with the project's options and formats, holding no schemas.
 * `allErrors: false` gives a validator that stops at the first error (what `isValid` uses). */
export function createAjv(allErrors = true) {
  // ajv and ajv-formats are CommonJS: under Node's ESM their exports sit on `default`.
  const Ajv = Ajv2020.default || Ajv2020;
  const add = addFormats.default || addFormats;
  const ajv = new Ajv({
    strict: true,
    // A keyword that applies to one type may stand where `type` is absent or a list (it applies
    // to values of its type only), and `required` may name keys its object does not describe.
    // These loosen no validation, as `allowUnionTypes` does not (`"type": ["string", "null"]`).
    strictTypes: false,
    strictRequired: false,
    strictTuples: false,
    // and `then` without `if`, or `minContains` without `contains`, are valid and simply ignored
    // (lint refuses unknown keywords, which is what strictSchema is for)
    strictSchema: false,
    allowUnionTypes: true,
    discriminator: true,
    allErrors,
    // errors carry their schema and data, so messages can name the expected values (as Python's do)
    verbose: true,
    code: { process: appendInPlace },
  });
  add(ajv);
  // Replace ajv-formats' date-time by the project's rule, shared with Python (formats.js).
  ajv.addFormat("date-time", { type: "string", validate: isDateTime });
  // The marker of the project's own additions to a family: an annotation, it validates nothing.
  ajv.addKeyword({ keyword: "x-chatschema-extension", schemaType: "string" });
  // multipleOf with Python jsonschema's verdicts (keywords.js), as in the precompiled validators
  ajv.removeKeyword("multipleOf");
  ajv.addKeyword({ keyword: "multipleOf", type: "number", schemaType: "number", errors: true, validate: checkMultipleOf });
  return ajv;
}

function checkMultipleOf(step, value) {
  const ok = multipleOf(value, step);
  checkMultipleOf.errors = ok ? null : [{ keyword: "multipleOf", message: `must be multiple of ${step}`, params: { multipleOf: step } }];
  return ok;
}
