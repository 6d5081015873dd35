// gallery-check.mjs SMALL BIG SHOTS MODELS: open the gallery SMALL (a
// rendered batch) and BIG (MODELS models) from disk in headless Chromium
// (playwright-core from $PLAYWRIGHT) and check them; print one line per
// check and a summary; save screenshots into SHOTS. Run by
// gallery-check.sh.
import path from "node:path"
import {createRequire} from "node:module"
import {pathToFileURL} from "node:url"

const [small, big, shots, models] = process.argv.slice(2)
const require = createRequire(path.join(process.env.PLAYWRIGHT || "/tmp/engines", "package.json"))
const {chromium} = require("playwright-core")

let passed = 0, failed = 0
function check(name, ok, detail) {
  console.log(`${ok ? "ok  " : "FAIL"} ${name.padEnd(44)} ${detail}`)
  if (ok) passed++
  else failed++
}

const browser = await chromium.launch({executablePath: process.env.CHROMIUM || "/usr/bin/chromium", args: [
  "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
  "--disable-component-update", "--disable-sync", "--allow-file-access-from-files"]})

// overflow reports how far the page scrolls sideways, and which element
// sticks out furthest.
const overflow = () => {
  const doc = document.documentElement
  let worst = null, right = doc.clientWidth
  for (const el of document.querySelectorAll("body *")) {
    const r = el.getBoundingClientRect()
    if (r.width > 0 && r.right > right + 0.5) { right = r.right; worst = el }
  }
  return {scroll: doc.scrollWidth - doc.clientWidth, worst: worst ? `${worst.tagName.toLowerCase()}.${worst.className} ${Math.round(right)}px` : ""}
}

try {
  for (const [label, width, height] of [["desktop", 1280, 900], ["phone", 390, 844]]) {
    const page = await browser.newPage({viewport: {width, height}})
    const errors = []
    page.on("pageerror", (e) => errors.push(e.message))
    await page.goto(pathToFileURL(small).href, {waitUntil: "load"})
    await page.evaluate(() => Promise.all([...document.images].map((i) => (i.loading = "eager", i.decode().catch(() => {})))))
    let o = await page.evaluate(overflow)
    check(`small gallery, ${label} ${width} px`, o.scroll <= 0, `scrolls ${o.scroll} px sideways ${o.worst}`)
    await page.screenshot({path: path.join(shots, `small-${label}.png`), fullPage: true})
    await page.evaluate(() => document.querySelectorAll("details").forEach((d) => d.open = true))
    o = await page.evaluate(overflow)
    check(`small gallery unfolded, ${label} ${width} px`, o.scroll <= 0, `scrolls ${o.scroll} px sideways ${o.worst}`)
    await page.screenshot({path: path.join(shots, `small-${label}-unfolded.png`), fullPage: true})
    await page.evaluate(() => document.querySelector("details.warn")?.scrollIntoView())
    await page.screenshot({path: path.join(shots, `small-${label}-warnings.png`)})
    if (label === "desktop") {
      const info = await page.evaluate(() => ({
        title: document.title,
        cards: document.querySelectorAll(".card").length,
        previews: document.querySelectorAll(".previews img").length,
        broken: [...document.images].filter((i) => i.complete && i.naturalWidth === 0).map((i) => i.getAttribute("src")),
        names: [...document.querySelectorAll(".card .name")].map((e) => e.textContent),
      }))
      check("title names a version", /^mdxrender \S/.test(info.title) && !/ dev\b/.test(info.title), info.title)
      check("sheets and animations shown", info.previews > 0, `${info.previews} previews as pictures on ${info.cards} cards`)
      check("no broken picture", info.broken.length === 0, info.broken.slice(0, 3).join(", ") || "every picture decodes")
      const arch = info.names.filter((n) => n.endsWith("Archway.mdx"))
      check("two Archway.mdx told apart", arch.length === 2 && arch[0] !== arch[1], arch.join(" | "))
      await page.fill("#q", "archway")
      let vis = await page.evaluate(() => [...document.querySelectorAll(".card")].filter((c) => !c.hidden).map((c) => c.querySelector(".name").textContent))
      check("filter by name", vis.length === 2 && vis.every((n) => n.toLowerCase().includes("archway")), `"archway" shows ${vis.join(", ")}`)
      await page.screenshot({path: path.join(shots, "small-filtered.png")})
      await page.fill("#q", "")
      await page.selectOption("#st", "failed")
      vis = await page.evaluate(() => [...document.querySelectorAll(".card")].filter((c) => !c.hidden).map((c) => c.dataset.status))
      check("filter by status", vis.length >= 1 && vis.every((s) => s === "failed"), `"failed" shows ${vis.length} cards: ${vis.join(", ")}`)
    }
    check(`no script error, ${label}`, errors.length === 0, errors.join("; ") || "none")
    await page.close()
  }

  // The large gallery: how long it takes to open, from a fresh page to
  // its load event and to its first paint, and the filter across pages.
  const page = await browser.newPage({viewport: {width: 1280, height: 900}})
  const errors = []
  page.on("pageerror", (e) => errors.push(e.message))
  const t0 = Date.now()
  await page.goto(pathToFileURL(big).href, {waitUntil: "load"})
  const loadMs = Date.now() - t0
  const nav = await page.evaluate(() => {
    const n = performance.getEntriesByType("navigation")[0]
    const p = performance.getEntriesByName("first-contentful-paint")[0]
    return {dom: Math.round(n.domContentLoadedEventEnd), load: Math.round(n.loadEventEnd), paint: p ? Math.round(p.startTime) : -1,
      cards: document.querySelectorAll(".card").length, bytes: document.documentElement.outerHTML.length}
  })
  check(`${models}-model gallery opens`, loadMs < 2000 && nav.cards > 0,
    `${loadMs} ms to its load event (first paint ${nav.paint} ms, DOM ${nav.dom} ms), ${nav.cards} cards, ${(nav.bytes / 1e6).toFixed(1)} MB of page`)
  await page.screenshot({path: path.join(shots, "big-desktop.png")})
  const want = `m${String(Number(models) - 3).padStart(7, "0")}`
  await page.fill("#q", want)
  await page.waitForSelector("#elsewhere li a", {timeout: 20000}).catch(() => {})
  const found = await page.evaluate(() => [...document.querySelectorAll("#elsewhere li a")].map((a) => [a.textContent, a.getAttribute("href")]))
  check("filter across pages", found.length === 1 && found[0][0].includes(want), found.map((f) => f.join(" -> ")).join("; ") || "no match listed")
  await page.screenshot({path: path.join(shots, "big-filtered.png")})
  if (found.length) {
    await page.click("#elsewhere li a")
    await page.waitForLoadState("load")
    const at = await page.evaluate(() => location.hash && document.querySelector(location.hash)?.querySelector(".name")?.textContent)
    check("a match links to its card", (at || "").includes(want), `${page.url().split("/").pop()} shows ${at}`)
  }
  await page.setViewportSize({width: 390, height: 844})
  const o = await page.evaluate(overflow)
  check("large gallery, phone 390 px", o.scroll <= 0, `scrolls ${o.scroll} px sideways ${o.worst}`)
  check("no script error, large gallery", errors.length === 0, errors.join("; ") || "none")
} finally {
  await browser.close()
}
console.log(`summary: ${passed + failed} checks, ${passed} passed, ${failed} failed`)
process.exit(failed ? 1 : 0)
