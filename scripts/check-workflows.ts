#!/usr/bin/env -S npx tsx
/**
 * Checks the GitHub Actions workflows and the repository's own action without GitHub: every
 * file under .github/workflows parses as YAML, has `on` and `jobs`, every job has `runs-on` and
 * steps that `run` or `uses` something, and every `npm run <script>` / `npm test` they call
 * exists in package.json. action.yml (a composite action) declares its inputs with
 * descriptions, each of its steps runs with a `shell` or uses an action, every
 * `inputs.<name>` it reads is declared and every declared input is read; a workflow step that
 * uses it (`uses: ./`) passes only inputs it declares and every required one.
 * Usage: npx tsx scripts/check-workflows.ts [workflows dir] [package.json] [action.yml]
 * Exit 0 when all is well, 1 with one line per problem otherwise.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isMap, isSeq, parseDocument } from 'yaml';

/** The npm scripts a shell snippet runs: `npm run [flags] <name>`, `npm run-script <name>`, `npm test`, `npm start`. */
export function npmScriptsIn(shell: string): string[] {
  const out: string[] = [];
  const text = shell.replace(/\\\n/g, ' ');
  for (const m of text.matchAll(/\bnpm\s+(?:run|run-script|rum|urn)\b((?:\s+--?[\w-]+(?:=\S+)?)*)\s+([^\s;&|)]+)/g)) out.push(m[2]!);
  for (const m of text.matchAll(/\bnpm\s+(?:(test|t|tst)|(start))\b/g)) out.push(m[1] ? 'test' : 'start');
  return out;
}

interface ActionInputs {
  declared: Map<string, { required: boolean }>;
}

/** Problems of a composite action file, and its inputs (for the workflows that use it). */
export function checkAction(file: string): { problems: string[]; inputs?: ActionInputs } {
  if (!existsSync(file)) return { problems: [`${file}: no action file`] };
  const text = readFileSync(file, 'utf8');
  const doc = parseDocument(text);
  if (doc.errors.length)
    return { problems: doc.errors.map((e) => `${file}: YAML error at line ${e.linePos?.[0]?.line ?? '?'}: ${e.message.split('\n')[0]}`) };
  const a = doc.toJS() as {
    name?: unknown;
    description?: unknown;
    inputs?: Record<string, Record<string, unknown>>;
    runs?: { using?: unknown; steps?: unknown };
  } | null;
  const problems: string[] = [];
  if (!a || typeof a !== 'object') return { problems: [`${file}: expected an action mapping`] };
  if (typeof a.name !== 'string' || typeof a.description !== 'string') problems.push(`${file}: expected "name" and "description"`);
  const declared = new Map<string, { required: boolean }>();
  for (const [name, spec] of Object.entries(a.inputs ?? {})) {
    if (!spec || typeof spec.description !== 'string') problems.push(`${file}: inputs.${name}: expected a description`);
    declared.set(name, { required: spec?.required === true && spec.default === undefined });
  }
  if (a.runs?.using !== 'composite') problems.push(`${file}: expected runs.using: composite`);
  const steps = Array.isArray(a.runs?.steps) ? (a.runs.steps as Record<string, unknown>[]) : [];
  if (!steps.length) problems.push(`${file}: expected runs.steps with at least one step`);
  steps.forEach((step, i) => {
    const at = `${file}: runs.steps[${i}]`;
    if (typeof step.uses === 'string') return;
    if (typeof step.run !== 'string') problems.push(`${at}: expected "run" or "uses"`);
    else if (typeof step.shell !== 'string') problems.push(`${at}: expected a "shell" (a composite step's run needs one)`);
  });
  const read = new Set([...text.matchAll(/\binputs\.([A-Za-z0-9_-]+)/g)].map((m) => m[1]!));
  for (const name of read) if (!declared.has(name)) problems.push(`${file}: reads inputs.${name}, which it does not declare`);
  for (const name of declared.keys()) if (!read.has(name)) problems.push(`${file}: declares inputs.${name} but never reads it`);
  return { problems, inputs: { declared } };
}

export function checkWorkflows(
  dir: string,
  packageJson: string,
  action?: ActionInputs,
): { problems: string[]; files: number; scripts: number; actionUses: number } {
  const problems: string[] = [];
  let actionUses = 0;
  if (!existsSync(dir)) return { problems: [`${dir}: no workflows folder`], files: 0, scripts: 0, actionUses: 0 };
  const scripts = (JSON.parse(readFileSync(packageJson, 'utf8')) as { scripts?: Record<string, string> }).scripts ?? {};
  const files = readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort();
  if (!files.length) problems.push(`${dir}: no .yml workflow files`);
  let called = 0;
  for (const f of files) {
    const file = join(dir, f);
    const doc = parseDocument(readFileSync(file, 'utf8'));
    if (doc.errors.length) {
      for (const e of doc.errors) problems.push(`${file}: YAML error at line ${e.linePos?.[0]?.line ?? '?'}: ${e.message.split('\n')[0]}`);
      continue;
    }
    const wf = doc.toJS() as Record<string, unknown> | null;
    if (!wf || typeof wf !== 'object') {
      problems.push(`${file}: expected a workflow mapping`);
      continue;
    }
    if (!('on' in wf)) problems.push(`${file}: expected an "on" trigger`);
    const jobs = doc.get('jobs');
    if (!isMap(jobs) || jobs.items.length === 0) {
      problems.push(`${file}: expected "jobs" with at least one job`);
      continue;
    }
    for (const [name, job] of Object.entries(wf.jobs as Record<string, Record<string, unknown>>)) {
      const where = `${file}: jobs.${name}`;
      if (!job || typeof job !== 'object') {
        problems.push(`${where}: expected a job mapping`);
        continue;
      }
      if (typeof job.uses === 'string') continue; // a reusable workflow call
      if (!job['runs-on']) problems.push(`${where}: expected "runs-on"`);
      const steps = doc.getIn(['jobs', name, 'steps']);
      if (!isSeq(steps) || steps.items.length === 0) {
        problems.push(`${where}: expected "steps" with at least one step`);
        continue;
      }
      (job.steps as Record<string, unknown>[]).forEach((step, i) => {
        const at = `${where}.steps[${i}]`;
        if (!step || (typeof step.run !== 'string' && typeof step.uses !== 'string')) {
          problems.push(`${at}: expected "run" or "uses"`);
          return;
        }
        if (step.uses === './') {
          actionUses++;
          const given = step.with && typeof step.with === 'object' ? Object.keys(step.with) : [];
          if (!action) problems.push(`${at}: uses ./ but the repository's action.yml could not be read`);
          else {
            for (const k of given) if (!action.declared.has(k)) problems.push(`${at}: passes "${k}", which action.yml does not declare`);
            for (const [k, spec] of action.declared)
              if (spec.required && !given.includes(k)) problems.push(`${at}: misses the required input "${k}"`);
          }
        }
        if (typeof step.run !== 'string') return;
        for (const script of npmScriptsIn(step.run)) {
          called++;
          if (!(script in scripts))
            problems.push(
              `${at}: calls "npm run ${script}", but package.json has no script "${script}" (it has: ${Object.keys(scripts).join(', ')})`,
            );
        }
      });
    }
  }
  return { problems, files: files.length, scripts: called, actionUses };
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const dir = resolve(process.argv[2] ?? '.github/workflows');
  const pkg = resolve(process.argv[3] ?? 'package.json');
  const action = checkAction(resolve(process.argv[4] ?? 'action.yml'));
  const { problems, files, scripts, actionUses } = checkWorkflows(dir, pkg, action.inputs);
  for (const p of [...action.problems, ...problems]) console.error(`check-workflows: ${p}`);
  if (action.problems.length || problems.length) process.exit(1);
  console.log(
    `check-workflows: ${files} workflow(s) parse; the ${scripts} npm script call(s) they make exist in package.json; action.yml is a composite action whose ${action.inputs!.declared.size} inputs are declared and read, used by ${actionUses} workflow step(s)`,
  );
}
