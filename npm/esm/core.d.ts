// Declarations shared by the package's entry points (index.d.ts and each family's, e.g. letta.d.ts).

/**
 * One reason a payload is invalid: where (a JSONPath into the payload), why, and the JSON Schema
 * keyword, then as ajv says it: a JSON Pointer into the payload and one into the schema, and the
 * keyword's params. Python's `Violation.to_json()` and `chatschema validate --format json` give the
 * same fields. Each field is read from ajv's error when asked (a getter; `path` and `message` are
 * kept once made): `JSON.stringify` gives every field, and so does `console.log`, but a spread or a
 * structured clone (`postMessage` to a worker) does not copy them: send
 * `JSON.parse(JSON.stringify(violations))`.
 */
export interface Violation {
  /** Where, for people: a JSONPath such as `$.tool_calls[0].arguments`; for `required`, the object lacking the key. */
  readonly path: string;
  /** Why, in Python's words for `required`, `discriminator`, `enum` and `const`, else ajv's. */
  readonly message: string;
  /** The keyword that failed: `type`, `required`, `discriminator`, ..., or `maxDepth` (the package's depth rule). */
  readonly keyword: string;
  /**
   * Where, for programs: an RFC 6901 JSON Pointer into the payload (`/tool_calls/0/arguments`, `""` for
   * the payload itself). A `required` violation points at the missing key itself (`/content`).
   */
  readonly instancePath: string;
  /**
   * The failing keyword's place in the family's bundled schema (`schemas/<family>.bundle.json` in the
   * package), as a URI fragment: `#/$defs/ToolCall/properties/arguments/type`. Empty for `maxDepth`.
   */
  readonly schemaPath: string;
  /**
   * ajv's params of the keyword: `{ missingProperty }` (required), `{ type }`, `{ allowedValues }`
   * (enum), `{ allowedValue }` (const), `{ pattern }`, `{ format }`, `{ limit }`, `{ additionalProperty }`,
   * `{ error, tag, tagValue }` (discriminator), `{ limit }` (maxDepth), `{}` for unions and `not`.
   */
  readonly params: Readonly<Record<string, unknown>>;
}

/** A payload is not valid under a schema; `violations` lists the violations. */
export declare class PayloadError extends Error {
  readonly schemaName: string;
  /** The first MAX_VIOLATIONS violations, sorted by path. */
  readonly violations: Violation[];
  /** Violations beyond the first MAX_VIOLATIONS, counted only. */
  readonly omitted: number;
}

/** No schema has this name; the message names the closest ones ("did you mean ..."), as in Python. */
export declare class UnknownSchemaError extends Error {
  readonly schemaName: string;
  readonly closeMatches: string[];
}

/** At most this many violations are listed per payload; the others are counted in `PayloadError.omitted`. */
export declare const MAX_VIOLATIONS: number;

/** A payload nested deeper than this (arrays and objects) is not valid: one violation, `nesting too deep`. */
export declare const MAX_DEPTH: number;

/** Whether `value` nests arrays and objects more than MAX_DEPTH levels deep (one that holds itself does). */
export declare function nestedTooDeep(value: unknown): boolean;

/** Whether a validator accepts `value` and the depth rule does too (the rule walks only what the validator accepts). */
export declare function isAccepted(validate: (value: unknown) => boolean, value: unknown): boolean;

/** Up to `n` of `names` closest to `word` (ratio at least `cutoff`), as Python's difflib.get_close_matches. */
export declare function closeMatches(word: string, names: readonly string[], n?: number, cutoff?: number): string[];

/** A precompiled validate function: true or false, with ajv's `errors` after a failure. */
export interface ValidateFunction {
  (payload: unknown): boolean;
  errors?: unknown[] | null;
}

declare const unknownVariant: unique symbol;

/**
 * A payload of a tagged union whose tag (`Tag`) is a string no branch has: a type from a later
 * release, which the validation functions and the union guards accept with `{ unknown: "keep" }`.
 * The mark (a type-only property no value has) keeps it apart from every known type, so narrowing
 * on a known tag never yields it: handle it first (`isUnknownX`), or last, as `assertNever` would.
 */
export type UnknownVariant<Tag extends string> = { readonly [K in Tag]: string } & {
  readonly [key: string]: unknown;
  readonly [unknownVariant]: Tag;
};

/** What a validation function does with an unknown variant of a union: "error" (the default) or "keep". */
export interface UnknownOptions {
  unknown?: "error" | "keep";
}

/** Whether `value` is an object whose own `tag` is a string none of `known`. */
export declare function isUnknownVariant(value: unknown, tag: string, known: readonly string[]): boolean;

/** Whether `options` keep unknown variants; a TypeError for a mode other than "error" and "keep". */
export declare function keepsUnknown(options: UnknownOptions | null | undefined): boolean;

declare const validated: unique symbol;

/**
 * What a guard narrows to: the input's type and the schema's type, marked as checked at run time.
 * The mark (a type-only property no value has) keeps the guard's false branch at the input's type:
 * the schemas check more than the types say (formats, patterns, bounds), so a value typed
 * `ToolCallMessage` may still fail `isToolCallMessage`.
 */
export type Valid<T, S> = T & S & { readonly [validated]: S };
