// Prompt-pattern files, one per known agent CLI: the built-in ones beside this
// file (bundled), then the user's <config>/agents/prompts/NAME.json, which win.
// Adding a CLI is adding a file; a bad pattern is reported and skipped.
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import aider from './prompts/aider.json';
import claude from './prompts/claude.json';
import codex from './prompts/codex.json';
import fallback from './prompts/default.json';
import demo from './prompts/demo-agent.json';
import gemini from './prompts/gemini.json';
import qwen from './prompts/qwen.json';
import copilot from './prompts/copilot.json';
import opencode from './prompts/opencode.json';
import cursor from './prompts/cursor.json';
import goose from './prompts/goose.json';
import amp from './prompts/amp.json';
import type { PromptPatterns } from './status';

export const PromptFileSchema = z
  .object({
    name: z.string().min(1).max(50),
    about: z.string().optional(),
    lines: z.number().int().min(1).max(50).default(6),
    /** The CLI asks the person something (a permission menu, a yes/no question): needs you. */
    waiting: z.array(z.string()).default([]),
    working: z.array(z.string()).default([]),
    /** Its prompt or input box, asking nothing: done with its turn. */
    done: z.array(z.string()).default([]),
    /**
     * Questions it asks before or outside a turn (first run, login, folder trust, API key,
     * permission), found anywhere on the screen: needs you whatever its hooks said, until answered.
     */
    questions: z.array(z.string()).default([]),
  })
  .strict();

const builtin: unknown[] = [claude, codex, aider, gemini, qwen, copilot, opencode, cursor, goose, amp, demo, fallback];

/** Compiles one file's patterns; returns problems instead of throwing. */
export function compilePatterns(json: unknown, where: string): { patterns?: PromptPatterns; errors: string[] } {
  const r = PromptFileSchema.safeParse(json);
  if (!r.success) return { errors: r.error.issues.map((i) => `${where}: ${i.path.join('.') || '(top)'}: ${i.message}`) };
  const errors: string[] = [];
  const compile = (list: string[], field: string) =>
    list.flatMap((src, i) => {
      try {
        return [new RegExp(src, 'm')];
      } catch (e) {
        errors.push(`${where}: ${field}.${i}: ${(e as Error).message}`);
        return [];
      }
    });
  return { patterns: { name: r.data.name, lines: r.data.lines, waiting: compile(r.data.waiting, 'waiting'), working: compile(r.data.working, 'working'), done: compile(r.data.done, 'done'), questions: compile(r.data.questions, 'questions') }, errors };
}

export class PromptLibrary {
  private sets = new Map<string, PromptPatterns>();
  errors: string[] = [];
  private loadedAt = 0;

  constructor(private readonly userDir: string | null) {
    this.reload();
  }

  reload(): void {
    const sets = new Map<string, PromptPatterns>();
    const errors: string[] = [];
    for (const j of builtin) {
      const c = compilePatterns(j, 'builtin');
      if (c.patterns) sets.set(c.patterns.name, c.patterns);
      errors.push(...c.errors);
    }
    if (this.userDir) {
      let names: string[] = [];
      try {
        names = fs.readdirSync(this.userDir).filter((n) => n.endsWith('.json'));
      } catch {
        // no user patterns
      }
      for (const n of names) {
        const file = path.join(this.userDir, n);
        let json: unknown;
        try {
          json = JSON.parse(fs.readFileSync(file, 'utf8'));
        } catch (e) {
          errors.push(`${file}: not valid JSON: ${(e as Error).message}`);
          continue;
        }
        const c = compilePatterns(json, file);
        if (c.patterns) sets.set(c.patterns.name, c.patterns);
        errors.push(...c.errors);
      }
    }
    this.sets = sets;
    this.errors = errors;
    this.loadedAt = Date.now();
  }

  /** The set for a CLI name, else the default; user files are re-read at most every 2 s (live edits). */
  get(name: string | null | undefined): PromptPatterns {
    if (Date.now() - this.loadedAt > 2000) this.reload();
    return (name ? this.sets.get(name) : undefined) ?? this.sets.get('default')!;
  }
}
