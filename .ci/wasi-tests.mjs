// Reads cargo's --message-format=json output, runs every test binary it built (wasm32-wasip1)
// under Node's WASI, and sums libtest's counts. Exit 1 if any binary failed or aborted, or if
// no test ran at all.
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { argv, exit } from 'node:process';

const bins = [];
for (const line of readFileSync(argv[2], 'utf8').split('\n')) {
  if (!line.startsWith('{')) continue;
  const m = JSON.parse(line);
  if (m.reason === 'compiler-artifact' && m.executable && m.profile.test) {
    bins.push({ name: `${m.package_id.match(/([\w-]+)[@#]/)?.[1] ?? '?'} ${m.target.kind[0]} ${m.target.name}`, file: m.executable });
  }
}
const runner = new URL('./wasi-run.mjs', import.meta.url).pathname;
let passed = 0, failed = 0, ignored = 0;
const bad = [];
const start = Date.now();
for (const { name, file } of bins) {
  const t0 = Date.now();
  const r = spawnSync(process.execPath, ['--no-warnings', runner, file, '--test-threads=1'], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const out = (r.stdout ?? '') + (r.stderr ?? '');
  const results = [...out.matchAll(/test result: \w+\. (\d+) passed; (\d+) failed; (\d+) ignored/g)];
  const [p, f, i] = results.reduce((a, m) => [a[0] + +m[1], a[1] + +m[2], a[2] + +m[3]], [0, 0, 0]);
  passed += p; failed += f; ignored += i;
  const ok = r.status === 0 && results.length > 0 && f === 0;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}: ${p} passed, ${f} failed, ${i} ignored (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  if (!ok) {
    bad.push(name);
    console.log(out.split('\n').filter((l) => /FAILED|panicked|aborted|failed|error/i.test(l)).slice(0, 40).join('\n'));
  }
}
console.log(`wasm32-wasip1: ${bins.length} test binaries, ${passed} tests passed, ${failed} failed, ${ignored} ignored, ${((Date.now() - start) / 1000).toFixed(0)} s`);
if (bins.length === 0 || passed === 0) {
  console.log('wasm-tests: no test ran');
  exit(1);
}
if (bad.length > 0) {
  console.log(`wasm-tests: failed: ${bad.join(', ')}`);
  exit(1);
}
