import { BENCH_REGISTRY } from '../units.ts';
import { serveLane } from './worker.ts';

/** A worker lane's thread on the bench's own registry (./lanes.ts starts it). */
serveLane(BENCH_REGISTRY, "the bench's registry");
