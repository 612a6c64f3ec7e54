import { describe, expect, it } from 'vitest';
import { createTfidfEncoder, tokenize } from '../../src/embed/tfidf.ts';
import { dot, norm } from '../../src/embed/vector.ts';

const corpus = [
  'Create an issue in a GitHub repository',
  'List issues in a repository',
  'Send a message to a Slack channel',
  'List Slack channels',
];

describe('tfidf encoder', () => {
  it('tokenises lower-case words and splits camelCase (keeping the joined word) and snake_case', () => {
    expect(tokenize('createIssue list_channels HTTPServer, v2!')).toEqual([
      'create',
      'issue',
      'createissue',
      'list',
      'channels',
      'http',
      'server',
      'httpserver',
      'v2',
    ]);
    expect(tokenize('GitHub')).toEqual(['git', 'hub', 'github']);
  });

  it('records its vocabulary size and is that many dimensions', () => {
    const enc = createTfidfEncoder({ corpus });
    expect(enc.dim).toBe(enc.vocabulary.length);
    expect(enc.description).toContain(`vocabulary of ${enc.vocabulary.length} words`);
    expect(enc.vocabulary).toEqual([...enc.vocabulary].sort());
  });

  it('keeps the maxFeatures terms found in most documents, ties alphabetical', () => {
    const enc = createTfidfEncoder({ corpus, maxFeatures: 3 });
    // 'a' is in 3 documents; 'in', 'list', 'repository', 'slack' in 2: the first two of those alphabetically.
    expect(enc.vocabulary).toEqual(['a', 'in', 'list']);
    expect(enc.dim).toBe(3);
    expect(enc.description).toContain('the 3 terms in most documents of');
    expect(enc.fingerprint).not.toBe(createTfidfEncoder({ corpus }).fingerprint);
    expect(() => createTfidfEncoder({ corpus, maxFeatures: 0 })).toThrow(/maxFeatures must be a positive integer, got 0/);
  });

  it('gives unit vectors and ranks lexical overlap', async () => {
    const enc = createTfidfEncoder({ corpus });
    const [q, issue, slack] = await enc.embed(['list repository issues', corpus[1]!, corpus[2]!]);
    for (const v of [q, issue, slack]) expect(norm(v!)).toBeCloseTo(1, 6);
    expect(dot(q!, issue!)).toBeGreaterThan(dot(q!, slack!));
  });

  it('weights rare words above common ones (smoothed idf) and damps repeats (sublinear tf)', async () => {
    const enc = createTfidfEncoder({ corpus });
    const col = (w: string) => enc.vocabulary.indexOf(w);
    const [v] = await enc.embed(['slack slack slack github']);
    // slack: df 2, tf 3 → (1 + ln 3)·(ln(5/3) + 1); github: df 1, tf 1 → ln(5/2) + 1
    const slack = (1 + Math.log(3)) * (Math.log(5 / 3) + 1);
    const github = Math.log(5 / 2) + 1;
    expect(v![col('slack')]! / v![col('github')]!).toBeCloseTo(slack / github, 5);
  });

  it('maps text with no known word to the zero vector, and fingerprints the corpus', async () => {
    const enc = createTfidfEncoder({ corpus });
    const [v] = await enc.embed(['zzz qqq']);
    expect(norm(v!)).toBe(0);
    expect(createTfidfEncoder({ corpus: [...corpus].reverse() }).fingerprint).toBe(enc.fingerprint);
    expect(createTfidfEncoder({ corpus: corpus.slice(1) }).fingerprint).not.toBe(enc.fingerprint);
  });

  it('rejects an empty corpus', () => {
    expect(() => createTfidfEncoder({ corpus: [] })).toThrow(/non-empty/);
  });
});
