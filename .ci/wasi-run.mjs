// Runs one libtest binary built for wasm32-wasip1 under Node's WASI and prints its output;
// exits with the binary's exit code. Usage: node .ci/wasi-run.mjs file.wasm [libtest args...]
import { readFile } from 'node:fs/promises';
import { WASI } from 'node:wasi';
import { argv, exit } from 'node:process';

const [file, ...args] = argv.slice(2);
const wasi = new WASI({ version: 'preview1', args: [file, ...args], env: { RUST_BACKTRACE: '0' }, returnOnExit: true });
const module = await WebAssembly.compile(await readFile(file));
const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
let code;
try {
  code = wasi.start(instance);
} catch (e) {
  // A panic aborts the binary (wasm has no unwinding): an `unreachable` trap.
  console.error(`${file}: aborted: ${e}`);
  code = 101;
}
exit(code);
