import { execFile } from 'node:child_process';
import { existsSync, readFileSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { makeTempDir } from '../helpers/temp.ts';

/**
 * A partial run in a fresh clone (of this checkout's HEAD) leaves `git status` clean: its
 * results and reports go to results/partial/, which git ignores, and its reports say it is
 * partial. The run is narrowed further than a user's first try (one study, no pretrained
 * encoder) to stay within RUN_BOUND_MS; what decides where it writes is the same.
 */
const RUN_BOUND_MS = 240_000;
const run = promisify(execFile);

describe('a partial run in a fresh clone', () => {
  it(
    'writes results/partial/, leaves git status clean and says it is partial',
    async () => {
      const clone = join(makeTempDir('tooltax-clone-'), 'tooltax');
      await run('git', ['clone', '--quiet', '--no-hardlinks', process.cwd(), clone]);
      symlinkSync(resolve('node_modules'), join(clone, 'node_modules'));
      const args = ['--quick', '--pipelines', 'b1-full-schema', '--studies', 'projection', '--encoder', 'tfidf', '--retriever', 'bm25'];
      const r = await run('npm', ['run', '--silent', 'bench', '--', ...args], { cwd: clone, timeout: RUN_BOUND_MS });
      expect(r.stdout).toMatch(
        /^a partial run \(--quick, --pipelines b1-full-schema, --studies projection\) writes to .*results\/partial\/results and .*results\/partial\/reports/m,
      );
      const status = await run('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: clone });
      // The node_modules symlink is this test's own (a clone has none).
      expect(status.stdout.split('\n').filter((l) => l && l !== '?? node_modules')).toEqual([]);
      const findings = readFileSync(join(clone, 'results', 'partial', 'reports', 'findings.md'), 'utf8');
      expect(findings).toMatch(
        /^\*\*Partial run \(--quick, --pipelines b1-full-schema, --studies projection\), not comparable with a whole run: pipelines B1; .*studies projection\.\*\*$/m,
      );
      expect(existsSync(join(clone, 'results', 'partial', 'reports', 'index.html'))).toBe(true);
    },
    RUN_BOUND_MS + 60_000,
  );
});
