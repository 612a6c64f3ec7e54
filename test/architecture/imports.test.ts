import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The folder-level architecture, checked on the source text: every relative import of every
 * file under src/, resolved to the top-level folder it lands in.
 */
const SRC = 'src';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return p.endsWith('.ts') ? [p] : [];
  });
}

const IMPORT = /(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g;

/** file → files it imports (relative imports only; packages are not folders of ours). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    graph.set(
      file,
      [...text.matchAll(IMPORT)].map((m) => normalize(join(dirname(file), m[1]!))),
    );
  }
  return graph;
}

const topFolder = (file: string) => relative(SRC, file).split(/[\\/]/)[0]!;

describe('architecture', () => {
  const graph = importGraph();

  it('has no import cycle between top-level folders of src/', () => {
    const edges = new Map<string, Set<string>>();
    for (const [from, tos] of graph) {
      for (const to of tos) {
        const a = topFolder(from);
        const b = topFolder(to);
        if (a !== b) edges.set(a, (edges.get(a) ?? new Set()).add(b));
      }
    }
    const inCycle: string[] = [];
    for (const start of edges.keys()) {
      const seen = new Set<string>();
      const stack = [...(edges.get(start) ?? [])];
      while (stack.length) {
        const x = stack.pop()!;
        if (x === start) {
          inCycle.push(start);
          break;
        }
        if (seen.has(x)) continue;
        seen.add(x);
        stack.push(...(edges.get(x) ?? []));
      }
    }
    expect(inCycle).toEqual([]);
  });

  it('has no import cycle between files of src/', () => {
    // Depth-first search with colours; a grey node reached again closes a cycle.
    const colour = new Map<string, 'grey' | 'black'>();
    const cycles: string[] = [];
    const visit = (file: string, path: string[]) => {
      colour.set(file, 'grey');
      for (const next of graph.get(file) ?? []) {
        if (!graph.has(next)) continue;
        if (colour.get(next) === 'grey') cycles.push([...path.slice(path.indexOf(next)), next].join(' → '));
        else if (!colour.has(next)) visit(next, [...path, next]);
      }
      colour.set(file, 'black');
    };
    for (const file of graph.keys()) if (!colour.has(file)) visit(file, [file]);
    expect(cycles).toEqual([]);
  });

  it('src/report depends only on results files and shared types (results, table, util), transitively', () => {
    const allowed = new Set(['report', 'results', 'table', 'util']);
    const reached = new Set<string>();
    const stack = [...graph.keys()].filter((f) => topFolder(f) === 'report');
    while (stack.length) {
      const f = stack.pop()!;
      if (reached.has(f)) continue;
      reached.add(f);
      stack.push(...(graph.get(f) ?? []));
    }
    const outside = [...reached].filter((f) => !allowed.has(topFolder(f))).sort();
    expect(outside).toEqual([]);
  });

  it('the checks see the source tree (a guard against a vacuous pass)', () => {
    expect([...graph.keys()].filter((f) => topFolder(f) === 'report').length).toBeGreaterThan(5);
    expect(new Set([...graph.keys()].map(topFolder)).size).toBeGreaterThan(10);
  });
});
