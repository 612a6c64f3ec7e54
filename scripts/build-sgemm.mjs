// Build native/sgemm (use-lite's matrix products, see native/sgemm/sgemm.c) with the system C
// compiler and Node's own headers: no node-gyp, no download. npm runs it after install
// (postinstall). It always exits 0: without a compiler use-lite runs on tfjs's wasm kernels,
// which give the same vectors more slowly, and the bench says so. SGEMM_BUILD_STRICT=1 exits 1.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'native', 'sgemm');
const source = join(dir, 'sgemm.c');
const sources = [source, join(dir, 'kernels.h')];
const target = join(dir, 'build', 'sgemm.node');

function skip(reason) {
  console.error(`build-sgemm: skipped: ${reason}`);
  console.error("build-sgemm: use-lite will run on tfjs's wasm kernels (the same vectors, 2-3x slower).");
  process.exit(process.env.SGEMM_BUILD_STRICT === '1' ? 1 : 0);
}

/** Loads the addon and multiplies a 2×2 pair: what the bench would do first. */
function works(file) {
  try {
    const { sgemm } = createRequire(import.meta.url)(file);
    const m = new Float32Array([1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0, 0]);
    sgemm(m.buffer, 0, 16, 32, 2, 2, 2);
    return m.slice(8).join() === '19,22,43,50';
  } catch {
    return false;
  }
}

if (existsSync(target) && sources.every((s) => statSync(target).mtimeMs >= statSync(s).mtimeMs) && works(target)) {
  console.log('build-sgemm: native/sgemm already built.');
  process.exit(0);
}
const prefix = dirname(dirname(process.execPath));
const include = [join(prefix, 'include', 'node'), '/usr/include/node', '/usr/local/include/node'].find((d) =>
  existsSync(join(d, 'node_api.h')),
);
if (!include) skip(`Node's headers (node_api.h) are not under ${join(prefix, 'include', 'node')}`);
const cc = process.env.CC || 'cc';
const flags = ['-O3', '-std=gnu11', '-ffp-contract=off', '-fno-fast-math', '-fPIC', '-shared', '-Wno-psabi'];
if (process.platform === 'darwin') flags.push('-undefined', 'dynamic_lookup');
mkdirSync(dirname(target), { recursive: true });
try {
  execFileSync(cc, [...flags, `-I${include}`, source, '-o', `${target}.tmp`], { stdio: ['ignore', 'ignore', 'pipe'] });
} catch (err) {
  if (err.code === 'ENOENT') skip(`no C compiler: ${cc} not found (install gcc, or set CC)`);
  const output = String(err.stderr ?? '').trim() || err.message;
  skip(`${cc} failed (exit ${err.status ?? '?'}): ${output.split('\n').slice(-3).join(' | ')}`);
}
renameSync(`${target}.tmp`, target);
if (!works(target)) skip('the addon compiled but does not load or multiply correctly');
console.log(`build-sgemm: built ${target}`);
