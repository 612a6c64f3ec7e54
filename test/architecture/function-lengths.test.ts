import { describe, expect, it } from 'vitest';
import { describeFunction, functionLengths, typeScriptFiles, type FunctionLength } from '../helpers/function-lengths.ts';

/**
 * Functions a reader can hold: none in src/ over 120 lines, none in src/bench/ over 80. A long
 * function is split by meaning into named steps (a state object and its helpers, one function
 * per command or table), not cut at a line count.
 */
const LIMIT = 120;
const ENGINE_LIMIT = 80;
const limitOf = (f: FunctionLength) => (f.file.startsWith('src/bench/') ? ENGINE_LIMIT : LIMIT);

describe('function lengths', () => {
  const all = typeScriptFiles('src').flatMap((f) => functionLengths(f));
  const over = all.filter((f) => f.lines > limitOf(f));

  it('sees the functions of src/', () => {
    // Guards against passing vacuously: the parse found functions, long and short, in the engine and outside it.
    expect(all.length).toBeGreaterThan(1000);
    expect(all.some((f) => f.file.startsWith('src/bench/'))).toBe(true);
    expect(all.some((f) => f.lines > 40)).toBe(true);
  });

  it(`has no function over ${LIMIT} lines in src/, none over ${ENGINE_LIMIT} in src/bench/`, () => {
    expect(over.map(describeFunction)).toEqual([]);
  });

  it('measures each function from its first line to its last, named as a reader finds it', () => {
    const text = [
      'export function outer(): number {',
      '  const inner = (x: number) =>',
      '    x + 1;',
      '  return inner(1);',
      '}',
      'class Run {',
      '  step(): void {}',
      '}',
      'const table = { render: function () {',
      '  return 1;',
      '} };',
    ].join('\n');
    const found = functionLengths('src/example.ts', text).map((f) => [f.name, f.line, f.lines]);
    expect(found).toEqual([
      ['outer', 1, 5],
      ['inner', 2, 2],
      ['step', 7, 1],
      ['render', 9, 3],
    ]);
  });
});
