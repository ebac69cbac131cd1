// Awareness: one convergence pass over 100 agents with full 10-snapshot windows
// (every pair, all four signals, prediction bookkeeping), against the same pass
// over 25 agents to show the n² cost; a crowded desktop (five groups of 20 on the
// same work, thousands of live predictions); and one prompt end to end.
import { ManualClock } from '../server/awareness/clock';
import { Awareness } from '../server/awareness/engine';
import { summarize, type Summary } from './stats';

export interface AwarenessResult {
  pass100: Summary;
  pass25: Summary;
  crowded100: Summary;
  crowdedPredictions: number;
  typicalPredictions: number;
  prompt100: Summary;
}

/** Work areas; agents in one area share words, so the pass finds (and updates) real predictions. */
const AREAS = ['auth jwt login session token', 'cache redis eviction ttl shard', 'css layout theme button modal', 'sql migration schema index query', 'build vite bundle deploy docker'];

function seeded(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

/**
 * n agents with full windows. Typical: groups of four share an area (the other
 * agents' areas are their own); crowded: all agents fall into the five areas.
 */
function populated(n: number, crowded: boolean): { aw: Awareness; prompt: (i: number) => string } {
  const rand = seeded(n);
  const aw = new Awareness({ clock: new ManualClock() });
  const areaOf = (i: number) => {
    if (crowded) return (AREAS[i % AREAS.length] as string).split(' ');
    const g = Math.floor(i / 4);
    return [`g${g}core`, `g${g}api`, `g${g}store`, `g${g}view`, `g${g}sync`];
  };
  const prompt = (i: number) => {
    const words = [...areaOf(i).filter(() => rand() < 0.6), `own${i}a`, `own${i}b`, `word${Math.floor(rand() * 40)}`];
    return `please look at ${words.join(' ')} again`;
  };
  for (let k = 0; k < 10; k++) for (let i = 0; i < n; i++) aw.prompt(`agent${i}`, prompt(i));
  return { aw, prompt };
}

function time(fn: () => void, runs: number): Summary {
  for (let i = 0; i < 5; i++) fn(); // warm the JIT
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    xs.push(performance.now() - t0);
  }
  return summarize(xs);
}

export function awareness(runs = 200): AwarenessResult {
  const big = populated(100, false);
  const small = populated(25, false);
  const crowd = populated(100, true);
  let i = 0;
  return {
    pass100: time(() => big.aw.pass(), runs),
    pass25: time(() => small.aw.pass(), runs),
    crowded100: time(() => crowd.aw.pass(), Math.ceil(runs / 4)),
    crowdedPredictions: crowd.aw.predictions().length,
    typicalPredictions: big.aw.predictions().length,
    prompt100: time(() => big.aw.prompt(`agent${i % 100}`, big.prompt(i++ % 100)), runs),
  };
}
