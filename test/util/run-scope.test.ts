import { describe, expect, it } from 'vitest';
import { tokenCounter } from '../../src/tokens/counter.ts';
import { cached, inRunScope, runCache, RunScope } from '../../src/util/run-scope.ts';

const SEEN = runCache('texts seen (test)', () => new Set<string>());

describe('run scope', () => {
  it('gives one value per run, made on first use, across awaits', async () => {
    const scope = new RunScope();
    await inRunScope(async () => {
      cached(SEEN).add('a');
      await new Promise((resolve) => setImmediate(resolve));
      cached(SEEN).add('b');
    }, scope);
    expect([...scope.get(SEEN)]).toEqual(['a', 'b']);
    expect(scope.names()).toEqual(['texts seen (test)']);
  });

  it('keeps nothing from one run to the next', () => {
    inRunScope(() => cached(SEEN).add('a'));
    expect(inRunScope(() => cached(SEEN).size)).toBe(0);
  });

  it('keeps what calls outside any run memoise apart from every run', () => {
    cached(SEEN).add('outside');
    expect(cached(SEEN).has('outside')).toBe(true);
    expect(inRunScope(() => cached(SEEN).has('outside'))).toBe(false);
    inRunScope(() => cached(SEEN).add('inside'));
    expect(cached(SEEN).has('inside')).toBe(false);
  });

  it('keeps runs side by side apart', async () => {
    const sizes = await Promise.all(
      ['x', 'y'].map((t) =>
        inRunScope(async () => {
          cached(SEEN).add(t);
          await new Promise((resolve) => setImmediate(resolve));
          return [...cached(SEEN)];
        }),
      ),
    );
    expect(sizes).toEqual([['x'], ['y']]);
  });

  it('gives each run its own token counter, and the same one within a run', () => {
    const [a, b] = inRunScope(() => [tokenCounter(), tokenCounter()]);
    expect(a).toBe(b);
    a!.count('hello world');
    const c = inRunScope(() => tokenCounter());
    expect(c).not.toBe(a);
    expect(c.count('hello world')).toBe(a!.count('hello world'));
    expect(c.misses).toBe(1);
  });
});
