import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBench } from '../../src/bench/run.ts';
import { BENCH_REGISTRY } from '../../src/bench/units.ts';
import { LIVEMCPBENCH_SUITE, REAL_SUITE, SUITES, SYNTHETIC_SUITE } from '../../src/table/suites.ts';
import { SOURCE_COLORS, SUITE_COLORS } from '../../src/report/charts/spec-base.ts';
import type { Table } from '../../src/table/table.ts';
import { FIXTURE_SUITE } from '../examples/suite.ts';
import { smallTaskFile } from '../helpers/result-files.ts';
import { smallBenchOptions } from '../helpers/small-runs.ts';

const tmp = mkdtempSync(join(tmpdir(), 'tooltax-suite-registry-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('suite registry', () => {
  it('holds each built-in suite once, by one id, with table ids made from it', () => {
    expect(SUITES.map((s) => s.id)).toEqual(['synthetic-120', 'real', 'livemcpbench']);
    expect(REAL_SUITE.measuredTable).toBe('table3-measured-real');
    expect(SYNTHETIC_SUITE.measuredTable).toBe('table3-measured');
    expect(SUITES.filter((s) => s.mainTables).map((s) => s.id)).toEqual(['synthetic-120', 'real']);
  });

  it("the charts' colours are the registry's", () => {
    // The chart specs keep their own palette; it must name the same colour as the suite's entry.
    expect([SOURCE_COLORS.measured, SUITE_COLORS.real, SUITE_COLORS.livemcpbench]).toEqual(
      [SYNTHETIC_SUITE, REAL_SUITE, LIVEMCPBENCH_SUITE].map((s) => s.color),
    );
  });

  it('a fourth suite added to the registry alone gets its tables in the run', async () => {
    const out = join(tmp, 'results');
    await runBench({
      ...smallBenchOptions(smallTaskFile(join(tmp, 'tasks.jsonl'), 1), {
        pipelines: ['b1-full-schema', 'b4-cli-lazy'],
        studies: ['real-suite'],
        registry: { ...BENCH_REGISTRY, suites: [SYNTHETIC_SUITE, FIXTURE_SUITE] },
        out,
        // The default reports folder is the repository's reports/.
        reports: join(tmp, 'reports'),
      }),
    });
    const table = (id: string) => JSON.parse(readFileSync(join(out, 'tables', `${id}.json`), 'utf8')) as Table;
    const measured = table('table3-measured-fixture');
    expect(measured.title).toMatch(/— fixture servers$/);
    expect(measured.rows.map((r) => r.pipeline)).toEqual(['b1-full-schema', 'b4-cli-lazy']);
    // B1 lists all 9 fixture tools on every turn: recall 1.
    expect(measured.rows[0]!.recall).toBe(1);
    expect(measured.notes!.join(' ')).toMatch(
      /catalog 9 tools on 3 fixture servers \(test\/fixtures\/small-catalog\), 4 hand-written tasks/,
    );
    for (const id of ['table3-projected-fixture', 'table4-projected-fixture', 'code-mode-fixture'])
      expect(table(id).rows.length, id).toBeGreaterThan(0);
    // Only the registry's suites ran: the real suite was left out of this registry.
    expect(existsSync(join(out, 'tables', 'table3-measured-real.json'))).toBe(false);
    const order = (JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')) as { tableOrder: string[] }).tableOrder;
    expect(order).toContain('table3-measured-fixture');
  });
});
