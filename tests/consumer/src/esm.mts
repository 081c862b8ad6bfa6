// The package used from an ES module in Node (compiled with module nodenext, run as out/esm.mjs by
// tests/test_ts_consumer.py): named, namespace and family imports must exist at run time, not only
// in the types (`import { letta } from "chatschema"` once type-checked and then crashed).
import { isValid, validate, violations, PayloadError, letta } from "chatschema";
import * as chatschema from "chatschema";
import * as stream from "chatschema/stream";
import * as lettaEntry from "chatschema/letta";
import report from "./report.cjs";

console.log(report(chatschema, { isValid, validate, violations, PayloadError, letta }, stream, lettaEntry));
