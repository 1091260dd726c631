// Opens the web demo (examples/web/www, built by build.sh) in the system's headless Chromium and
// checks it from the page's own counters: 20 Hz ticks within 1 %, alpha in [0, 1], no console
// error; hides the page and checks each rule for hidden tabs exactly; a panic in the game's
// update reaches the console; a resize goes on drawing. Exits non-zero on any failure.
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import puppeteer from 'puppeteer-core';

const www = path.join(path.dirname(new URL(import.meta.url).pathname), 'www');
const TICK_HZ = 20;
const types = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm' };
const server = http.createServer((req, res) => {
  const file = path.join(www, new URL(req.url, 'http://x').pathname.replace(/\/$/, '/index.html'));
  fs.readFile(file, (err, body) => {
    if (err) { res.writeHead(404); res.end(); return; }
    res.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' });
    res.end(body);
  });
});
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
const base = `http://127.0.0.1:${server.address().port}/`;

const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
    `--user-data-dir=${fs.mkdtempSync(path.join(os.tmpdir(), 'tickfold-chromium-'))}`],
});
let failures = 0;
const check = (ok, what) => { console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`); if (!ok) failures += 1; };
const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

/** The counters (data-* of #counters) and the page's performance.now(), read at once. */
const read = (page) => page.evaluate(() => {
  const line = document.getElementById('counters');
  const out = { now: performance.now(), visibility: document.visibilityState };
  for (const a of line.attributes) if (a.name.startsWith('data-')) out[a.name.slice(5)] = a.value;
  for (const k of ['ticks', 'frames', 'drops', 'paused', 'resumed', 'hidden-ticks', 'backwards'])
    out[k] = Number(out[k] ?? NaN);
  return out;
});

async function open(query) {
  const page = await browser.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.setViewport({ width: 800, height: 450 });
  await page.goto(base + query);
  await page.waitForFunction(() => Number(document.getElementById('counters').dataset.frames) > 5);
  return { page, errors };
}

/** Hides the page behind another tab in front, for `ms`, then shows it again. */
async function hide(page, ms) {
  const cover = await browser.newPage();
  await cover.bringToFront();
  await page.waitForFunction(() => document.visibilityState === 'hidden', { timeout: 5000 });
  const hidden = await read(page);
  await sleep(ms);
  const before = await read(page);
  await page.bringToFront();
  await page.waitForFunction(() => document.visibilityState === 'visible', { timeout: 5000 });
  await cover.close();
  return { hidden, before };
}

// 1. The default rule (pause): the rate, alpha, no errors; then hidden 3 s.
{
  const { page, errors } = await open('');
  check((await read(page))['hidden-mode'] === 'Pause', 'the default rule for hidden tabs is Pause');
  check(Number((await read(page))['runner-clock']) >= 0, "the runner's RealNanos reads the time in the browser");
  const a = await read(page);
  await sleep(8000);
  const b = await read(page);
  const rate = (b.ticks - a.ticks) / ((b.now - a.now) / 1000);
  console.log(`     ${b.ticks - a.ticks} ticks in ${((b.now - a.now) / 1000).toFixed(3)} s: ${rate.toFixed(3)}/s; ${((b.frames - a.frames) / ((b.now - a.now) / 1000)).toFixed(1)} frames/s`);
  check(Math.abs(rate - TICK_HZ) <= 0.01 * TICK_HZ, `ticks per second within 1 % of ${TICK_HZ}`);
  check(Number(b['alpha-min']) >= 0 && Number(b['alpha-max']) <= 1 && Number(b['alpha-max']) > 0.5,
    `renders with alpha in [0, 1] (saw ${b['alpha-min']} to ${b['alpha-max']})`);
  const t0 = Date.now();
  const { before } = await hide(page, 3000);
  const hiddenFor = Date.now() - t0;
  await sleep(500);
  const c = await read(page);
  check(before.ticks - b.ticks <= 1, `no tick while hidden (${before.ticks - b.ticks} from the moment of hiding)`);
  check(c.paused === 1 && c.resumed === 1 && c.drops === 0, `Paused and Resumed reported once each, no drop (paused ${c.paused}, resumed ${c.resumed}, drops ${c.drops})`);
  const lost = Number(c['real-ms']) - Number(c['virtual-ms']);
  check(lost > 2500 && lost < hiddenFor + 500, `virtual time stood still while hidden (${lost.toFixed(0)} ms of ${hiddenFor} ms)`);
  // A page resize: the canvas follows and frames go on.
  await page.setViewport({ width: 500, height: 700 });
  await sleep(500);
  const d = await read(page);
  const size = await page.evaluate(() => [document.getElementById('balls').width, document.getElementById('balls').height]);
  check(d.frames > c.frames && size[0] === 500, `a resize redraws at the new size (${size})`);
  check(errors.length === 0, `no console error (${errors.join(' | ')})`);
  await page.close();
}

// 2. Report: the gap comes back as dropped ticks, exactly the ones due beyond the max frame delta.
{
  const { page, errors } = await open('?hidden=report');
  await sleep(1000);
  await hide(page, 3000);
  await sleep(500);
  const c = await read(page);
  const due = Math.floor(Number(c['virtual-ms']) / (1000 / TICK_HZ));
  check(c.drops > 0 && c.ticks + c.drops === due, `Report: ${c.drops} ticks reported dropped, ticks run + dropped = ${c.ticks + c.drops} = ticks due ${due}`);
  check(c.paused === 0, 'Report: no pause');
  check(errors.length === 0, `Report: no console error (${errors.join(' | ')})`);
  await page.close();
}

// 3. KeepTicking: the Worker's timer keeps the ticks coming while hidden, without drawing.
{
  const { page, errors } = await open('?hidden=keep');
  await sleep(1000);
  const { hidden, before } = await hide(page, 3000);
  const rate = (before.ticks - hidden.ticks) / ((before.now - hidden.now) / 1000);
  console.log(`     KeepTicking: ${before.ticks - hidden.ticks} ticks in ${((before.now - hidden.now) / 1000).toFixed(3)} s hidden: ${rate.toFixed(2)}/s`);
  check(Math.abs(rate - TICK_HZ) <= 0.05 * TICK_HZ, `KeepTicking ticks at ${TICK_HZ}/s while hidden (within 5 %)`);
  check(before.frames === hidden.frames, 'KeepTicking: no frame drawn while hidden');
  await sleep(500);
  const c = await read(page);
  check(c.drops === 0 && c.paused === 0, 'KeepTicking: no drop, no pause');
  check(errors.length === 0, `KeepTicking: no console error (${errors.join(' | ')})`);
  await page.close();
}

// 4. A panic in the game's update reaches the console and the page.
{
  const page = await browser.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(base + '?panic_at=10');
  await sleep(1500);
  const text = await page.evaluate(() => document.getElementById('counters').textContent);
  check(errors.some((e) => e.includes('panicked at tick 10')), 'a panic in update is a console error');
  check(/panicked|stopped/.test(text), `the page says it stopped (${text.slice(0, 80)})`);
  await page.close();
}

await browser.close();
server.close();
console.log(failures === 0 ? 'web demo: all checks passed' : `web demo: ${failures} checks FAILED`);
process.exit(failures === 0 ? 0 : 1);
