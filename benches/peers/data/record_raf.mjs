// Records requestAnimationFrame stamps of a blank page with a canvas in the system's headless
// Chromium: RUNS (5) fresh pages of SECS (10) s each, one stamp (ms, as rAF passes it) a line,
// to chromium-raf-N.txt. The files beside this script were recorded with it (Chromium
// 156.0.8078.129, Debian 12, on the project's shared 2-core machine); the peers bench's
// defaults table replays them. It needs puppeteer-core: copy it into examples/web, run
// `npm ci` there, then `node record_raf.mjs` (with CHROMIUM=/path if not /usr/bin/chromium).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import puppeteer from 'puppeteer-core';
const RUNS = Number(process.env.RUNS ?? 5), SECS = Number(process.env.SECS ?? 10);
const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
    `--user-data-dir=${fs.mkdtempSync(path.join(os.tmpdir(), 'defaults-chromium-'))}`],
});
for (let r = 0; r < RUNS; r++) {
  const page = await browser.newPage();
  await page.setContent('<html><body><canvas id=c width=800 height=450></canvas></body></html>');
  const stamps = await page.evaluate((secs) => new Promise((ok) => {
    const out = [];
    const ctx = document.getElementById('c').getContext('2d');
    const f = (t) => {
      out.push(t);
      ctx.fillRect(out.length % 800, 0, 1, 1);
      if (t - out[0] < secs * 1000) requestAnimationFrame(f); else ok(out);
    };
    requestAnimationFrame(f);
  }), SECS);
  fs.writeFileSync(`chromium-raf-${r}.txt`, stamps.join('\n') + '\n');
  const d = stamps.slice(1).map((t, i) => t - stamps[i]);
  d.sort((a, b) => a - b);
  console.log(`run ${r}: ${stamps.length} frames, delta median ${d[d.length >> 1].toFixed(3)} ms, min ${d[0].toFixed(3)}, max ${d[d.length - 1].toFixed(3)}`);
  await page.close();
}
await browser.close();
