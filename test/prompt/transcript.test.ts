import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/load.ts';
import { transcriptSection } from '../../src/prompt/shared-parts.ts';
import type { TaskTurn } from '../../src/tasks/types.ts';
import { inRunScope } from '../../src/util/run-scope.ts';

describe('transcriptSection', () => {
  const catalog = loadCatalog(['catalogs/synthetic-120']);
  const tool = catalog.tools[0]!;
  const turn: TaskTurn = { user: 'do the thing', tools: [tool.id] };

  it('is built once per catalog and turn in a run, and shared (its token count stays with the object)', () => {
    inRunScope(() => {
      const a = transcriptSection(catalog, 2, turn);
      expect(transcriptSection(catalog, 2, turn)).toBe(a);
      expect(a.label).toBe('turn-3');
      expect(a.text).toContain(`Assistant → tool call ${tool.name} `);
      // Another turn with the same content is its own section; another catalog builds its own.
      expect(transcriptSection(catalog, 2, { ...turn })).not.toBe(a);
      expect(transcriptSection({ ...catalog }, 2, turn)).not.toBe(a);
    });
  });

  it('is not shared between runs, and is the same text in each', () => {
    const first = inRunScope(() => transcriptSection(catalog, 2, turn));
    const second = inRunScope(() => transcriptSection(catalog, 2, turn));
    expect(second).not.toBe(first);
    expect(second).toEqual(first);
  });

  it('is built again, right, when the same turn object is asked for at another index', () => {
    const a = transcriptSection(catalog, 0, turn);
    expect(a.label).toBe('turn-1');
    expect(transcriptSection(catalog, 4, turn).label).toBe('turn-5');
  });
});
