import type { Ajv2020 } from "ajv/dist/2020.js";

/**
 * A new Ajv2020 instance with the project's options (strict, discriminator, formats, the project's
 * date-time rule) and no schemas, for compiling schemas at run time. The package's own validators
 * are precompiled and do not use it. `allErrors: false` stops at the first error.
 */
export declare function createAjv(allErrors?: boolean): Ajv2020;
