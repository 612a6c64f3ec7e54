import type { Catalog } from '../catalog/types.ts';
import type { Table } from '../table/table.ts';
import type { Task } from './types.ts';

/** Words that carry no intent; left out before comparing vocabularies. */
const STOPWORDS = new Set(
  'a an the and or of to in on for with by from at as is are be was were it its this that these those me my we our you your i can could would please any some all what whats which who how do does did get got show give tell let just now then also about into over up out so if not no yes there here them they their has have had will shall may might should via per each new'.split(
    ' ',
  ),
);

export function contentWords(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((w) => w.length > 1 && !STOPWORDS.has(w)),
  );
}

function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 0;
  let inter = 0;
  for (const w of a) if (b.has(w)) inter++;
  return inter / (a.size + b.size - inter);
}

/** Share of the message's content words that also appear in the summary. */
function containment(message: Set<string>, summary: Set<string>): number {
  if (message.size === 0) return 0;
  let inter = 0;
  for (const w of message) if (summary.has(w)) inter++;
  return inter / message.size;
}

/**
 * How much user messages borrow the words of their tools' summaries: Jaccard and
 * containment against the needed tools' summaries, and, as a floor, against the summaries of
 * the other tools of the same servers. A task set that copies summaries scores near 1.
 */
export function overlapTable(tasks: readonly Task[], catalog: Catalog): Table {
  const summary = new Map(catalog.tools.map((t) => [t.id, contentWords(`${t.summary}`)]));
  const description = new Map(catalog.tools.map((t) => [t.id, contentWords(`${t.definition.description ?? ''}`)]));
  const acc = { jS: 0, cS: 0, jD: 0, jOther: 0, n: 0, exact: 0 };
  for (const task of tasks) {
    for (const turn of task.turns) {
      if (turn.tools.length === 0) continue;
      const msg = contentWords(turn.user);
      const needed = new Set(turn.tools.flatMap((id) => [...summary.get(id)!]));
      const neededDesc = new Set(turn.tools.flatMap((id) => [...description.get(id)!]));
      const servers = new Set(turn.tools.map((id) => id.split('/')[0]));
      const others = catalog.tools.filter((t) => servers.has(t.server) && !turn.tools.includes(t.id));
      acc.jS += jaccard(msg, needed);
      acc.cS += containment(msg, needed);
      acc.jD += jaccard(msg, neededDesc);
      acc.jOther += others.length ? others.reduce((s, t) => s + jaccard(msg, summary.get(t.id)!), 0) / others.length : 0;
      acc.exact += turn.tools.some((id) => catalog.tools.find((t) => t.id === id)!.summary.toLowerCase() === turn.user.toLowerCase())
        ? 1
        : 0;
      acc.n++;
    }
  }
  const avg = (x: number) => x / Math.max(1, acc.n);
  return {
    id: 'task-lexical-overlap',
    title: 'Lexical overlap between user messages and tool summaries',
    columns: [
      { key: 'measure', header: 'measure', kind: 'label' },
      { key: 'value', header: 'value', kind: 'measured', digits: 3 },
    ],
    rows: [
      { measure: 'Jaccard(message, needed tools’ summaries)', value: avg(acc.jS) },
      { measure: 'share of message words found in the summaries', value: avg(acc.cS) },
      { measure: 'Jaccard(message, needed tools’ descriptions)', value: avg(acc.jD) },
      { measure: 'Jaccard(message, other tools’ summaries, same servers)', value: avg(acc.jOther) },
      { measure: 'messages identical to a summary', value: acc.exact },
    ],
    notes: [
      `Over ${acc.n} turns that need a tool.`,
      'Content words: lower-cased, stop words removed. 1.0 would mean messages copy summaries; the other-tools row is the floor.',
    ],
  };
}
