// The engine's domains: the configured map, the topics learned into it from
// prompts (domains.ts does the counting), and one index over both, rebuilt only
// when either changes, since convergence profiles are cached per index.
import { DEFAULT_DOMAINS, indexDomains, learn, type DomainIndex, type DomainMap } from './domains';

export interface LearnedState {
  domains: DomainMap;
  pending: Record<string, number>;
}

export class DomainBook {
  private readonly learned: DomainMap;
  private readonly counts: Map<string, number>;
  private index: DomainIndex;

  constructor(
    private map: DomainMap = DEFAULT_DOMAINS,
    saved: LearnedState = { domains: {}, pending: {} },
  ) {
    this.learned = saved.domains;
    this.counts = new Map(Object.entries(saved.pending));
    this.index = indexDomains(this.map, this.learned);
  }

  get idx(): DomainIndex {
    return this.index;
  }

  state(): LearnedState {
    return { domains: this.learned, pending: Object.fromEntries(this.counts) };
  }

  setMap(map: DomainMap): void {
    this.map = map;
    this.index = indexDomains(this.map, this.learned);
  }

  view(): { configured: DomainMap; learned: DomainMap } {
    return { configured: this.map, learned: this.learned };
  }

  /** Counts one prompt's topics toward learning; returns what was learned. */
  observe(topics: readonly string[], learnAfter: number): { topic: string; domain: string }[] {
    const got = learn(topics, this.index, this.counts, this.learned, learnAfter);
    if (got.length) this.index = indexDomains(this.map, this.learned);
    return got;
  }
}
