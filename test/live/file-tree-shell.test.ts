import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/load.ts';
import { fileTreeCommand } from '../../src/live/file-tree-shell.ts';
import { splitCommandLine } from '../../src/live/tool-executor.ts';
import { resolveWrapperImports } from '../../src/live/wrapper-imports.ts';
import { createCodeModeFilesPipeline } from '../../src/pipelines/code-mode-files/pipeline.ts';
import { wrapperFile } from '../../src/pipelines/code-mode/render.ts';
import { sharedParts } from '../../src/prompt/shared-parts.ts';
import { tokenCounter } from '../../src/tokens/counter.ts';

const catalog = loadCatalog(join(process.cwd(), 'catalogs', 'synthetic-120'));
const run = (line: string) => fileTreeCommand(splitCommandLine(line), catalog.tools);
const output = (line: string) => {
  const r = run(line);
  if (!r.ok) throw new Error(r.detail);
  return r.output;
};

describe('the wrapper file tree shell of code-mode-files', () => {
  it('prints exactly what the bench simulates: the listing and each file', async () => {
    const pipeline = createCodeModeFilesPipeline();
    await pipeline.prepare!({
      catalog,
      tokens: tokenCounter('cl100k_base'),
      seed: 42,
      workDir: '',
      calibrationTasks: [],
      historyTasks: [],
    });
    const tool = catalog.tools.find((t) => t.id === 'github/get_me') ?? catalog.tools[0]!;
    const task = {
      id: 't',
      kind: 'single' as const,
      turns: [{ user: 'who am I on github', tools: [tool.id] }],
      groundTruthTools: [tool.id],
      initialState: { authScopes: [] },
      flags: { ambiguous: false },
      servers: [tool.server],
    };
    pipeline.startTask!(task);
    const turn = await pipeline.turn({
      task,
      turnIndex: 0,
      turn: task.turns[0]!,
      state: { authScopes: new Set(), toolOutputs: [] },
      shared: sharedParts([], task.turns[0]!.user),
    });
    expect(turn.exposure.discoveryCalls.length).toBeGreaterThan(0);
    for (const call of turn.exposure.discoveryCalls) expect(output(call.command)).toBe(call.output);
  });

  it('takes find’s paths, -name/-iname globs, -type and -maxdepth, and cat of several files', () => {
    const files = output('find servers -name "*.ts"').split('\n');
    expect(files).toHaveLength(catalog.tools.length);
    expect(output('find . -maxdepth 2 -type d').split('\n')).toEqual([
      '.',
      './servers',
      ...new Set(catalog.tools.map((t) => `./servers/${t.server}`)),
    ]);
    expect(output('find servers/github -iname "GET_ME.TS"')).toBe('servers/github/get_me.ts');
    expect(
      output('find ./servers/jira/ -type f')
        .split('\n')
        .every((l) => l.startsWith('./servers/jira/') && l.endsWith('.ts')),
    ).toBe(true);
    const a = catalog.tools[0]!;
    const b = catalog.tools[1]!;
    expect(output(`cat ./servers/${a.server}/${a.name}.ts servers/${b.server}/${b.name}.ts`)).toBe(`${wrapperFile(a)}\n${wrapperFile(b)}`);
  });

  it('answers what it cannot do with a shell-like error', () => {
    expect(run('ls servers')).toMatchObject({ ok: false, error: 'unknown_command' });
    expect(run('find servers -newer x')).toMatchObject({ ok: false, detail: 'find: unknown predicate `-newer`' });
    expect(run('find nowhere')).toMatchObject({ ok: false, detail: "find: 'nowhere': No such file or directory" });
    expect(run('cat servers/github')).toMatchObject({ ok: false, detail: 'cat: servers/github: Is a directory' });
    expect(run('cat servers/github/nope.ts')).toMatchObject({
      ok: false,
      detail: 'cat: servers/github/nope.ts: No such file or directory',
    });
  });
});

describe('imports of wrapper files in model code', () => {
  it('bind the sandbox’s functions on the same line; other imports stay', () => {
    const code = [
      'import { github_get_me, github_list_issues as list } from "./servers/github/get_me.ts";',
      "  import { jira_get_issue } from '../servers/jira/get_issue.ts'",
      'import fs from "node:fs";',
      'console.log(await github_get_me({}));',
    ].join('\n');
    expect(resolveWrapperImports(code).split('\n')).toEqual([
      'const { github_get_me, github_list_issues: list } = codemode;',
      '  const { jira_get_issue } = codemode;',
      'import fs from "node:fs";',
      'console.log(await github_get_me({}));',
    ]);
  });
});
