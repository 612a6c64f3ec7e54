import { describe, expect, it } from 'vitest';
import { registryDifference } from '../../src/bench/execute/worker.ts';

describe("a lane's registry against the run's", () => {
  const ids = { pipelines: ['b1', 'b2'], studies: ['aacp'], suites: ['synthetic-120'] };

  it('names what only one side has, or a changed order, and nothing when they are the same', () => {
    expect(registryDifference(ids, ids, 'R')).toBeUndefined();
    expect(registryDifference({ ...ids, pipelines: ['b1', 'b2', 'b3'] }, { ...ids, suites: [] }, 'R')).toBe(
      "R builds another registry in this thread than the run's (pipelines here only: b3; suites here only: synthetic-120); a registry module must build the same registry in every thread",
    );
    expect(registryDifference({ ...ids, studies: [] }, ids, 'R')).toMatch(/\(studies in the run's only: aacp\)/);
    expect(registryDifference({ ...ids, pipelines: ['b2', 'b1'] }, ids, 'R')).toMatch(/\(pipelines in another order\)/);
  });
});
