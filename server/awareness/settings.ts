// The user's and the project's awareness settings: `awareness.json` in the config
// dir tunes the engine; `.pane/awareness.json` in a project says whether a write
// into another agent's claim only warns or asks the human. Bad files are reported
// and ignored, never half-applied.
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
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
const projectCache = new Map<string, { mtime: number; value: ClaimConflict | undefined }>();

/**
 * The claim-conflict policy for a file's project: the nearest `.pane/awareness.json`
 * above `dir` that sets it, else `fallback`.
 */
export function projectClaimConflict(dir: string, fallback: ClaimConflict, warn: (m: string) => void): ClaimConflict {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    const file = path.join(d, '.pane', 'awareness.json');
    let mtime = -1;
    try {
      mtime = fs.statSync(file).mtimeMs;
    } catch {
      // none here: look further up
    }
    if (mtime >= 0) {
      const hit = projectCache.get(file);
      const value = hit && hit.mtime === mtime ? hit.value : readSettings(file, warn).claimConflict;
      projectCache.set(file, { mtime, value });
      if (value !== undefined) return value;
    }
    if (path.dirname(d) === d) return fallback;
  }
}
