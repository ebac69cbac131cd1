// Which state lives in which file, and when it is written: each part of the
// engine's state is its own JSON file (the seed's layout), saved shortly after it
// changes so a burst of hook events costs one write, and on stop.
import fs from 'node:fs';
import { z } from 'zod';
import { AgentAwarenessSchema, ClaimLogEntrySchema, ClaimSchema, MessageSchema, PredictionStateSchema } from '../../kits/protocol/awareness';
import type { AwarenessState, Part } from './engine';
import { DEFAULT_DOMAINS, type DomainMap } from './domains';
import { emptyPredictions } from './predictions';
import type { JsonStore } from './store';

export const FILES: Record<Part, string> = {
  registry: 'registry.json',
  claims: 'claims.json',
  predictions: 'predictions.json',
  learned: 'learned_domains.json',
};

const DomainMapSchema = z.record(z.string().min(1), z.array(z.string().min(1)));

export const RegistryFileSchema = z.object({ agents: z.array(AgentAwarenessSchema), messages: z.array(MessageSchema) });
export const ClaimsFileSchema = z.object({ claims: z.array(ClaimSchema), log: z.array(ClaimLogEntrySchema) });
export const LearnedFileSchema = z.object({ domains: DomainMapSchema, pending: z.record(z.string(), z.number().int().min(0)) });

export function loadState(store: JsonStore, threshold: number): AwarenessState {
  const reg = store.load(FILES.registry, RegistryFileSchema, () => ({ agents: [], messages: [] }));
  return {
    agents: reg.agents,
    messages: reg.messages,
    claims: store.load(FILES.claims, ClaimsFileSchema, () => ({ claims: [], log: [] })),
    predictions: store.load(FILES.predictions, PredictionStateSchema, () => emptyPredictions(threshold)),
    learned: store.load(FILES.learned, LearnedFileSchema, () => ({ domains: {}, pending: {} })),
  };
}

function partData(s: AwarenessState, p: Part): unknown {
  switch (p) {
    case 'registry':
      return { agents: s.agents, messages: s.messages };
    case 'claims':
      return s.claims;
    case 'predictions':
      return s.predictions;
    case 'learned':
      return s.learned;
  }
}

/**
 * Gathers changed parts and writes them `delayMs` after the first change, off the
 * event loop (a hook burst must not wait on fsync); one write at a time, and
 * `close()` waits for it and writes the rest before the server stops.
 */
export class Saver {
  private dirty = new Set<Part>();
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> | null = null;

  constructor(
    private readonly store: JsonStore,
    private readonly state: () => AwarenessState,
    private readonly warn: (m: string) => void,
    /** A server killed outright loses at most this much; shorter only buys more fsyncs. */
    private readonly delayMs = 1000,
  ) {}

  mark(parts: readonly Part[]): void {
    for (const p of parts) this.dirty.add(p);
    this.schedule();
  }

  private schedule(): void {
    if (this.timer || this.writing || this.dirty.size === 0) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.writing = this.writeDirty().finally(() => {
        this.writing = null;
        this.schedule();
      });
    }, this.delayMs);
    this.timer.unref();
  }

  private async writeDirty(): Promise<void> {
    const s = this.state();
    for (const p of [...this.dirty]) {
      // Taken off first: a change made while this write is in flight marks it again.
      this.dirty.delete(p);
      try {
        await this.store.saveAsync(FILES[p], partData(s, p));
      } catch (e) {
        this.dirty.add(p);
        // Locked by someone else or a full disk: the next change (or close) tries again.
        this.warn(`awareness: could not write ${FILES[p]}: ${(e as Error).message}`);
      }
    }
  }

  /** Writes everything now, synchronously (tests, and after close's wait). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const s = this.state();
    for (const p of [...this.dirty]) {
      try {
        this.store.save(FILES[p], partData(s, p));
        this.dirty.delete(p);
      } catch (e) {
        this.warn(`awareness: could not write ${FILES[p]}: ${(e as Error).message}`);
      }
    }
  }

  /** Waits for a write in flight, then writes what is left. */
  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.writing) await this.writing;
    this.flush();
  }
}

/**
 * The domain map file ({"auth": ["jwt", "login"], ...}): missing means the built-in
 * map; a bad file is reported and the built-in map kept, never a half-read one.
 */
export function loadDomainMap(file: string, warn: (m: string) => void): DomainMap {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return DEFAULT_DOMAINS;
  }
  try {
    const r = DomainMapSchema.safeParse(JSON.parse(text));
    if (r.success) return Object.fromEntries(Object.entries(r.data).map(([d, ts]) => [d, ts.map((t) => t.toLowerCase())]));
    warn(`awareness: ${file}: ${r.error.issues[0]?.message ?? 'invalid'} (expected {"domain": ["topic", ...]}); using the built-in domains`);
  } catch (e) {
    warn(`awareness: ${file} is not JSON (${(e as Error).message}); using the built-in domains`);
  }
  return DEFAULT_DOMAINS;
}
