// The helpers the package's validators call for JSON Schema keywords, with the verdicts Python's
// jsonschema gives: ajv's standalone code would `require` its own copies from ajv's runtime,
// which the precompiled validators do not load (codegen/node/standalone.cjs points them here).

/** A string's length in Unicode code points, as JSON Schema counts it (a surrogate pair is one). */
export function ucs2length(str) {
  let length = 0;
  for (let pos = 0; pos < str.length; pos++) {
    const unit = str.charCodeAt(pos);
    if (unit >= 0xd800 && unit <= 0xdbff && pos + 1 < str.length && (str.charCodeAt(pos + 1) & 0xfc00) === 0xdc00) pos++;
    length++;
  }
  return length;
}

/** JSON equality: numbers by value (1 and 1.0 are one number), objects whatever their key order. */
export function equal(a, b) {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === b.length && a.every((item, i) => equal(item, b[i]));
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.prototype.hasOwnProperty.call(b, key) && equal(a[key], b[key]));
}

// A finite double as odd mantissa * 2**exponent (BigInt, number); 0 as [0n, 0].
function binary(value) {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(value));
  const bits = view.getBigUint64(0);
  const biased = Number(bits >> 52n);
  let mantissa = bits & 0xfffffffffffffn;
  let exponent = biased === 0 ? -1074 : biased - 1075;
  if (biased !== 0) mantissa |= 1n << 52n;
  if (mantissa === 0n) return [0n, 0];
  while ((mantissa & 1n) === 0n) {
    mantissa >>= 1n;
    exponent++;
  }
  return [mantissa, exponent];
}

/** Whether `value` is a multiple of `step`, as Python's jsonschema decides: an integer step by the
 * remainder, a fractional one by the quotient's being whole (0.3 / 0.1 is 2.9999999999999996, so
 * 0.3 is not a multiple of 0.1 there, nor here) or, where the quotient overflows (1e308 / 0.5),
 * exactly. Python reads `2.0` as a fractional step: lint asks for `2`, so the two cannot differ. */
export function multipleOf(value, step) {
  if (Number.isInteger(step)) return value % step === 0;
  const quotient = value / step;
  if (Number.isFinite(quotient)) return Math.trunc(quotient) === quotient;
  const [vm, ve] = binary(value);
  const [sm, se] = binary(step);
  return vm % sm === 0n && ve >= se; // both mantissas odd: the quotient is whole iff these hold
}
