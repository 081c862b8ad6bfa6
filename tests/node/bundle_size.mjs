// What a production build of an app takes from the installed package, with esbuild and with Rollup
// (node-resolve and terser, as Vite builds): run in a consumer project whose node_modules holds the
// package and both bundlers. Each app's two bundles are measured, then run in Node.
// stdin: {"<label>": "<ES module source importing chatschema>"}
// stdout: {"<label>": {"esbuild": {"bytes", "gzip", "explains", "stdout"}, "rollup": {...}}}: minified
// and gzip bytes, whether it holds the code that words violations (core.js messageOf), and what the
// bundle printed
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import * as esbuild from "esbuild";
import { rollup } from "rollup";
import { nodeResolve } from "@rollup/plugin-node-resolve";
import terser from "@rollup/plugin-terser";

async function withEsbuild(entry) {
  const result = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    define: { "process.env.NODE_ENV": '"production"' },
    write: false,
    logLevel: "silent",
  });
  return result.outputFiles[0].text;
}

async function withRollup(entry) {
  const bundle = await rollup({
    input: entry,
    plugins: [nodeResolve({ browser: true, exportConditions: ["production"] })],
    onwarn(warning) {
      throw new Error(`rollup: ${warning.message}`);
    },
  });
  try {
    const { output } = await bundle.generate({ format: "es", plugins: [terser()] });
    return output[0].code;
  } finally {
    await bundle.close();
  }
}

const BUNDLERS = { esbuild: withEsbuild, rollup: withRollup };

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const apps = JSON.parse(Buffer.concat(chunks).toString("utf8"));
// the apps sit in the project, so that `chatschema` resolves from its node_modules (exports map)
const dir = mkdtempSync(path.join(process.cwd(), "apps-"));
const out = {};
try {
  for (const [i, [label, source]] of Object.entries(apps).entries()) {
    const entry = path.join(dir, `${i}.mjs`);
    writeFileSync(entry, source);
    out[label] = {};
    for (const [name, build] of Object.entries(BUNDLERS)) {
      const code = Buffer.from(await build(entry), "utf8");
      const bundled = path.join(dir, `${i}.${name}.mjs`);
      writeFileSync(bundled, code);
      const stdout = execFileSync(process.execPath, [bundled], { encoding: "utf8" });
      const explains = code.includes("is a required property");
      out[label][name] = { bytes: code.length, gzip: gzipSync(code, { level: 9 }).length, explains, stdout };
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.stdout.write(JSON.stringify(out));
