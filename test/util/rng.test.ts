import { describe, expect, it } from 'vitest';
import { DrawCache, takeUniforms } from '../../src/sim/projection/draws.ts';
import { Rng } from '../../src/util/rng.ts';

const draws = (rng: { next(): number }, n: number) => Array.from({ length: n }, () => rng.next());

describe('Rng.position', () => {
  it('continues the stream exactly where it was taken', () => {
    const whole = draws(new Rng(42, 'label'), 1000);
    const first = new Rng(42, 'label');
    const head = draws(first, 337);
    const resumed = new Rng(0, 'ignored', first.position());
    expect([...head, ...draws(resumed, 663)]).toEqual(whole);
    // The position is a copy: drawing on from the first generator does not move it.
    const at = first.position();
    draws(first, 10);
    expect(draws(new Rng(0, '', at), 5)).toEqual(whole.slice(337, 342));
  });
});

describe('DrawCache', () => {
  it('replays the stream of a fresh Rng(seed, label) to every reader, in any take sizes', () => {
    const cache = new DrawCache();
    const expected = draws(new Rng(7, 'task-1'), 500);
    const a = cache.reader(7, 'task-1');
    const got: number[] = [];
    for (const n of [1, 63, 1, 64, 200, 3, 168]) got.push(...takeUniforms(a, n));
    expect(got).toEqual(expected);
    // A second reader of the same tape, and one of another seed, start from their own beginnings.
    expect([...takeUniforms(cache.reader(7, 'task-1'), 500)]).toEqual(expected);
    expect([...takeUniforms(cache.reader(8, 'task-1'), 3)]).toEqual(draws(new Rng(8, 'task-1'), 3));
  });
});
