// Drive Debian's Chromium (headless, fresh profile) with playwright-core: open each URL given on
// stdin, wait until the page has left its result in the named global, print every result.
// stdin: {"executable": "/usr/bin/chromium", "pages": [{"url", "global"}], "timeout_ms": 60000}
// stdout: [{"result", "csp_violations", "page_errors"}]
"use strict";
const { chromium } = require("playwright-core");

const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

async function main() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  const input = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  // launch() gives every run a fresh temporary profile (user-data-dir), removed on close.
  const browser = await chromium.launch({ executablePath: input.executable, args: ARGS });
  try {
    const out = [];
    for (const { url, global } of input.pages) {
      const page = await browser.newPage();
      const pageErrors = [];
      page.on("pageerror", (err) => pageErrors.push(String(err)));
      await page.goto(url);
      await page.waitForFunction((name) => window[name] !== undefined, global, { timeout: input.timeout_ms });
      const [result, cspViolations] = await page.evaluate((name) => [window[name], window.__cspViolations], global);
      out.push({ result, csp_violations: cspViolations, page_errors: pageErrors });
      await page.close();
    }
    process.stdout.write(JSON.stringify(out));
  } finally {
    await browser.close();
  }
}

main().catch((err) => {
  process.stderr.write(`browser: ${err && err.stack ? err.stack : err}\n`);
  process.exit(1);
});
