import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkWorkflows, npmScriptsIn } from '../scripts/check-workflows.ts';

const tmp = mkdtempSync(join(tmpdir(), 'tooltax-workflows-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function fixture(files: Record<string, string>, scripts: Record<string, string> = { bench: 'x', test: 'y' }) {
  const dir = mkdtempSync(join(tmp, 'case-'));
  mkdirSync(join(dir, 'wf'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, 'wf', name), text);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ scripts }));
  return checkWorkflows(join(dir, 'wf'), join(dir, 'package.json'));
}

describe('check-workflows', () => {
  it('passes on the committed workflows and finds the scripts they call', () => {
    const r = checkWorkflows(join(process.cwd(), '.github', 'workflows'), join(process.cwd(), 'package.json'));
    expect(r.problems).toEqual([]);
    expect(r.files).toBeGreaterThanOrEqual(2);
    expect(r.scripts).toBeGreaterThanOrEqual(2);
  });

  it.each([
    ['npm run bench', ['bench']],
    ['npm run --silent bench -- budget --markdown > b.md', ['bench']],
    ['npm ci && npm test && npm run-script typecheck', ['typecheck', 'test']],
    ['npm run -s \\\n  report', ['report']],
    ['npx tsx src/cli.ts; npm install', []],
  ])('finds the npm scripts in %j', (shell, scripts) => {
    expect(npmScriptsIn(shell)).toEqual(scripts);
  });

  it('reports a missing script, a job without steps, bad YAML and a missing trigger, one line each', () => {
    const r = fixture({
      'a.yml': 'on: push\njobs:\n  x:\n    runs-on: ubuntu-latest\n    steps:\n      - run: npm run benchmark\n      - name: nothing\n',
      'b.yml': 'on: push\njobs:\n  y:\n    runs-on: ubuntu-latest\n',
      'c.yml': 'on: push\njobs: [\n',
      'd.yaml': 'jobs:\n  z:\n    uses: org/repo/.github/workflows/w.yml@v1\n',
    });
    expect(r.problems).toHaveLength(5);
    expect(r.problems[0]).toMatch(
      /a\.yml: jobs\.x\.steps\[0\]: calls "npm run benchmark", but package.json has no script "benchmark" \(it has: bench, test\)$/,
    );
    expect(r.problems[1]).toMatch(/a\.yml: jobs\.x\.steps\[1\]: expected "run" or "uses"$/);
    expect(r.problems[2]).toMatch(/b\.yml: jobs\.y: expected "steps" with at least one step$/);
    expect(r.problems[3]).toMatch(/c\.yml: YAML error at line \d+: /);
    expect(r.problems[4]).toMatch(/d\.yaml: expected an "on" trigger$/);
    for (const p of r.problems) expect(p).not.toContain('\n');
  });
});
