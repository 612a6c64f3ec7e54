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
  it('replays the stream of a fresh Rng(seed, label) to every caller, whatever the counts asked', () => {
    const cache = new DrawCache();
    const expected = draws(new Rng(7, 'task-1'), 500);
    // Growing the tape in steps (past its first 64 and its doublings) keeps what was drawn before.
    for (const n of [1, 63, 65, 200, 3, 500]) {
      const tape = cache.uniforms(7, 'task-1', n);
      expect(tape.length).toBeGreaterThanOrEqual(n);
      expect([...tape.subarray(0, n)]).toEqual(expected.slice(0, n));
    }
    // Another seed has its own tape, from its own beginning.
    expect([...cache.uniforms(8, 'task-1', 3).subarray(0, 3)]).toEqual(draws(new Rng(8, 'task-1'), 3));
    expect([...takeUniforms(new Rng(7, 'task-1'), 5)]).toEqual(expected.slice(0, 5));
  });
});
