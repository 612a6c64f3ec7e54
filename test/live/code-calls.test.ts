import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/load.ts';
import { ToolExecutor, type ExecutorContext } from '../../src/live/tool-executor.ts';
import { codeName } from '../../src/pipelines/code-mode/render.ts';

/**
 * The tool calls model-written code makes (ToolExecutor.answerCode): each is graded as a
 * direct call would be, through the same hallucination gate; an argument that is not an object
 * and a name that is no tool are invalid calls, recorded.
 */
const catalog = loadCatalog(join(process.cwd(), 'test', 'fixtures', 'small-catalog'));
const ex = new ToolExecutor(catalog);
const ctx: ExecutorContext = { catalog, toolByName: new Map(), gate: false, offered: catalog.tools.map((t) => t.id) };
const search = catalog.tools.find((t) => t.id === 'code/search_code')!;
const runCode = (code: string, extra: Partial<ExecutorContext> = {}) =>
  ex.answerCode({ id: 'c1', name: 'codemode', argumentsText: JSON.stringify({ code }) }, { ...ctx, ...extra });

describe('tool calls from code', () => {
  it('an argument that is not an object is an invalid call, not {}', async () => {
    for (const arg of ['"login"', '["login"]', 'null', '42']) {
      const { content, records } = await runCode(`async () => codemode.${codeName(search)}(${arg})`);
      expect(JSON.parse(content)).toMatchObject({ error: 'code_error' });
      expect(records.slice(1)).toEqual([
        expect.objectContaining({ kind: 'tool', toolId: search.id, malformed: true, argsValid: false, error: 'invalid_arguments' }),
      ]);
    }
  });

  it('no argument passes no arguments, graded against the schema; an object is graded as given', async () => {
    const { records } = await runCode(
      `async () => { try { await codemode.${codeName(search)}(); } catch {} return codemode.${codeName(search)}({ query: "login" }); }`,
    );
    expect(records.slice(1)).toEqual([
      expect.objectContaining({ kind: 'tool', toolId: search.id, malformed: false, argsValid: false }),
      expect.objectContaining({ kind: 'tool', toolId: search.id, malformed: false, argsValid: true }),
    ]);
  });

  it('a codemode name that is no tool is recorded as an invalid call', async () => {
    const { content, records } = await runCode('async () => codemode.delete_everything({})');
    expect(JSON.parse(content)).toMatchObject({ error: 'code_error', detail: expect.stringContaining('unknown_tool') });
    expect(records.slice(1)).toEqual([expect.objectContaining({ name: 'delete_everything', kind: 'invalid', error: 'unknown_tool' })]);
  });

  it('goes through the hallucination gate: only the offered tools are called', async () => {
    const names = catalog.tools.map((t) => codeName(t));
    const { records } = await runCode(
      `async () => { let n = 0; for (const name of ${JSON.stringify(names)}) { try { await codemode[name]({}); n++; } catch {} } return n; }`,
      { gate: true, offered: [search.id] },
    );
    const calls = records.filter((r) => r.kind === 'tool');
    expect(calls).toHaveLength(catalog.tools.length);
    expect(calls.filter((r) => !r.gated).map((r) => r.toolId)).toEqual([search.id]);
    expect(calls.filter((r) => r.gated).every((r) => r.error === 'tool_not_available')).toBe(true);
  });
});
