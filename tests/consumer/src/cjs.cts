// The package used from CommonJS (compiled to out/cjs.cjs): the same report as esm.mts.
import chatschema = require("chatschema");
import stream = require("chatschema/stream");
import lettaEntry = require("chatschema/letta");
import report = require("./report.cjs");

const { isValid, validate, violations, PayloadError, letta } = chatschema;
console.log(report(chatschema, { isValid, validate, violations, PayloadError, letta }, stream, lettaEntry));
