// Builds the installable CLI: the TypeScript in src/ compiled to JavaScript in dist/ (same
// layout, so every path relative to a source file means what it meant), with the command's
// entry point made a plain node script. Run by `npm run build` and before `npm pack`/`npm publish`
// (prepack). The repository itself runs src/ through tsx; the installed package runs dist/.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
rmSync(dist, { recursive: true, force: true });
const project = join(root, 'tsconfig.build.json');
const tsc = typescriptCompiler();
if (tsc) execFileSync(process.execPath, [tsc, '-p', project], { stdio: 'inherit' });
else {
  // An install without the devDependencies (the GitHub Action's, from its own checkout): the
  // TypeScript version package.json pins for development, through npx, emitting without the
  // type check (`noCheck`), since the type packages are devDependencies too. The repository's
  // checked build emits the same JavaScript.
  const { devDependencies } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const dir = mkdtempSync(join(tmpdir(), 'tooltax-build-'));
  const config = join(dir, 'tsconfig.json');
  writeFileSync(config, JSON.stringify({ extends: project, compilerOptions: { types: [], noCheck: true } }));
  const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
  try {
    execFileSync(npx, ['--yes', '--package', `typescript@${devDependencies.typescript}`, '--', 'tsc', '-p', config], { stdio: 'inherit' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
// src/cli.ts starts with a tsx shebang for the repository; the built one runs on node alone.
const cli = join(dist, 'cli.js');
const text = readFileSync(cli, 'utf8').replace(/^#!.*\n/, '');
writeFileSync(cli, `#!/usr/bin/env node\n${text}`);
chmodSync(cli, 0o755);
console.error(`build: wrote ${dist}`);

/** TypeScript's compiler as installed beside this package, or undefined without the devDependencies. */
function typescriptCompiler() {
  try {
    return createRequire(import.meta.url).resolve('typescript/bin/tsc');
  } catch {
    return undefined;
  }
}
