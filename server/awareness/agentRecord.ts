// One agent's awareness record: created on first sight, advanced by each prompt
// (a new snapshot) and each tool use (files and their topics join the current
// snapshot), with the trajectory and key topics recomputed from the window.
import type { AgentAwareness, Snapshot } from '../../kits/protocol/awareness';
import type { AwarenessConfig } from './config';
import { extractTopics, hashText, pathTopics, promptPaths, type Vocab } from './topics';
import { classify, keyTopics, pushSnapshot } from './trajectory';

/** The last prompt is kept for finger and handoff, cut so one pasted log cannot bloat the state. */
const LAST_PROMPT_CHARS = 500;
/** Topics a snapshot may hold once tool files join: the prompt's N plus a few from paths. */
const EXTRA_FILE_TOPICS = 4;

export interface Whereabouts {
  pane?: number | null | undefined;
  quadrant?: string | null | undefined;
  cwd?: string | null | undefined;
}

export function newAgent(name: string, now: number, w: Whereabouts = {}): AgentAwareness {
  return {
    name,
    pane: w.pane ?? null,
    quadrant: w.quadrant ?? null,
    cwd: w.cwd ?? null,
    lastPrompt: null,
    promptCount: 0,
    keyTopics: [],
    window: [],
    trajectory: { deepening: [], emerging: [], fading: [], stable: [] },
    createdAt: now,
    lastActive: now,
    endedAt: null,
  };
}

/** Applies what is known of where the agent is; undefined leaves a field as it was. */
export function place(a: AgentAwareness, w: Whereabouts): boolean {
  let changed = false;
  for (const k of ['pane', 'quadrant', 'cwd'] as const) {
    const v = w[k];
    if (v !== undefined && a[k] !== v) {
      (a as Record<typeof k, unknown>)[k] = v;
      changed = true;
    }
  }
  return changed;
}

function recompute(a: AgentAwareness, cfg: AwarenessConfig): void {
  a.trajectory = classify(a.window, cfg);
  a.keyTopics = keyTopics(a.window, cfg.topN);
}

/** A prompt: a new snapshot of its topics. Returns the topics. */
export function applyPrompt(a: AgentAwareness, text: string, now: number, cfg: AwarenessConfig, v: Vocab): string[] {
  const topics = extractTopics(text, v);
  const snap: Snapshot = { at: now, hash: hashText(text), topics, files: [], mentions: promptPaths(text, a.cwd) };
  a.window = pushSnapshot(a.window, snap, cfg.window);
  a.promptCount++;
  a.lastPrompt = text.length > LAST_PROMPT_CHARS ? `${text.slice(0, LAST_PROMPT_CHARS)}…` : text;
  a.lastActive = now;
  a.endedAt = null;
  recompute(a, cfg);
  return topics;
}

/**
 * Tool use: the files join the current snapshot (the turn they belong to), and
 * their path words join its topics. Before any prompt, the tool starts a snapshot.
 * Returns whether the topics changed (then convergence is worth a new pass).
 */
export function applyTool(a: AgentAwareness, files: readonly string[], now: number, cfg: AwarenessConfig, v: Vocab): boolean {
  a.lastActive = now;
  a.endedAt = null;
  if (files.length === 0) return false;
  let cur = a.window[a.window.length - 1];
  if (!cur) {
    cur = { at: now, hash: 'tool', topics: [], files: [], mentions: [] };
    a.window = [cur];
  } else {
    cur = { ...cur, topics: [...cur.topics], files: [...cur.files] };
    a.window = [...a.window.slice(0, -1), cur];
  }
  const cap = cfg.topN + EXTRA_FILE_TOPICS;
  let changed = false;
  for (const f of files) {
    if (!cur.files.includes(f)) {
      cur.files.push(f);
      if (cur.files.length > cfg.maxFilesPerSnapshot) cur.files.shift();
    }
    for (const t of pathTopics(f, v, a.cwd)) {
      if (cur.topics.length >= cap || cur.topics.includes(t)) continue;
      cur.topics.push(t);
      changed = true;
    }
  }
  if (changed) recompute(a, cfg);
  return changed;
}
