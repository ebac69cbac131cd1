// The user's and the project's awareness settings: `awareness.json` in the config
// dir tunes the engine; `.pane/awareness.json` in a project says whether a write
// into another agent's claim only warns or asks the human. Bad files are reported
// and ignored, never half-applied. A project's file is the agents' to write: it is
// read only as a regular file reached without links (kits/node/safeFile.ts).
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { lstatBelow, onPaneMount, PathRefused, readBelow, statOffMounts } from '../../kits/node/safeFile';
import type { AwarenessConfig } from './config';

export const ClaimConflictSchema = z.enum(['warn', 'ask']);
export type ClaimConflict = z.infer<typeof ClaimConflictSchema>;

export const SettingsFileSchema = z
  .object({
    /** What a PreToolUse hook answers for Edit/Write into another agent's claim. */
    claimConflict: ClaimConflictSchema.optional(),
    contestTimeoutSeconds: z.number().positive().max(86_400).optional(),
    staleAfterMinutes: z.number().positive().max(10_080).optional(),
    idleAfterMinutes: z.number().positive().max(10_080).optional(),
    topN: z.number().int().min(1).max(50).optional(),
    /** Added to the built-in lists, not replacing them. */
    stopWords: z.array(z.string()).optional(),
    noiseWords: z.array(z.string()).optional(),
    identityNoise: z.array(z.string()).optional(),
  })
  .strict();
export type SettingsFile = z.infer<typeof SettingsFileSchema>;

/** Reads a settings file: {} when absent; {} and a warning when invalid. */
export function readSettings(file: string, warn: (m: string) => void): SettingsFile {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return {};
  }
  return parseSettings(file, text, warn);
}

function parseSettings(file: string, text: string, warn: (m: string) => void): SettingsFile {
  try {
    const r = SettingsFileSchema.safeParse(JSON.parse(text));
    if (r.success) return r.data;
    const i = r.error.issues[0];
    warn(`awareness: ${file}: ${i?.path.map(String).join('.') || '(top)'}: ${i?.message ?? 'invalid'}; file ignored`);
  } catch (e) {
    warn(`awareness: ${file} is not JSON (${(e as Error).message}); file ignored`);
  }
  return {};
}

/** The engine config a settings file asks for, on top of `base`. */
export function configFrom(base: AwarenessConfig, s: SettingsFile): Partial<AwarenessConfig> {
  const out: Partial<AwarenessConfig> = {};
  if (s.contestTimeoutSeconds !== undefined) out.contestTimeoutMs = s.contestTimeoutSeconds * 1000;
  if (s.staleAfterMinutes !== undefined) out.staleAfterMs = s.staleAfterMinutes * 60_000;
  if (s.idleAfterMinutes !== undefined) out.idleAfterMs = s.idleAfterMinutes * 60_000;
  if (s.topN !== undefined) out.topN = s.topN;
  if (s.stopWords) out.stopWords = [...base.stopWords, ...s.stopWords];
  if (s.noiseWords) out.noiseWords = [...base.noiseWords, ...s.noiseWords];
  if (s.identityNoise) out.identityNoise = [...base.identityNoise, ...s.identityNoise];
  return out;
}

/** Project settings are read on every write check; this keeps that to a stat. */
const projectCache = new Map<string, { mtime: number; ino: number; value: ClaimConflict | undefined }>();
/** Projects remembered in that cache; past it the cache starts over (hook paths are the agent's to choose). */
const MAX_PROJECTS_CACHED = 1024;
/** A project's settings file is a few lines of JSON: 64 KiB is generous, and bounds what a planted one costs. */
export const MAX_PROJECT_SETTINGS_BYTES = 64 * 1024;
const WHERE = 'a project (an agent may write there)';

/**
 * `dir`, or its nearest existing ancestor, with links resolved: the directory the
 * file really lives in. null when it is on pane's own /pane mount, which this
 * thread must never look into (the mount asks this server, which would be waiting).
 */
function realDir(dir: string): string | null {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    const r = statOffMounts(d);
    if (r === 'mount') return null;
    if (r !== null) return r.real;
    if (path.dirname(d) === d) return d;
  }
}

/**
 * The claim-conflict policy for a file's project: the nearest `.pane/awareness.json`
 * above `dir` that sets it, else `fallback`. Projects are the agents' to write, so
 * each `.pane/awareness.json` is opened below its directory without following links,
 * only as a regular file (never blocking on a FIFO) of bounded size; anything else is
 * refused, told `refused`, and read as "not set here".
 */
export function projectClaimConflict(dir: string, fallback: ClaimConflict, warn: (m: string) => void, refused: (e: PathRefused) => void = (e) => warn(e.message)): ClaimConflict {
  const real = realDir(dir);
  if (real === null) return fallback;
  for (let d = real; ; d = path.dirname(d)) {
    const rel = '.pane/awareness.json';
    const file = path.join(d, rel);
    try {
      if (onPaneMount(file)) throw new PathRefused(file, 'type', "it is on pane's own /pane mount", WHERE);
      const st = lstatBelow(d, rel, { where: WHERE });
      if (st) {
        const hit = projectCache.get(file);
        let value: ClaimConflict | undefined;
        if (hit && hit.mtime === st.mtimeMs && hit.ino === st.ino) value = hit.value;
        else {
          const text = readBelow(d, rel, { where: WHERE, maxBytes: MAX_PROJECT_SETTINGS_BYTES });
          value = text === null ? undefined : parseSettings(file, text, warn).claimConflict;
          if (projectCache.size >= MAX_PROJECTS_CACHED) projectCache.clear();
          projectCache.set(file, { mtime: st.mtimeMs, ino: st.ino, value });
        }
        if (value !== undefined) return value;
      }
    } catch (e) {
      if (!(e instanceof PathRefused)) throw e;
      refused(e);
    }
    if (path.dirname(d) === d) return fallback;
  }
}
