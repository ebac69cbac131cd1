// Remembers the window's bounds between runs (userData/window-state.json) and puts
// a remembered window back only where a display still shows it.
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const StateSchema = z.object({
  x: z.number().int(),
  y: z.number().int(),
  width: z.number().int().min(400).max(20000),
  height: z.number().int().min(300).max(20000),
  maximized: z.boolean().default(false),
});
export type WindowState = z.infer<typeof StateSchema>;

export interface Area {
  x: number;
  y: number;
  width: number;
  height: number;
}

export const DEFAULT_SIZE = { width: 1280, height: 820 };

/** The saved state, if readable and still at least half on some display's work area. */
export function loadWindowState(dir: string, displays: Area[]): WindowState | null {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(path.join(dir, 'window-state.json'), 'utf8'));
  } catch {
    return null;
  }
  const r = StateSchema.safeParse(raw);
  if (!r.success) return null;
  const s = r.data;
  const visible = displays.some((d) => {
    const w = Math.min(s.x + s.width, d.x + d.width) - Math.max(s.x, d.x);
    const h = Math.min(s.y + s.height, d.y + d.height) - Math.max(s.y, d.y);
    return w > 0 && h > 0 && w * h >= (s.width * s.height) / 2;
  });
  return visible ? s : null;
}

export function saveWindowState(dir: string, s: WindowState): void {
  try {
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'window-state.json');
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(s));
    fs.renameSync(`${file}.tmp`, file);
  } catch {
    // Losing the remembered size is not worth failing a quit over.
  }
}
