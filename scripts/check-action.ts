#!/usr/bin/env -S npx tsx
/**
 * Runs the steps of the repository's GitHub Action (action.yml) the way a runner would, in a
 * scratch repository, without GitHub: each step's `if` is evaluated with GitHub's own expression
 * library (@actions/expressions), `${{ … }}` in `env` and `with` are filled in, `run` steps run
 * in bash with GITHUB_OUTPUT, GITHUB_STEP_SUMMARY and RUNNER_TEMP, and a failed step skips the
 * ones after it unless their `if` says otherwise. The two third-party actions are not run:
 * setup-node is checked to be pinned (Node is already here), and the comment action is
 * recorded with the file it would post.
 *
 * Cases: the CLI from a local tarball within budget, over budget, on bad input and with a lint
 * error under fail-on-lint; a package that does not install; and the default, the CLI built
 * from a copy of the action's own checkout. Each checks the exit statuses, the annotations, and
 * that no empty comment is posted.
 * Usage: npx tsx scripts/check-action.ts <tarball> [scratch folder]
 */
import { Evaluator, Lexer, Parser, data } from '@actions/expressions';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');

interface ActionStep {
  name?: string;
  id?: string;
  if?: string;
  uses?: string;
  run?: string;
  shell?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}
interface ActionFile {
  inputs: Record<string, { default?: string }>;
  runs: { steps: ActionStep[] };
}

interface JobResult {
  /** Each step's outcome, by name. */
  outcomes: Record<string, 'success' | 'failure' | 'skipped'>;
  outputs: Record<string, Record<string, string>>;
  /** The text the comment action would post, when it ran. */
  comment?: string;
  /** `::error title=…::…` lines the steps printed. */
  errors: string[];
  failed: boolean;
  log: string;
}

const STATUS_FUNCTIONS = ['always', 'success', 'failure', 'cancelled'];

/** A GitHub Actions expression (without `${{ }}`), evaluated in `context` with the job's status. */
function evaluate(expression: string, context: Record<string, unknown>, jobFailed: boolean): data.ExpressionData {
  const lexed = new Lexer(expression).lex();
  const status = STATUS_FUNCTIONS.map((name) => ({ name, minArgs: 0, maxArgs: 0 }));
  const ast = new Parser(lexed.tokens, Object.keys(context), status).parse();
  const dict = JSON.parse(JSON.stringify(context), data.reviver) as data.Dictionary;
  const functions = new Map(
    STATUS_FUNCTIONS.map((name) => [
      name,
      {
        name,
        minArgs: 0,
        maxArgs: 0,
        call: () => new data.BooleanData(name === 'always' || (name === 'success' ? !jobFailed : name === 'failure' && jobFailed)),
      },
    ]),
  );
  return new Evaluator(ast, dict, functions).evaluate();
}

/** GitHub's truthiness: false, 0, NaN, '' and null are false; anything else, true. */
function truthy(d: data.ExpressionData): boolean {
  if (d instanceof data.BooleanData) return d.value;
  if (d instanceof data.NumberData) return d.value !== 0 && !Number.isNaN(d.value);
  if (d instanceof data.StringData) return d.value !== '';
  return !(d instanceof data.Null);
}

/** `${{ expr }}` replaced by the expression's value as text. */
function fill(text: string, context: Record<string, unknown>, jobFailed: boolean): string {
  return text.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, e: string) => evaluate(e, context, jobFailed).coerceString());
}

/** Runs the action's steps with these inputs in `workspace`; `actionPath` is the action's checkout. */
function runAction(action: ActionFile, given: Record<string, string>, workspace: string, actionPath: string): JobResult {
  const temp = join(workspace, '.runner-temp');
  rmSync(temp, { recursive: true, force: true });
  mkdirSync(temp, { recursive: true });
  const inputs = Object.fromEntries(Object.entries(action.inputs).map(([k, v]) => [k, given[k] ?? v.default ?? '']));
  const steps: Record<string, { outputs: Record<string, string>; outcome: string }> = {};
  const context = () => ({
    inputs,
    steps,
    runner: { temp },
    github: {
      action_path: actionPath,
      event_name: 'pull_request',
      repository: 'owner/server',
      event: { pull_request: { head: { repo: { full_name: 'owner/server' } } } },
    },
  });
  const result: JobResult = { outcomes: {}, outputs: {}, errors: [], failed: false, log: '' };
  for (const [i, step] of action.runs.steps.entries()) {
    const name = step.name ?? `step ${i}`;
    const condition = step.if ?? 'success()';
    const expression = condition.replace(/^\$\{\{\s*|\s*\}\}$/g, '');
    const wrapped = STATUS_FUNCTIONS.some((f) => expression.includes(`${f}(`)) ? expression : `success() && (${expression})`;
    if (!truthy(evaluate(wrapped, context(), result.failed))) {
      result.outcomes[name] = 'skipped';
      continue;
    }
    const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, fill(String(v), context(), result.failed)]));
    const outputFile = join(temp, `output-${i}`);
    writeFileSync(outputFile, '');
    let ok: boolean;
    if (step.uses?.startsWith('actions/setup-node@')) {
      if (!/@[0-9a-f]{40}\b/.test(step.uses)) throw new Error(`action.yml: ${step.uses} is not pinned by commit`);
      ok = true;
    } else if (step.uses?.startsWith('marocchino/sticky-pull-request-comment@')) {
      if (!/@[0-9a-f]{40}\b/.test(step.uses)) throw new Error(`action.yml: ${step.uses} is not pinned by commit`);
      const path = fill(String(step.with?.path ?? ''), context(), result.failed);
      result.comment = existsSync(path) ? readFileSync(path, 'utf8') : '';
      ok = true;
    } else if (step.run !== undefined) {
      const r = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step.run], {
        cwd: workspace,
        env: {
          ...process.env,
          ...env,
          GITHUB_OUTPUT: outputFile,
          GITHUB_STEP_SUMMARY: join(temp, 'summary.md'),
          RUNNER_TEMP: temp,
          GITHUB_ACTION_PATH: actionPath,
        },
        encoding: 'utf8',
        timeout: 600_000,
      });
      result.log += `--- ${name}\n${r.stdout}${r.stderr}`;
      result.errors.push(...`${r.stdout}`.split('\n').filter((l) => l.startsWith('::error')));
      ok = r.status === 0;
    } else throw new Error(`action.yml: step ${name} neither runs nor uses anything this check knows`);
    const outputs = Object.fromEntries(
      readFileSync(outputFile, 'utf8')
        .split('\n')
        .filter((l) => l.includes('='))
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    );
    if (step.id) steps[step.id] = { outputs, outcome: ok ? 'success' : 'failure' };
    if (step.id) result.outputs[step.id] = outputs;
    result.outcomes[name] = ok ? 'success' : 'failure';
    if (!ok) result.failed = true;
  }
  return result;
}

function check(what: string, condition: boolean, r: JobResult): void {
  if (condition) return;
  console.error(`check-action: ${what}\n${r.log.slice(-4000)}`);
  process.exit(1);
}

function main(): void {
  const [tarballArg, scratchArg] = process.argv.slice(2);
  if (!tarballArg) {
    console.error('usage: npx tsx scripts/check-action.ts <tarball> [scratch folder]');
    process.exit(2);
  }
  const tarball = resolve(tarballArg);
  const scratch = resolve(scratchArg ?? join(tmpdir(), 'tooltax-check-action'));
  rmSync(scratch, { recursive: true, force: true });
  const workspace = join(scratch, 'server-repo');
  mkdirSync(workspace, { recursive: true });
  spawnSync('git', ['init', '-q'], { cwd: workspace });
  cpSync(join(repo, 'catalogs', 'real', 'github.json'), join(workspace, 'tools.json'));
  const dump = JSON.parse(readFileSync(join(workspace, 'tools.json'), 'utf8')) as { tools: unknown[] };
  writeFileSync(join(workspace, 'twice.json'), JSON.stringify({ ...dump, tools: [...dump.tools, dump.tools[0]] }));
  const action = parse(readFileSync(join(repo, 'action.yml'), 'utf8')) as ActionFile;
  const run = (inputs: Record<string, string>, actionPath = repo) => runAction(action, inputs, workspace, actionPath);
  const say = (line: string) => console.log(`check-action: ${line}`);

  const within = run({ package: tarball, catalog: 'tools.json', 'max-tool-tokens': '1000000' });
  check('within budget: status 0, a comment, a passing job', within.outputs.budget?.status === '0' && !within.failed, within);
  check('within budget: the comment holds the report', (within.comment ?? '').includes('Tool budget'), within);
  say('within budget: status 0, the report commented, the job passes');

  const over = run({ package: tarball, catalog: 'tools.json', 'max-tool-tokens': '100' });
  check('over budget: status 1 and a failing job', over.outputs.budget?.status === '1' && over.failed, over);
  check('over budget: the comment is posted', (over.comment ?? '').includes('over budget'), over);
  check(
    'over budget: the annotation says so',
    over.errors.some((e) => e.includes('over budget')),
    over,
  );
  say('over budget: status 1, the report commented, the job fails with "over budget"');

  const bad = run({ package: tarball, catalog: 'no-such-file.json' });
  check('bad input: status 2', bad.outputs.budget?.status === '2' && bad.failed, bad);
  check('bad input: no comment', bad.comment === undefined, bad);
  check(
    'bad input: "could not measure" with the cause',
    bad.errors.some((e) => e.includes('could not measure') && e.includes('no-such-file.json')),
    bad,
  );
  say('bad input: status 2, no comment, the job fails with "could not measure" and the cause');

  const lint = run({ package: tarball, catalog: 'twice.json', 'fail-on-lint': 'error' });
  check('fail-on-lint: status 1 on a duplicate name', lint.outputs.budget?.status === '1' && lint.failed, lint);
  say('fail-on-lint error: a name listed twice fails the check (status 1)');

  const missing = run({ package: join(scratch, 'no-such-package.tgz'), catalog: 'tools.json' });
  check('a failed install stops before measuring', missing.outcomes['Measure the tool definitions'] === 'skipped', missing);
  check('a failed install posts nothing', missing.comment === undefined, missing);
  check(
    'a failed install says so',
    missing.errors.some((e) => e.includes('could not be installed')),
    missing,
  );
  check('a failed install is not "over budget"', !missing.errors.some((e) => e.includes('over budget')), missing);
  say('a package that does not install: "could not be installed", nothing measured, no comment');

  // The default: the CLI built from the action's own checkout (its tracked files, as GitHub checks it out).
  const checkout = join(scratch, 'action-checkout');
  const files = spawnSync('git', ['ls-files', '-z'], { cwd: repo, encoding: 'utf8' }).stdout.split('\0').filter(Boolean);
  for (const f of files) if (existsSync(join(repo, f))) cpSync(join(repo, f), join(checkout, f), { recursive: true });
  const own = run({ catalog: 'tools.json', 'max-tool-tokens': '1000000' }, checkout);
  check('from its own checkout: installs and measures', own.outputs.budget?.status === '0' && !own.failed, own);
  check('from its own checkout: no optional or development dependency', !existsSync(join(checkout, 'node_modules', 'vitest')), own);
  check('from its own checkout: no optional dependency', !existsSync(join(checkout, 'node_modules', 'vega')), own);
  say("default: the CLI built from the action's own checkout (no dev or optional packages) measures, status 0");
}

main();
