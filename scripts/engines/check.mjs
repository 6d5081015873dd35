// check.mjs SITE DOCS: serve SITE on 127.0.0.1, open SITE/one/page.html in
// headless Chromium (playwright-core from $ENGINES), run the snippets
// docs/batch.md marks with "engine-snippet" through the page's checks and
// print one line per check. Run by check.sh.
import fs from "node:fs"
import http from "node:http"
import path from "node:path"
import {createRequire} from "node:module"

const [site, docs] = process.argv.slice(2)
const require = createRequire(path.join(process.env.ENGINES || "/tmp/engines", "package.json"))
const {chromium} = require("playwright-core")

const md = fs.readFileSync(docs, "utf8")
const snippets = {}
for (const m of md.matchAll(/<!-- engine-snippet: ([\w-]+) -->\s*```js\n([\s\S]*?)```/g)) snippets[m[1]] = m[2]
for (const k of ["phaser-atlas", "phaser-aseprite", "pixi"]) {
  if (!snippets[k]) throw new Error(`${docs}: no engine-snippet ${k}`)
}

const types = {".html": "text/html", ".js": "text/javascript", ".json": "application/json", ".png": "image/png"}
const root = path.resolve(site)
const server = http.createServer((req, res) => {
  const p = path.resolve(root, "." + decodeURIComponent(new URL(req.url, "http://127.0.0.1").pathname))
  if (!p.startsWith(root + path.sep) || !fs.existsSync(p) || !fs.statSync(p).isFile()) {
    res.writeHead(404).end()
    return
  }
  res.writeHead(200, {"Content-Type": types[path.extname(p)] || "application/octet-stream"})
  fs.createReadStream(p).pipe(res)
})
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve))
const url = `http://127.0.0.1:${server.address().port}/one/page.html`

const browser = await chromium.launch({executablePath: process.env.CHROMIUM || "/usr/bin/chromium", args: [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
  "--disable-component-update", "--disable-sync", "--enable-unsafe-swiftshader"]})
let failed = 0
try {
  const page = await browser.newPage()
  const errors = []
  page.on("pageerror", (e) => errors.push(e.message))
  await page.goto(url)
  const results = await page.evaluate((s) => runChecks(s), snippets)
  const byEngine = {}
  for (const r of results) {
    if (!r.ok) failed++
    const e = (byEngine[r.engine] ||= {ok: 0, n: 0, frames: 0, worst: 0})
    e.n++
    if (r.ok) e.ok++
    // Frames are many: one line per engine sums them up, failures are listed.
    if (r.check.startsWith("pixels+pivot")) {
      e.frames++
      e.worst = Math.max(e.worst, Number(r.detail.split(" ")[0]))
      if (r.ok) continue
    }
    console.log(`${r.ok ? "ok  " : "FAIL"} ${r.engine.padEnd(16)} ${r.check.padEnd(24)} ${r.detail}`)
  }
  for (const [engine, e] of Object.entries(byEngine)) {
    console.log(`${e.ok === e.n ? "ok  " : "FAIL"} ${engine.padEnd(16)} ${"pixels+pivot".padEnd(24)} ${e.frames} frames placed by their pivots on one point, at most ${e.worst} pixels of a frame differing`)
  }
  for (const e of errors) {
    console.log(`FAIL page error: ${e}`)
    failed++
  }
  console.log(`summary: ${results.length} checks, ${results.length - failed} passed, ${failed} failed`)
} finally {
  await browser.close()
  server.close()
}
process.exit(failed ? 1 : 0)
