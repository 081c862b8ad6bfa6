// The validation API over precompiled validators (ajv standalone code generated at codegen time,
// validators/<family>.js): nothing is compiled at run time and nothing uses eval. index.js builds
// it over every family, letta.js (and each other family module) over its own.

const SHORT_LIMIT = 100; // characters of a value quoted in a message, as schemas.short_repr in Python

// Characters Python's repr escapes in a string: control characters, DEL, C1 controls, lone surrogates.
const UNPRINTABLE = /[\x00-\x1f\x7f-\x9f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const NAMED_ESCAPES = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

function escapeUnprintable(char) {
  if (NAMED_ESCAPES[char]) return NAMED_ESCAPES[char];
  const code = char.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16)}`;
}

/** A value as Python's repr writes it, so that messages read the same as chatschema's Python ones,
 * cut to about SHORT_LIMIT characters with `...` whatever its size or depth (never a stack overflow). */
function pyRepr(value) {
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
 * does): Python's rule, checked before the validators run, which would overflow the stack first. */
export function nestedTooDeep(value) {
  if (value === null || typeof value !== "object") return false;
  const stack = [value];
  const levels = [1]; // the level of each container on the stack: 1 for the payload itself
  while (stack.length > 0) {
    const item = stack.pop();
    const level = levels.pop();
    if (level > MAX_DEPTH) return true;
    // only containers are stacked; `for...in` over an object allocates nothing (Object.values would)
    if (Array.isArray(item)) {
      for (let i = 0; i < item.length; i++) {
        const child = item[i];
        if (child !== null && typeof child === "object") {
          stack.push(child);
          levels.push(level + 1);
        }
      }
    } else {
      for (const key in item) {
        const child = item[key];
        if (child !== null && typeof child === "object") {
          stack.push(child);
          levels.push(level + 1);
        }
      }
    }
  }
  return false;
}

const TOO_DEEP = Object.freeze({ path: "$", message: `nesting too deep: more than ${MAX_DEPTH} levels`, keyword: "maxDepth" });

/** At most this many violations are listed per payload (as in Python); the others are counted. */
export const MAX_VIOLATIONS = 20;

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

function jsonPath(instancePath, payload) {
  let path = "$";
  let node = payload;
  if (!instancePath) return path;
  for (const raw of instancePath.split("/").slice(1)) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    const isIndex = Array.isArray(node);
    path += pathStep(key, isIndex);
    node = isIndex ? node[Number(key)] : node !== null && typeof node === "object" ? node[key] : undefined;
  }
  if (cut(path, PATH_LIMIT) !== null) return path;
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

function toViolation(error, payload, tags) {
  let path = jsonPath(error.instancePath, payload);
  let message = error.message || error.keyword;
  if (error.keyword === "required") {
    message = `${JSON.stringify(error.params.missingProperty)} is a required property`;
  } else if (error.keyword === "discriminator") {
    const { tag, tagValue } = error.params;
    if (tagValue === undefined) {
      message = `missing discriminator ${pyRepr(tag)}`;
    } else {
      const expected = tagValues(error.parentSchema, tag, tags);
      message = `unknown ${tag} ${pyRepr(tagValue)}, expected one of ${expected.map(pyRepr).join(", ")}`;
    }
  } else if (error.keyword === "enum") {
    message = `${pyRepr(error.data)} is not one of ${pyRepr(error.params.allowedValues)}`;
  } else if (error.keyword === "const") {
    message = `${pyRepr(error.params.allowedValue)} was expected`;
  }
  return { path, message, keyword: error.keyword };
}

/**
 * The validation functions over some families' precompiled validators.
 * `families`: [{ name, all, first, tags }], where `all` maps each type name to its validator that
 * collects every error, `first` to the one that stops at the first (the same verdicts, in bounded
 * time, for `isValid`), and `tags` is the family's union tag table (see tagValues).
 */
export function makeApi(families) {
  const entries = new Map();
  for (const { name: family, all, first, tags } of families) {
    for (const type of Object.keys(all)) entries.set(`${family}/${type}`, { all: all[type], first: first[type], tags });
  }
  const schemaNames = Object.freeze([...entries.keys()].sort());
  const familyNames = families.map((f) => f.name);

  function entry(name) {
    if (typeof name !== "string") {
      const kind = name === null ? "null" : Array.isArray(name) ? "array" : typeof name;
      throw new TypeError(`a schema name is a string such as 'docent/ChatMessage', not ${kind}`);
    }
    const found = entries.get(name);
    if (found === undefined) throw new UnknownSchemaError(name, schemaNames, familyNames);
    return found;
  }

  function counted(name, payload) {
    const { all, first, tags } = entry(name);
    if (nestedTooDeep(payload)) return { found: [{ ...TOO_DEEP }], omitted: 0 };
    if (first(payload) === true) return { found: [], omitted: 0 };
    all(payload);
    const seen = new Set();
    const found = [];
    let omitted = 0;
    for (const error of all.errors || []) {
      const v = toViolation(error, payload, tags);
      const key = `${v.path}\u0000${v.message}`;
      if (seen.has(key)) continue;
      if (found.length < MAX_VIOLATIONS) {
        seen.add(key);
        found.push(v);
      } else {
        omitted += 1;
      }
    }
    found.sort((a, b) => comparePaths(a.path, b.path) || (a.message < b.message ? -1 : a.message > b.message ? 1 : 0));
    return { found, omitted };
  }

  /** Return `payload` unchanged if it is valid under the named schema; throw PayloadError otherwise. */
  function validate(name, payload) {
    const { found, omitted } = counted(name, payload);
    if (found.length > 0) throw new PayloadError(name, found, omitted);
    return payload;
  }

  return {
    schemaNames,
    /** The precompiled validate function of a named type, collecting every error in `.errors`. */
    validator: (name) => entry(name).all,
    /** Whether `payload` is valid under the named schema; stops at the first error. */
    isValid: (name, payload) => {
      const { first } = entry(name);
      return !nestedTooDeep(payload) && first(payload) === true;
    },
    /** The violations of `payload` (at most MAX_VIOLATIONS, sorted by path); empty if it is valid. */
    violations: (name, payload) => counted(name, payload).found,
    validate,
    parse: validate,
  };
}
