// Opens the web demo (examples/web/www, built by build.sh) in the system's headless Chromium and
// checks `tickfold::web::start` from the page's own counters and from a probe the test puts in
// the page before the module loads (it wraps requestAnimationFrame and Worker, so it sees every
// frame and every keep-alive message). Checks: 20 Hz ticks within 1 %, alpha in [0, 1], no
// console error; each rule for hidden tabs, exactly; the frame after every real tab switch
// renders and is no TimeBackwards; `Paused` reaches the game when the page hides; the Worker is
// silent while the page is visible; a panic (while hidden, or before tab switches) is one panic
// message and nothing after it; a bogus stamp far ahead costs one frame; the game's handle
// drives the loop after `start` (pause for a menu, time scale, a clock added, a tick refused from
// the handler, the hidden rule switched, the loop stopped). Prints the irregular frames (0 or 2+
// updates) of 60 Hz ticks on the headless display. Exits non-zero on any failure.
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import puppeteer from 'puppeteer-core';

const www = process.env.WWW ?? path.join(path.dirname(new URL(import.meta.url).pathname), 'www');
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

/** Put in every page before its scripts: sees each rAF callback (and can skew one stamp), each
 * keep-alive message, each show. Reads the demo's counters before and after each frame. */
function probe() {
  const p = window.__probe = {
    rafs: 0, messages: 0, visibleMessages: 0, shows: 0, afterShow: [], skew: 0,
    updatesPerFrame: {}, countFrames: false,
  };
  const counters = () => {
    const d = document.getElementById('counters')?.dataset ?? {};
    return { frames: Number(d.frames ?? 0), ticks: Number(d.ticks ?? 0), backwards: Number(d.backwards ?? 0) };
  };
  const raf = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (callback) => raf((stamp) => {
    const skew = p.skew;
    p.skew = 0;
    const a = counters();
    try {
      callback(stamp + skew);
    } finally {
      p.rafs += 1;
      const b = counters();
      if (p.awaitingShow) {
        p.awaitingShow = false;
        p.afterShow.push({ rendered: b.frames > a.frames, backwards: b.backwards > a.backwards });
      }
      if (p.countFrames) {
        const n = b.ticks - a.ticks;
        p.updatesPerFrame[n] = (p.updatesPerFrame[n] ?? 0) + 1;
      }
    }
  });
  const NativeWorker = window.Worker;
  window.Worker = class extends NativeWorker {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', () => {
        p.messages += 1;
        if (document.visibilityState === 'visible') p.visibleMessages += 1;
      });
    }
  };
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') { p.shows += 1; p.awaitingShow = true; }
  });
}

/** The counters (data-* of #counters), the probe and the page's performance.now(), at once. */
const read = (page) => page.evaluate(() => {
  const line = document.getElementById('counters');
  const out = { now: performance.now(), visibility: document.visibilityState, probe: { ...window.__probe } };
  for (const a of line.attributes) if (a.name.startsWith('data-')) out[a.name.slice(5)] = a.value;
  for (const k of ['ticks', 'frames', 'drops', 'paused', 'resumed', 'hidden-ticks', 'backwards',
    'ai-ticks', 'refused', 'ticks-refused', 'ticks-run'])
    out[k] = Number(out[k] ?? NaN);
  return out;
});

async function open(query, { wait = true } = {}) {
  const page = await browser.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.evaluateOnNewDocument(probe);
  await page.setViewport({ width: 800, height: 450 });
  await page.goto(base + query);
  if (wait) await page.waitForFunction(() => Number(document.getElementById('counters').dataset.frames) > 5);
  return { page, errors };
}

/** Hides the page behind another tab in front, for `ms`, then shows it again. `during` runs
 * while it is hidden, at the start. */
async function hide(page, ms, during = async () => {}) {
  const cover = await browser.newPage();
  await cover.bringToFront();
  await page.waitForFunction(() => document.visibilityState === 'hidden', { timeout: 5000, polling: 50 });
  const hidden = await read(page);
  await during();
  await sleep(ms);
  const before = await read(page);
  await page.bringToFront();
  await page.waitForFunction(() => document.visibilityState === 'visible', { timeout: 5000 });
  await cover.close();
  return { hidden, before };
}

/** `n` real tab switches (hidden `ms`, then visible 300 ms); the probe's record of the first
 * frame after each show. */
async function switches(page, n, ms) {
  for (let i = 0; i < n; i += 1) {
    await hide(page, ms);
    await sleep(300);
  }
  const { probe: p } = await read(page);
  const rendered = p.afterShow.filter((f) => f.rendered && !f.backwards).length;
  return { shows: p.shows, seen: p.afterShow.length, rendered, backwards: p.afterShow.filter((f) => f.backwards).length };
}

const SWITCHES = 8;
/** Runs one part of the test; a part that throws (a timeout) is a failure, and the rest runs. */
async function part(name, body) {
  try { await body(); } catch (e) { check(false, `${name}: ${String(e).split('\n')[0]}`); }
}
const switchCheck = (mode, s) => check(s.shows === SWITCHES && s.seen === SWITCHES && s.rendered === SWITCHES && s.backwards === 0,
  `${mode}: the frame after each of ${SWITCHES} tab switches renders (${s.rendered} of ${s.seen} rendered, ${s.backwards} were TimeBackwards)`);

// 1. The default rule (pause): the rate, alpha, no errors; then hidden 3 s; tab switches.
await part('Pause', async () => {
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
  const { hidden, before } = await hide(page, 3000);
  const hiddenFor = Date.now() - t0;
  await sleep(500);
  const c = await read(page);
  check(hidden.paused === 1 && before.resumed === 0, `Paused reaches the game when the page hides (paused ${hidden.paused} while hidden)`);
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
  await page.evaluate(() => { window.__probe.afterShow = []; window.__probe.shows = 0; });
  switchCheck('Pause', await switches(page, SWITCHES, 200));
  check(errors.length === 0, `no console error (${errors.join(' | ')})`);
  await page.close();
});

// 2. Report: the gap comes back as dropped ticks, exactly the ones due beyond the max frame delta.
await part('Report', async () => {
  const { page, errors } = await open('?hidden=report');
  await sleep(1000);
  await hide(page, 3000);
  await sleep(500);
  const c = await read(page);
  const due = Math.floor(Number(c['virtual-ms']) / (1000 / TICK_HZ));
  check(c.drops > 0 && c.ticks + c.drops === due, `Report: ${c.drops} ticks reported dropped, ticks run + dropped = ${c.ticks + c.drops} = ticks due ${due}`);
  check(c.paused === 0, 'Report: no pause');
  await page.evaluate(() => { window.__probe.afterShow = []; window.__probe.shows = 0; });
  switchCheck('Report', await switches(page, SWITCHES, 200));
  check(errors.length === 0, `Report: no console error (${errors.join(' | ')})`);
  await page.close();
});

// 3. KeepTicking: the Worker's timer keeps the ticks coming while hidden, without drawing, and is
// silent while the page is visible.
await part('KeepTicking', async () => {
  const { page, errors } = await open('?hidden=keep');
  const v0 = await read(page);
  await sleep(2000);
  const v1 = await read(page);
  const visibleRate = (v1.probe.messages - v0.probe.messages) / ((v1.now - v0.now) / 1000);
  console.log(`     KeepTicking: ${(v1.probe.messages - v0.probe.messages)} Worker messages in ${((v1.now - v0.now) / 1000).toFixed(3)} s visible (${visibleRate.toFixed(1)}/s)`);
  check(v1.probe.messages === v0.probe.messages, 'KeepTicking: no Worker message while the page is visible');
  // The rate from 0.5 s into the hidden stretch (the first beat also runs the ticks due since
  // the latest frame, which Chromium stops up to 0.4 s before it says the page is hidden).
  let settled;
  const { hidden, before } = await hide(page, 3000, async () => { await sleep(500); settled = await read(page); });
  const rate = (before.ticks - settled.ticks) / ((before.now - settled.now) / 1000);
  console.log(`     KeepTicking: ${before.ticks - settled.ticks} ticks in ${((before.now - settled.now) / 1000).toFixed(3)} s hidden: ${rate.toFixed(2)}/s; ${before.probe.messages - hidden.probe.messages} Worker messages in ${((before.now - hidden.now) / 1000).toFixed(3)} s`);
  check(Math.abs(rate - TICK_HZ) <= 0.05 * TICK_HZ, `KeepTicking ticks at ${TICK_HZ}/s while hidden (within 5 %)`);
  check(before.frames === hidden.frames, 'KeepTicking: no frame drawn while hidden');
  await sleep(500);
  const c = await read(page);
  check(c.drops === 0 && c.paused === 0, 'KeepTicking: no drop, no pause');
  await page.evaluate(() => { window.__probe.afterShow = []; window.__probe.shows = 0; window.__probe.visibleMessages = 0; });
  switchCheck('KeepTicking', await switches(page, SWITCHES, 200));
  await sleep(200);
  const quiet0 = await read(page);
  await sleep(1000);
  const quiet1 = await read(page);
  check(quiet1.probe.messages === quiet0.probe.messages, `KeepTicking: the Worker is silent again once the page shows (${quiet1.probe.messages - quiet0.probe.messages} messages in 1 s)`);
  check(errors.length === 0, `KeepTicking: no console error (${errors.join(' | ')})`);
  await page.close();
});

// 3b. The same switches with frame-delta smoothing on (the smoother holds a stamp that goes
// back, so a frame behind a listener's stamp used to step nowhere: no render, no event).
for (const [mode, query] of [['Pause, smoothing on', '?smooth=on'], ['KeepTicking, smoothing on', '?hidden=keep&smooth=on']]) {
  await part(mode, async () => {
    const { page, errors } = await open(query);
    await sleep(500);
    switchCheck(mode, await switches(page, SWITCHES, 200));
    check(errors.length === 0, `${mode}: no console error (${errors.join(' | ')})`);
    await page.close();
  });
}

// 4. A panic in the game's update reaches the console and the page, once; nothing after it.
const panicMessages = (errors) => errors.filter((e) => e.includes('panicked'));
// The trap a wasm32 panic ends in reaches the page once as `RuntimeError: unreachable`.
const strayErrors = (errors) => errors.filter((e) => !e.includes('panicked')).slice(
  errors.filter((e) => !e.includes('panicked'))[0]?.includes('RuntimeError: unreachable') ? 1 : 0);
await part('a panic (Pause)', async () => {
  const { page, errors } = await open('?panic_at=10', { wait: false });
  await page.waitForFunction(() => document.getElementById('counters').dataset.panicked === 'true', { timeout: 5000, polling: 50 });
  await sleep(300);
  const text = await page.evaluate(() => document.getElementById('counters').textContent);
  check(errors.some((e) => e.includes('panicked at tick 10')), 'a panic in update is a console error');
  check(/panicked|stopped/.test(text), `the page says it stopped (${text.slice(0, 80)})`);
  await hide(page, 300);
  await hide(page, 300);
  await sleep(300);
  check(panicMessages(errors).length === 1 && strayErrors(errors).length === 0,
    `Pause: after a panic, tab switches log nothing more (${errors.length} errors: ${errors.slice(0, 3).join(' | ').slice(0, 300)})`);
  await page.close();
});
await part('a panic (KeepTicking, hidden)', async () => {
  // KeepTicking, panicking on the 60th tick, which runs while the page is hidden.
  const { page, errors } = await open('?hidden=keep&panic_at=60', { wait: false });
  await page.waitForFunction(() => Number(document.getElementById('counters').dataset.frames) > 1);
  let messagesAfter = 0;
  await hide(page, 4000, async () => {
    await page.waitForFunction(() => document.getElementById('counters').dataset.panicked === 'true', { timeout: 6000, polling: 50 });
    await sleep(100);
    const m0 = (await read(page)).probe.messages;
    await sleep(1000);
    messagesAfter = (await read(page)).probe.messages - m0;
  });
  await hide(page, 300);
  await sleep(300);
  const c = await read(page);
  check(errors.some((e) => e.includes('panicked at tick 60')), 'KeepTicking: the panic while hidden is on the console with its own message');
  check(panicMessages(errors).length === 1 && strayErrors(errors).length === 0,
    `KeepTicking: one panic message and nothing after it (${errors.length} errors: ${errors.slice(0, 3).join(' | ').slice(0, 300)})`);
  check(messagesAfter === 0, `KeepTicking: the Worker stops beating after the panic (${messagesAfter} messages in the next second)`);
  check(c.probe.rafs <= c.frames + 2, `KeepTicking: no frame loop after the panic (${c.probe.rafs} rAF callbacks, ${c.frames} frames before the panic)`);
  await page.close();
});

// 5. A bogus stamp: an hour ahead (the game goes on after one reported frame), and one too far
// for the loop (refused, said on the console).
await part('bogus stamps', async () => {
  const { page, errors } = await open('');
  await page.evaluate(() => { window.__probe.skew = 3.6e6; });
  await sleep(200);
  const a = await read(page);
  await sleep(2000);
  const b = await read(page);
  const rate = (b.ticks - a.ticks) / ((b.now - a.now) / 1000);
  check(b.frames - a.frames > 60 && Math.abs(rate - TICK_HZ) <= 0.05 * TICK_HZ,
    `an hour-ahead stamp: frames and ticks go on (${b.frames - a.frames} frames, ${rate.toFixed(2)} ticks/s in 2 s after it)`);
  check(b.backwards === 1 && b.drops > 0, `an hour-ahead stamp: reported as one TimeBackwards (${b.backwards}) and the max frame delta's drop (${b.drops} ticks)`);
  await page.evaluate(() => { window.__probe.skew = 2e13; });
  await sleep(200);
  const c = await read(page);
  await sleep(1000);
  const d = await read(page);
  check(d.frames - c.frames > 30, `a stamp of 2e13 ms: refused, frames go on (${d.frames - c.frames} frames in 1 s after it)`);
  check(errors.length === 1 && errors[0].includes('not a page time stamp'),
    `a stamp of 2e13 ms: one console error saying so (${errors.join(' | ').slice(0, 200)})`);
  await page.close();
});

// 6. The game's handle after `start` (the demo's keys and ?refuse_at).
await part('the handle', async () => {
  const { page, errors } = await open('?refuse_at=10');
  await page.waitForFunction(() => Number(document.getElementById('counters').dataset.ticks) > 15, { timeout: 5000, polling: 50 });
  let c = await read(page);
  check(c.refused === 1 && c['ticks-refused'] === 1 && c.ticks === c['ticks-run'] + 1,
    `a tick refused from the handler runs again (refused ${c.refused}, ticks_refused ${c['ticks-refused']}, updates ${c.ticks} = ticks_run ${c['ticks-run']} + 1)`);
  check(c['with-in-step'] === 'Err(InStep)', `WebHandle::with from the handler is refused (${c['with-in-step']})`);
  await page.keyboard.press('n'); // a with inside a with, an after_step inside a with
  const nested = await page.evaluate(() => document.getElementById('counters').dataset.nested);
  check(nested === 'Ok((Err(InStep), Ok(()), false)) true', `a with inside a with is refused, an after_step in it runs when it ends (${nested})`);
  await page.keyboard.press('p'); // the game's menu: pause
  await sleep(100);
  const p0 = await read(page);
  await sleep(1000);
  const p1 = await read(page);
  check(p1.paused === 1 && p1.ticks === p0.ticks && p1.frames > p0.frames + 30,
    `pause from the handle: no tick in 1 s, frames go on, Paused reported (paused ${p1.paused}, ticks ${p1.ticks - p0.ticks}, frames ${p1.frames - p0.frames})`);
  await page.keyboard.press('p');
  await page.keyboard.press('f'); // time scale 2
  await page.keyboard.press('a'); // a 5 Hz "ai" clock
  await sleep(100);
  const s0 = await read(page);
  await sleep(2000);
  const s1 = await read(page);
  const secs = (s1.now - s0.now) / 1000;
  const mainRate = (s1.ticks - s1['ai-ticks'] - (s0.ticks - s0['ai-ticks'])) / secs;
  const aiRate = (s1['ai-ticks'] - s0['ai-ticks']) / secs;
  check(s1.resumed === 1 && Math.abs(mainRate - 2 * TICK_HZ) <= 0.1 * 2 * TICK_HZ && Math.abs(aiRate - 10) <= 1.5,
    `time scale 2 and a clock added from the handle (main ${mainRate.toFixed(1)}/s, ai ${aiRate.toFixed(1)}/s)`);
  await page.keyboard.press('k'); // the hidden rule: KeepTicking from now on
  const { hidden, before } = await hide(page, 1000);
  check(before['hidden-ticks'] - hidden['hidden-ticks'] > 20 && before.probe.messages > hidden.probe.messages,
    `the hidden rule switched from the handle: ${before['hidden-ticks'] - hidden['hidden-ticks']} ticks in 1 s hidden`);
  await sleep(300);
  await page.keyboard.press('x'); // stop the loop
  await sleep(100);
  const x0 = await read(page);
  await hide(page, 500);
  await sleep(1000);
  const x1 = await read(page);
  check(x1.frames === x0.frames && x1.ticks === x0.ticks && x1.probe.messages === x0.probe.messages && x0['running'] === 'false',
    `exit from the handle stops frames, ticks and the Worker (frames +${x1.frames - x0.frames}, ticks +${x1.ticks - x0.ticks}, messages +${x1.probe.messages - x0.probe.messages}, running ${x0['running']})`);
  check(errors.length === 0, `the handle: no console error (${errors.join(' | ')})`);
  await page.close();
});

// 7. Irregular frames: 60 Hz ticks on the headless display (for the report; not checked).
await part('irregular frames', async () => {
  const { page } = await open('?hz=60');
  await sleep(1000);
  await page.evaluate(() => { window.__probe.updatesPerFrame = {}; window.__probe.countFrames = true; });
  await sleep(10000);
  const { probe: p, 'tick-hz': hz } = await read(page);
  const frames = Object.values(p.updatesPerFrame).reduce((x, y) => x + y, 0);
  const irregular = frames - (p.updatesPerFrame[1] ?? 0);
  console.log(`     irregular frames: ${irregular} of ${frames} (0 or 2+ updates; ticks at ${hz ?? '?'} Hz, updates per frame ${JSON.stringify(p.updatesPerFrame)})`);
  await page.close();
});

await browser.close();
server.close();
console.log(failures === 0 ? 'web demo: all checks passed' : `web demo: ${failures} checks FAILED`);
process.exit(failures === 0 ? 0 : 1);
