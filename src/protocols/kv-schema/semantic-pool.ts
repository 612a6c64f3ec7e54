import type { EvolutionParams } from './params.ts';
import { dot } from '../../embed/vector.ts';

/**
 * The Differential Semantic Pool of §6.2.1: "other" fragments are embedded and clustered
 * (cosine with the cluster centroid ≥ threshold joins the closest cluster, else a new one),
 * each cluster carries a heat that decays exponentially, and the dual gate — heat ≥ threshold
 * AND (distinct clients ≥ N OR occurrences in the window ≥ M) — says when it is mature.
 * Vectors must be L2-normalised (the Encoder contract), so a dot product is the cosine.
 */

export interface Fragment {
  text: string;
  clientId: string;
  /** Simulation time in hours. */
  timeH: number;
}

export type ClusterState = 'open' | 'queued' | 'patched';

export interface Cluster {
  id: number;
  /** Normalised mean of the member vectors. */
  centroid: Float32Array;
  fragments: Fragment[];
  clients: Set<string>;
  heat: number;
  heatAtH: number;
  state: ClusterState;
  /** Key the cluster became (set when patched). */
  keyName?: string;
}

export class DifferentialSemanticPool {
  readonly clusters: Cluster[] = [];
  private readonly sums: Float64Array[] = [];

  constructor(
    private readonly p: Pick<
      EvolutionParams,
      | 'clusterSimilarity'
      | 'heatHalfLifeHours'
      | 'heatIncrement'
      | 'heatThreshold'
      | 'minDistinctClients'
      | 'minOccurrencesInWindow'
      | 'occurrenceWindowDays'
    >,
  ) {}

  /** Heat at time t, decayed from the last update (§6.2.1 "MUST decay over time"). */
  heat(c: Cluster, tH: number): number {
    return c.heat * Math.pow(0.5, (tH - c.heatAtH) / this.p.heatHalfLifeHours);
  }

  occurrencesInWindow(c: Cluster, tH: number): number {
    const from = tH - this.p.occurrenceWindowDays * 24;
    let n = 0;
    for (let i = c.fragments.length - 1; i >= 0 && c.fragments[i]!.timeH > from; i--) n++;
    return n;
  }

  /** The dual gate of §6.2.1. */
  isMature(c: Cluster, tH: number): boolean {
    return (
      this.heat(c, tH) >= this.p.heatThreshold &&
      (c.clients.size >= this.p.minDistinctClients || this.occurrencesInWindow(c, tH) >= this.p.minOccurrencesInWindow)
    );
  }

  /** Add a fragment (in time order); returns its cluster and the best cosine found. */
  add(fragment: Fragment, vector: Float32Array): { cluster: Cluster; similarity: number } {
    let best = -1;
    let bestSim = -Infinity;
    this.clusters.forEach((c, i) => {
      const s = dot(c.centroid, vector);
      if (s > bestSim) {
        bestSim = s;
        best = i;
      }
    });
    let cluster: Cluster;
    if (best >= 0 && bestSim >= this.p.clusterSimilarity) {
      cluster = this.clusters[best]!;
      const sum = this.sums[best]!;
      for (let i = 0; i < sum.length; i++) sum[i]! += vector[i]!;
      let norm = 0;
      for (let i = 0; i < sum.length; i++) norm += sum[i]! * sum[i]!;
      norm = Math.sqrt(norm) || 1;
      for (let i = 0; i < sum.length; i++) cluster.centroid[i] = sum[i]! / norm;
      cluster.heat = this.heat(cluster, fragment.timeH) + this.p.heatIncrement;
      cluster.heatAtH = fragment.timeH;
    } else {
      cluster = {
        id: this.clusters.length,
        centroid: Float32Array.from(vector),
        fragments: [],
        clients: new Set(),
        heat: this.p.heatIncrement,
        heatAtH: fragment.timeH,
        state: 'open',
      };
      this.clusters.push(cluster);
      this.sums.push(Float64Array.from(vector));
    }
    cluster.fragments.push(fragment);
    cluster.clients.add(fragment.clientId);
    return { cluster, similarity: bestSim };
  }
}
