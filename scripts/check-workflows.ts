#!/usr/bin/env -S npx tsx
/**
 * Checks the GitHub Actions workflows without GitHub: every file under .github/workflows
 * parses as YAML, has `on` and `jobs`, every job has `runs-on` and steps that `run` or `uses`
 * something, and every `npm run <script>` / `npm test` they call exists in package.json.
 * Usage: npx tsx scripts/check-workflows.ts [workflows dir] [package.json]
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

export function checkWorkflows(dir: string, packageJson: string): { problems: string[]; files: number; scripts: number } {
  const problems: string[] = [];
  if (!existsSync(dir)) return { problems: [`${dir}: no workflows folder`], files: 0, scripts: 0 };
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
  return { problems, files: files.length, scripts: called };
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const dir = resolve(process.argv[2] ?? '.github/workflows');
  const pkg = resolve(process.argv[3] ?? 'package.json');
  const { problems, files, scripts } = checkWorkflows(dir, pkg);
  for (const p of problems) console.error(`check-workflows: ${p}`);
  if (problems.length) process.exit(1);
  console.log(`check-workflows: ${files} workflow(s) parse; the ${scripts} npm script call(s) they make exist in package.json`);
}
