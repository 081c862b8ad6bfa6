// What a bundler includes for each entry point of the npm package: esbuild (pinned in codegen/node)
// bundles a one-line app, minified; prints bytes, gzip bytes and whether ajv's compiler came along.
// stdin: {"package": "<npm>", "apps": {"<label>": "<ES module source>"}}
// The source imports the package as "chatschema", resolved as an installed package (exports map).
"use strict";
const esbuild = require("esbuild");
const fs = require("fs");
const os = require("os");
const path = require("path");
const zlib = require("zlib");

async function main() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  const input = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  const app = fs.mkdtempSync(path.join(os.tmpdir(), "chatschema-size-"));
  fs.mkdirSync(path.join(app, "node_modules"));
  fs.symlinkSync(path.resolve(input.package), path.join(app, "node_modules", "chatschema"), "dir");
  const out = {};
  for (const [label, contents] of Object.entries(input.apps)) {
    const result = await esbuild.build({
      stdin: { contents, resolveDir: app, loader: "js" },
      bundle: true,
      minify: true,
      write: false,
      format: "esm",
      platform: "browser",
      nodePaths: (process.env.NODE_PATH || "").split(require("path").delimiter).filter(Boolean),
      logLevel: "silent",
    });
    const code = result.outputFiles[0].contents;
    const text = Buffer.from(code).toString("utf8");
    out[label] = {
      bytes: code.length,
      gzip: zlib.gzipSync(code, { level: 9 }).length,
      ajvCompiler: text.includes("strict mode: "),
      newFunction: /new Function|\beval\(/.test(text),
    };
  }
  fs.rmSync(app, { recursive: true, force: true });
  process.stdout.write(JSON.stringify(out));
}

main().catch((err) => {
  process.stderr.write(`size: ${err && err.stack ? err.stack : err}\n`);
  process.exit(1);
});
