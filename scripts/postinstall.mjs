// npm's postinstall. In a clone of the repository it builds native/sgemm (scripts/build-sgemm.mjs;
// its exit status is this one's, SGEMM_BUILD_STRICT included). An installed package ships no
// native sources: there it does nothing, so installing the CLI never needs a compiler, and the
// encoder runs on tfjs's WebAssembly kernels (the same vectors).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const build = join(here, 'build-sgemm.mjs');
if (existsSync(join(here, '..', 'native', 'sgemm', 'sgemm.c')) && existsSync(build)) {
  const r = spawnSync(process.execPath, [build], { stdio: 'inherit' });
  process.exit(r.status ?? 1);
}
