import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkAction, checkWorkflows, npmScriptsIn } from '../scripts/check-workflows.ts';

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
    const action = checkAction(join(process.cwd(), 'action.yml')).inputs;
    const r = checkWorkflows(join(process.cwd(), '.github', 'workflows'), join(process.cwd(), 'package.json'), action);
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

describe('check-workflows: the composite action', () => {
  it('passes on action.yml, and this repository’s workflow uses it with declared inputs', () => {
    const a = checkAction(join(process.cwd(), 'action.yml'));
    expect(a.problems).toEqual([]);
    expect(a.inputs!.declared.size).toBeGreaterThanOrEqual(8);
    const r = checkWorkflows(join(process.cwd(), '.github', 'workflows'), join(process.cwd(), 'package.json'), a.inputs);
    expect(r.problems).toEqual([]);
    expect(r.actionUses).toBeGreaterThanOrEqual(1);
  });

  it('reports an undeclared input, an unread one, a run step without a shell and a workflow passing an unknown input', () => {
    const dir = mkdtempSync(join(tmp, 'action-'));
    const file = join(dir, 'action.yml');
    writeFileSync(
      file,
      'name: x\ndescription: y\ninputs:\n  used:\n    description: a\n  unread:\n    description: b\nruns:\n  using: composite\n  steps:\n    - run: echo ${{ inputs.used }} ${{ inputs.ghost }}\n',
    );
    const a = checkAction(file);
    expect(a.problems).toHaveLength(3);
    expect(a.problems.join('\n')).toMatch(/expected a "shell"/);
    expect(a.problems.join('\n')).toMatch(/reads inputs\.ghost, which it does not declare/);
    expect(a.problems.join('\n')).toMatch(/declares inputs\.unread but never reads it/);
    mkdirSync(join(dir, 'wf'));
    writeFileSync(
      join(dir, 'wf', 'w.yml'),
      'on: push\njobs:\n  j:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: ./\n        with:\n          nope: 1\n',
    );
    writeFileSync(join(dir, 'package.json'), '{}');
    expect(checkWorkflows(join(dir, 'wf'), join(dir, 'package.json'), a.inputs).problems).toEqual([
      `${join(dir, 'wf', 'w.yml')}: jobs.j.steps[0]: passes "nope", which action.yml does not declare`,
    ]);
  });
});
