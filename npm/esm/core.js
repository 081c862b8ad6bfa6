// The validation API over precompiled validators (ajv standalone code generated at codegen time,
// validators/<family>.js): nothing is compiled at run time and nothing uses eval. index.js builds
// it over every family, letta.js (and each other family module) over its own.

const SHORT_LIMIT = 100; // characters of a value quoted in a message, as schemas.short_repr in Python

// Characters Python's repr escapes in a string: control characters, DEL, C1 controls, lone surrogates.
const UNPRINTABLE = /[\x00-\x1f\x7f-\x9f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const PLAIN_TEXT = /^[\x20-\x26\x28-\x5b\x5d-\x7e]*$/;
const NAMED_ESCAPES = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

function escapeUnprintable(char) {
  if (NAMED_ESCAPES[char]) return NAMED_ESCAPES[char];
  const code = char.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16)}`;
}

/** A value as Python's repr writes it, so that messages read the same as chatschema's Python ones,
 * cut to about SHORT_LIMIT characters with `...` whatever its size or depth (never a stack overflow). */
function pyRepr(value) {
  // most values quoted are short strings of printable ASCII with no quote or backslash: as they are
  if (typeof value === "string" && value.length <= SHORT_LIMIT - 2 && PLAIN_TEXT.test(value)) return `'${value}'`;
  const text = reprWithin(value, SHORT_LIMIT + 1);
  return text.length <= SHORT_LIMIT ? text : `${text.slice(0, SHORT_LIMIT - 3)}...`;
}

// `value`'s repr, or a text longer than `budget` that begins like it: each level of nesting writes
// at least one character, so the recursion is at most `budget` deep.
function reprWithin(value, budget) {
  if (typeof value === "string") {
    const cut = value.length > budget ? value.slice(0, budget) : value;
    const quote = cut.includes("'") && !cut.includes('"') ? '"' : "'";
    let body = cut.replace(/\\/g, "\\\\").replace(UNPRINTABLE, escapeUnprintable);
    if (quote === "'") body = body.replace(/'/g, "\\'");
    return quote + body + quote;
  }
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value !== "object") return String(value);
  const array = Array.isArray(value);
  let text = array ? "[" : "{";
  for (const key of array ? value.keys() : Object.keys(value)) {
    if (text.length > budget) break;
    if (text.length > 1) text += ", ";
    if (!array) text += `${reprWithin(key, budget - text.length)}: `;
    text += reprWithin(value[key], budget - text.length);
  }
  return text + (array ? "]" : "}");
}

const PLAIN_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const UNSAFE_KEY = /[\\'\x00-\x1f\x7f-\x9f\u2028\u2029]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const KEY_LIMIT = 100; // characters (code points) of a key shown in a path
const PATH_LIMIT = 1000; // characters of a path shown

function cut(text, limit) {
  if (text.length <= limit) return text; // UTF-16 units: never fewer than code points
  const points = Array.from(text);
  return points.length <= limit ? text : null;
}

/** One step of a JSONPath, as chatschema.schemas.json_path writes it in Python: `.name`, `[3]`, or a
 * quoted key, escaped (`['a b']`, `['line\u000a']`) and cut to KEY_LIMIT characters with `...`. */
function pathStep(key, isIndex) {
  if (isIndex) return `[${key}]`;
  const whole = cut(key, KEY_LIMIT);
  if (whole !== null && PLAIN_NAME.test(key)) return `.${key}`;
  const shown = whole !== null ? whole : `${Array.from(key).slice(0, KEY_LIMIT).join("")}...`;
  const escaped = shown.replace(UNSAFE_KEY, (c) =>
    c === "\\" || c === "'" ? `\\${c}` : `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  return `['${escaped}']`;
}

// difflib.SequenceMatcher(None, a, b).ratio() (no junk: names are far shorter than its 200-character
// autojunk threshold): twice the matched characters over the total, from the longest matching
// block (leftmost in a, then in b) and recursively the parts left and right of it.
function matchedChars(a, b) {
  let best = 0;
  let bi = 0;
  let bj = 0;
  let prev = new Array(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    const row = new Array(b.length + 1).fill(0);
    for (let j = 1; j <= b.length; j++) {
      if (a[i - 1] === b[j - 1]) {
        row[j] = prev[j - 1] + 1;
        if (row[j] > best) {
          best = row[j];
          bi = i - best;
          bj = j - best;
        }
      }
    }
    prev = row;
  }
  if (best === 0) return 0;
  return best + matchedChars(a.slice(0, bi), b.slice(0, bj)) + matchedChars(a.slice(bi + best), b.slice(bj + best));
}

/** Up to `n` names closest to `word` with a ratio of at least `cutoff`, as difflib.get_close_matches. */
export function closeMatches(word, names, n = 3, cutoff = 0.5) {
  const scored = [];
  for (const name of names) {
    const total = word.length + name.length;
    // difflib's real_quick_ratio: no more can match than the shorter holds (a long word is cheap)
    if (total > 0 && (2 * Math.min(word.length, name.length)) / total < cutoff) continue;
    const ratio = total === 0 ? 1 : (2 * matchedChars(name, word)) / total;
    if (ratio >= cutoff) scored.push([ratio, name]);
  }
  scored.sort((x, y) => y[0] - x[0] || (x[1] < y[1] ? 1 : x[1] > y[1] ? -1 : 0));
  return scored.slice(0, n).map(([, name]) => name);
}

/** No schema has this name; the message names the closest ones ("did you mean ..."), as in Python. */
export class UnknownSchemaError extends Error {
  /** `names`: every known schema name, sorted; `families`: the known family names. */
  constructor(name, names = [], families = []) {
    const close = typeof name === "string" ? closeMatches(name, names) : [];
    const hint = close.length > 0 ? `; did you mean ${close.join(", ")}?` : `; known families: ${families.join(", ")}`;
    super(`unknown schema ${typeof name === "string" ? pyRepr(name) : String(name)}${hint}`);
    this.name = "UnknownSchemaError";
    this.schemaName = name;
    this.closeMatches = close;
  }
}

/** Payloads nested deeper than this (arrays and objects) are not valid, as in Python (jsontext.MAX_DEPTH). */
export const MAX_DEPTH = 1024;

/** Whether `value` nests arrays and objects more than MAX_DEPTH levels deep (one that holds itself
 * does): Python's rule, applied to what the validators accept (see accepts). */
export function nestedTooDeep(value) {
  if (value === null || typeof value !== "object") return false;
  visits = 0;
  const plain = deeperThanMax(value, 1, null);
  // A value built in code may share a part under many keys (`d = [d, d]` forty times over): walked
  // as a tree, that is 2^40 visits. Past a budget no tree of JSON text this size needs, the walk
  // starts again remembering the deepest level each part was walked from, which bounds it.
  return plain !== undefined ? plain : deeperThanMax(value, 1, new Map());
}

const PLAIN_VISITS = 1 << 20;
let visits = 0;

// Whether the container `item`, at `level` (1: the payload), holds containers deeper than MAX_DEPTH;
// undefined when a walk without `seen` went over its budget. Recursive, at most MAX_DEPTH + 1 calls
// deep: no stack of its own to allocate for each payload, and `for...in` over an object allocates
// nothing (Object.values would).
function deeperThanMax(item, level, seen) {
  if (level > MAX_DEPTH) return true;
  if (seen === null) {
    if (++visits > PLAIN_VISITS) return undefined;
  } else {
    const before = seen.get(item);
    if (before !== undefined && before >= level) return false; // walked from as deep already
    seen.set(item, level);
  }
  if (Array.isArray(item)) {
    for (let i = 0; i < item.length; i++) {
      const child = item[i];
      if (child !== null && typeof child === "object") {
        const found = deeperThanMax(child, level + 1, seen);
        if (found !== false) return found;
      }
    }
  } else {
    for (const key in item) {
      const child = item[key];
      if (child !== null && typeof child === "object") {
        const found = deeperThanMax(child, level + 1, seen);
        if (found !== false) return found;
      }
    }
  }
  return false;
}

// The depth rule is the package's, not a schema keyword's: no schemaPath.
const TOO_DEEP = Object.freeze({
  path: "$",
  message: `nesting too deep: more than ${MAX_DEPTH} levels`,
  keyword: "maxDepth",
  instancePath: "",
  schemaPath: "",
});

function tooDeep() {
  return { ...TOO_DEEP, params: { limit: MAX_DEPTH } };
}

// Whether `validate` accepts `payload`: true or false, or undefined when it threw a RangeError (a
// stack overflow is one: a schema that recurses, a value that holds itself) on a payload deeper than
// MAX_DEPTH. The depth rule decides only what the validators accept: a payload they refuse is invalid
// at any depth, and walking every container of it (a quarter to a half of the validator's time on
// small payloads) would change only which reason is listed. A RangeError on a payload within the
// rule (the caller's stack nearly full) is rethrown, as it was when the walk came first.
function accepts(validate, payload) {
  try {
    return validate(payload) === true;
  } catch (error) {
    if (error instanceof RangeError && nestedTooDeep(payload)) return undefined;
    throw error;
  }
}

/** Whether `validate` accepts `payload` and so does the depth rule, which walks only what the validator
 * accepts (see accepts): `isValid`'s verdict and each per-type guard's. */
export function isAccepted(validate, payload) {
  return accepts(validate, payload) === true && !nestedTooDeep(payload);
}

/** At most this many violations are listed per payload (as in Python); the others are counted. */
export const MAX_VIOLATIONS = 20;

/** Whether `value` is an object whose own `tag` is a string none of `known`: an unknown variant of a
 * tagged union, a type from a later release (Python's chatschema.unknown.is_unknown). */
export function isUnknownVariant(value, tag, known) {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  if (!Object.prototype.hasOwnProperty.call(value, tag)) return false;
  const found = value[tag];
  return typeof found === "string" && !known.includes(found);
}

/** Whether `options` ({ unknown: "error" | "keep" }, default "error") keep unknown variants. */
export function keepsUnknown(options) {
  const mode = options === undefined || options === null ? undefined : options.unknown;
  if (mode === undefined || mode === "error") return false;
  if (mode === "keep") return true;
  throw new TypeError(`unknown is "error" or "keep", not ${typeof mode === "string" ? JSON.stringify(mode) : describe(mode)}`);
}

// What a value is, for an error message, without its own toString (which may be missing or throw).
function describe(value) {
  if (value === null || (typeof value !== "object" && typeof value !== "function")) return String(value);
  return Array.isArray(value) ? "an array" : typeof value === "object" ? "an object" : "a function";
}

/** A payload is not valid under a schema; `violations` lists the first MAX_VIOLATIONS, `omitted` counts the rest. */
export class PayloadError extends Error {
  constructor(schemaName, violations, omitted = 0) {
    const total = violations.length + omitted;
    let count = `${total} violation${total === 1 ? "" : "s"}`;
    if (omitted > 0) count += `, the first ${violations.length} shown`;
    const lines = violations.map((v) => `  ${v.path}: ${v.message}`).join("\n");
    super(`payload is not a valid ${schemaName} (${count}):\n${lines}`);
    this.name = "PayloadError";
    this.schemaName = schemaName;
    this.violations = violations;
    this.omitted = omitted;
  }
}

// The JSONPath of ajv's instancePath (a JSON Pointer) in `payload`: `[3]` where the value is an array.
// Keys are cut out of the pointer by index (no split): most paths are a few plain names.
function jsonPath(instancePath, payload) {
  if (instancePath === "") return "$";
  const escaped = instancePath.includes("~");
  let path = "$";
  let node = payload;
  let start = 1;
  while (start <= instancePath.length) {
    let end = instancePath.indexOf("/", start);
    if (end < 0) end = instancePath.length;
    let key = instancePath.slice(start, end);
    if (escaped) key = key.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(node)) {
      path += `[${key}]`;
      node = node[Number(key)];
    } else {
      path += pathStep(key, false);
      node = node !== null && typeof node === "object" ? node[key] : undefined;
    }
    start = end + 1;
  }
  if (path.length <= PATH_LIMIT || cut(path, PATH_LIMIT) !== null) return path;
  const points = Array.from(path);
  const half = PATH_LIMIT / 2;
  return `${points.slice(0, half).join("")}...${points.slice(-half).join("")}`;
}

/** The tag values of a union's branches, in `oneOf` order. `tags` (generated, validators/<family>.meta.js)
 * holds each named type's `const` properties, since a branch is a `$ref` to one. */
function tagValues(unionSchema, tag, tags) {
  const values = [];
  for (const branch of (unionSchema && unionSchema.oneOf) || []) {
    const ref = typeof branch.$ref === "string" ? branch.$ref.split("#/$defs/")[1] : undefined;
    let value;
    if (ref !== undefined) {
      const consts = Object.prototype.hasOwnProperty.call(tags, ref) ? tags[ref] : undefined;
      if (consts !== undefined && Object.prototype.hasOwnProperty.call(consts, tag)) value = consts[tag];
    } else {
      const prop = branch.properties && branch.properties[tag];
      if (prop && "const" in prop) value = prop.const;
    }
    if (value !== undefined && !values.includes(value)) values.push(value);
  }
  return values;
}

// The expected tag values of a union as a message names them, once per union (a schema object of the
// precompiled validators, which lives as long as they do) and tag.
const EXPECTED = new WeakMap();

function expectedTags(unionSchema, tag, tags) {
  const named = () => tagValues(unionSchema, tag, tags).map(pyRepr).join(", ");
  if (unionSchema === null || typeof unionSchema !== "object") return named();
  let byTag = EXPECTED.get(unionSchema);
  if (byTag === undefined) EXPECTED.set(unionSchema, (byTag = new Map()));
  let text = byTag.get(tag);
  if (text === undefined) byTag.set(tag, (text = named()));
  return text;
}

/** JSONPaths in payload order, as Python sorts them: array indexes as numbers (`[2]` before `[10]`). */
function comparePaths(a, b) {
  const x = a.split(/\[(\d+)\]/);
  const y = b.split(/\[(\d+)\]/);
  for (let i = 0; i < Math.min(x.length, y.length); i += 1) {
    const [p, q] = i % 2 ? [Number(x[i]), Number(y[i])] : [x[i], y[i]];
    if (p !== q) return p < q ? -1 : 1;
  }
  return x.length - y.length;
}

// The longest pointer whose JSONPath is never cut (PATH_LIMIT): each character of a key writes at
// most 6 (an escape), each step 4 more (`['` and `']`), so 1 + 7 * 140 characters at most.
const SHORT_POINTER = 140;

/** Two places given as pointers (ajv's instancePath) in Python's order, read along `payload`: the
 * order of their JSONPaths (comparePaths) without building them, where that order is the pointers':
 * when one place is above the other, or the first steps where they part are two indexes or two plain
 * names neither of which begins the other. Undefined otherwise (a quoted or escaped key, a name that
 * begins the other, a long pointer): the caller compares the paths. */
function comparePointers(p, q, payload) {
  if (p.length > SHORT_POINTER || q.length > SHORT_POINTER) return undefined;
  const common = Math.min(p.length, q.length);
  let k = 0;
  let step = 0; // where the step they part in starts (its `/`)
  for (; k < common && p.charCodeAt(k) === q.charCodeAt(k); k += 1) if (p.charCodeAt(k) === 47) step = k;
  if (k === common) {
    if (p.length === q.length) return 0;
    // a place above the other comes first (`$.a` before `$.a.b` and `$.a[0]`)
    if ((p.length < q.length ? q : p).charCodeAt(k) === 47) return p.length < q.length ? -1 : 1;
    return undefined; // one name begins the other
  }
  if (k === 0) return undefined; // not pointers
  const pEnd = p.indexOf("/", k);
  const qEnd = q.indexOf("/", k);
  const s = p.slice(step + 1, pEnd < 0 ? p.length : pEnd);
  const t = q.slice(step + 1, qEnd < 0 ? q.length : qEnd);
  if (DIGITS.test(s) && DIGITS.test(t) && isArrayAt(payload, p, step)) return Number(s) < Number(t) ? -1 : 1;
  if (!PLAIN_NAME.test(s) || !PLAIN_NAME.test(t) || k === step + 1 + Math.min(s.length, t.length)) return undefined;
  return s < t ? -1 : 1;
}

const DIGITS = /^[0-9]+$/;

// Whether the value at the first `end` characters of pointer `p` in `payload` is an array.
function isArrayAt(payload, p, end) {
  let node = payload;
  for (let i = 1; i <= end && node !== null && typeof node === "object"; ) {
    let stop = p.indexOf("/", i);
    if (stop < 0 || stop > end) stop = end;
    const key = p.slice(i, stop).replace(/~1/g, "/").replace(/~0/g, "~");
    node = Array.isArray(node) ? node[Number(key)] : node[key];
    i = stop + 1;
  }
  return Array.isArray(node);
}

// Whether pointer `p`, the shorter, names a place above `q`'s (`/a` above `/a/b`, not `/ab`). ajv
// builds pointers by concatenation: on those, `startsWith` cost twice what comparing a copy of `q`'s
// first characters costs (measured: a union's error against its branches', in most 3-error payloads).
function isAbove(p, q) {
  return q.charCodeAt(p.length) === 47 && q.slice(0, p.length) === p;
}

function compareText(x, y) {
  return x < y ? -1 : x > y ? 1 : 0;
}

// A key as one step of a JSON Pointer (RFC 6901).
function pointerStep(key) {
  return key.includes("~") || key.includes("/") ? key.replace(/~/g, "~0").replace(/\//g, "~1") : key;
}

// An enum's values as a message quotes them, once per enum (the schema's own array, which lives as
// long as the precompiled validators do).
const ALLOWED = new WeakMap();

function allowedText(values) {
  if (values === null || typeof values !== "object") return pyRepr(values);
  let text = ALLOWED.get(values);
  if (text === undefined) ALLOWED.set(values, (text = pyRepr(values)));
  return text;
}

// A message in Python's words for the keywords whose words differ from ajv's, else ajv's own.
function messageOf(error, tags) {
  const { keyword, params } = error;
  if (keyword === "required") return `${JSON.stringify(params.missingProperty)} is a required property`;
  if (keyword === "discriminator") {
    const { tag, tagValue } = params;
    if (tagValue === undefined) return `missing discriminator ${pyRepr(tag)}`;
    return `unknown ${tag} ${pyRepr(tagValue)}, expected one of ${expectedTags(error.parentSchema, tag, tags)}`;
  }
  if (keyword === "enum") return `${pyRepr(error.data)} is not one of ${allowedText(params.allowedValues)}`;
  if (keyword === "const") return `${pyRepr(params.allowedValue)} was expected`;
  return error.message || keyword;
}

/** One reason a payload is invalid, from one of ajv's errors (core.d.ts describes the fields).
 * Every field is read from that error when asked: building them for every error cost several times
 * what validating did, and many callers read only a verdict, a count or the first violation; `path`
 * and `message`, the costly two, are kept once made. JSON.stringify (toJSON) and console.log give
 * every field. */
class Violation {
  #error;
  #payload;
  #tags;
  #path;
  #message;

  constructor(error, payload, tags) {
    this.#error = error;
    this.#payload = payload;
    this.#tags = tags;
  }

  /** The keyword that failed. */
  get keyword() {
    return this.#error.keyword;
  }

  /** Where, as a JSON Pointer; a `required` violation is located at the missing key itself. */
  get instancePath() {
    const { keyword, instancePath, params } = this.#error;
    return keyword === "required" ? `${instancePath}/${pointerStep(params.missingProperty)}` : instancePath;
  }

  /** The failing keyword's place in the family bundle (codegen/node/standalone.cjs). */
  get schemaPath() {
    return this.#error.schemaPath;
  }

  /** ajv's params of the keyword. */
  get params() {
    return this.#error.params;
  }

  /** Where, as a JSONPath (`$.content[0]`); for `required`, the object that lacks the key. */
  get path() {
    if (this.#path === undefined) this.#path = jsonPath(this.#error.instancePath, this.#payload);
    return this.#path;
  }

  /** Why, in Python's words for `required`, `discriminator`, `enum` and `const`, else ajv's. */
  get message() {
    if (this.#message === undefined) this.#message = messageOf(this.#error, this.#tags);
    return this.#message;
  }

  toJSON() {
    const { path, message, keyword, instancePath, schemaPath, params } = this;
    return { path, message, keyword, instancePath, schemaPath, params };
  }

  // Python's order: by path (payload order), then message. Errors at one place (a union's branches)
  // are ordered without their path.
  static compare(a, b) {
    const p = a.#error.instancePath;
    const q = b.#error.instancePath;
    if (p !== q) {
      // the usual case first: a union's own error after its branches' errors below it
      if (p.length < q.length && isAbove(p, q)) return -1;
      if (q.length < p.length && isAbove(q, p)) return 1;
      const at = comparePointers(p, q, a.#payload);
      if (at !== 0) return at !== undefined ? at : comparePaths(a.path, b.path) || compareText(a.message, b.message);
    }
    return compareText(a.message, b.message);
  }
}

// Put `v` into `found`, which is kept in Python's order (Violation.compare), unless `found` says what
// `v` says already (the same message at the same place, from the same keyword) or is full; false
// then if `v` is new. Alike ones sort side by side, so a double of `v` can only be where `v` sorts
// (two keywords never word a message alike); of the two, the one whose keyword comes first in the
// bundle is kept, as in Python, whichever ajv met first. ajv's errors come mostly in order already:
// the search starts from the end, and an insertion is stable, as Python's sort.
function insert(found, v) {
  let j = found.length - 1;
  let order; // of found[j] against v, where the search stops
  for (; j >= 0 && (order = Violation.compare(found[j], v)) > 0; j -= 1);
  if (order === 0 && found[j].keyword === v.keyword) {
    if (v.schemaPath < found[j].schemaPath) found[j] = v;
    return true;
  }
  if (found.length === MAX_VIOLATIONS) return false;
  let k = found.length;
  for (; k > j + 1; k -= 1) found[k] = found[k - 1];
  found[k] = v;
  return true;
}

// console.log (Node's util.inspect) shows every field of a violation, as JSON.stringify does. The
// method is put on the class when an API that makes violations is made, not declared in the class
// body: a computed key there is a side effect to esbuild, which then keeps the class, and all it
// uses, in every bundle of the module, one type guard's included.
function showViolationsInNode() {
  Violation.prototype[Symbol.for("nodejs.util.inspect.custom")] = Violation.prototype.toJSON;
}

/**
 * The validation functions over some families' precompiled validators.
 * `families`: [{ name, all, first, tags }], where `all` maps each type name to its validator that
 * collects every error, `first` to the one that stops at the first (the same verdicts, in bounded
 * time, for `isValid`), and `tags` is the family's union tag table (see tagValues).
 */
export function makeApi(families) {
  showViolationsInNode();
  const entries = new Map();
  for (const { name: family, all, first, tags, unions = {} } of families) {
    for (const type of Object.keys(all)) {
      const union = Object.prototype.hasOwnProperty.call(unions, type) ? unions[type] : null;
      entries.set(`${family}/${type}`, { all: all[type], first: first[type], tags, union });
    }
  }
  const schemaNames = Object.freeze([...entries.keys()].sort());
  const familyNames = families.map((f) => f.name);

  // the entry asked for last (at first, any): a stream of payloads of one type looks its name up once
  let lastName = schemaNames[0];
  let lastEntry = entries.get(lastName);

  function entry(name) {
    if (typeof name !== "string") {
      const kind = name === null ? "null" : Array.isArray(name) ? "array" : typeof name;
      throw new TypeError(`a schema name is a string such as 'docent/ChatMessage', not ${kind}`);
    }
    if (name === lastName) return lastEntry;
    const found = entries.get(name);
    if (found === undefined) throw new UnknownSchemaError(name, schemaNames, familyNames);
    lastName = name;
    lastEntry = found;
    return found;
  }

  // Whether the named schema is a union, `options` keep unknown variants, and `payload` is one.
  function keptUnknown(name, payload, options) {
    const { union } = entry(name);
    return keepsUnknown(options) && union !== null && isUnknownVariant(payload, union.tag, union.known);
  }

  // The violations of `payload`, at most MAX_VIOLATIONS; `count.omitted`, when a count is given,
  // says how many more there are (validate's message), so that violations() allocates no record.
  function listedViolations(name, payload, options, count = null) {
    const { all, tags } = entry(name);
    if (options !== undefined && keptUnknown(name, payload, options)) return [];
    // the all-errors validator gives the verdict too: for an invalid payload, one pass instead of two
    const verdict = accepts(all, payload);
    if (verdict === true) return nestedTooDeep(payload) ? [tooDeep()] : [];
    if (verdict === undefined) return [tooDeep()];
    const errors = all.errors;
    if (errors.length === 1) return [new Violation(errors[0], payload, tags)];
    const found = [];
    let omitted = 0;
    for (let i = 0; i < errors.length; i += 1) {
      if (!insert(found, new Violation(errors[i], payload, tags))) omitted += 1;
    }
    if (count !== null) count.omitted = omitted;
    return found;
  }

  /** Return `payload` unchanged if it is valid under the named schema; throw PayloadError otherwise.
   * `options.unknown: "keep"`: an unknown variant of a union is returned as it is. */
  function validate(name, payload, options) {
    const count = { omitted: 0 };
    const found = listedViolations(name, payload, options, count);
    if (found.length > 0) throw new PayloadError(name, found, count.omitted);
    return payload;
  }

  return {
    schemaNames,
    /** The precompiled validate function of a named type, collecting every error in `.errors`. */
    validator: (name) => entry(name).all,
    /** Whether `payload` is valid under the named schema; stops at the first error. */
    isValid: (name, payload, options) => {
      const { first } = entry(name);
      if (options !== undefined && keptUnknown(name, payload, options)) return true;
      return isAccepted(first, payload);
    },
    /** The violations of `payload` (at most MAX_VIOLATIONS, sorted by path); empty if it is valid. */
    violations: (name, payload, options) => listedViolations(name, payload, options),
    validate,
    parse: validate,
  };
}
