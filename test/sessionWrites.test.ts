// Holds "session rules live in the model": outside server/model/session/, no server
// file assigns a session's layout, floating, zoomed, focused or viewport, or
// mutates those in place. Handlers parse, call a model operation, publish what it
// returns and ack (docs/architecture.md, "Handlers and the session model").
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '..');
/** The one place allowed to write session state. */
const MODEL = 'server/model/session/';
const FIELDS = 'layout|floating|zoomed|focused|focus|viewport';

const rules: { name: string; re: RegExp }[] = [
  // `s.layout = …`, `s.zoomed ??= …`, but not `===`, `!==`, `<=`, `>=` or `=>`.
  { name: 'assigns', re: new RegExp(`\\.(?:${FIELDS})\\s*(?:\\?\\?|\\|\\||&&|[-+*/%|&^])?=(?![=>])`) },
  { name: 'assigns an element of', re: new RegExp(`\\.(?:${FIELDS})\\s*\\[[^\\]]*\\]\\s*(?:\\.\\s*\\w+\\s*)?=(?![=>])`) },
  { name: 'mutates in place', re: new RegExp(`\\.(?:${FIELDS})\\s*\\.\\s*(?:push|pop|shift|unshift|splice|sort|reverse|fill|copyWithin)\\s*\\(`) },
  { name: 'mutates in place', re: new RegExp(`(?:Object\\.assign\\s*\\(|delete\\s+)[\\w.$]*\\.(?:${FIELDS})\\b`) },
];

/** Each line of `src` that writes session state, as `line: rule: text`. */
export function sessionWrites(src: string): { line: number; rule: string; text: string }[] {
  const out: { line: number; rule: string; text: string }[] = [];
  src.split('\n').forEach((raw, i) => {
    const code = raw.replace(/\/\/.*$/, '');
    if (/^\s*(\*|\/\*)/.test(code)) return;
    for (const r of rules) if (r.re.test(code)) out.push({ line: i + 1, rule: r.name, text: raw.trim() });
  });
  return out;
}

function serverFiles(): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)) out.push(p);
    }
  };
  walk(path.join(root, 'server'));
  return out.map((p) => path.relative(root, p).split(path.sep).join('/')).filter((r) => !r.startsWith(MODEL));
}

describe('session writes', () => {
  it('finds assignments and in-place mutations of session fields, and not reads or comparisons', () => {
    const bad = [
      's.focused = pane.n;',
      'session.layout = removeLeaf(session.layout, n);',
      'if (s.zoomed === n) s.zoomed = null;',
      's.zoomed ??= n;',
      's.floating.push(f);',
      's.floating[0] = f;',
      's.floating[i].z = 3;',
      'Object.assign(s.viewport, v);',
      'delete s.viewport;',
    ];
    for (const line of bad) expect(sessionWrites(line), line).not.toEqual([]);
    const fine = [
      'const wasFocused = session.focused === n;',
      'if (s.zoomed !== null && s.zoomed !== n) return;',
      'const d = cascadeRect(s.viewport, s.floating);',
      's.floating.map((f) => f.pane)',
      'x.layout => 1',
      '// s.focused = n (a comment)',
      ' * s.layout = tree in a doc comment',
    ];
    for (const line of fine) expect(sessionWrites(line), line).toEqual([]);
  });

  it('happen only in server/model/session/: no handler, persist or other server file writes session state', () => {
    const found: string[] = [];
    const files = serverFiles();
    expect(files).toContain('server/handlers/pane.ts');
    expect(files).toContain('server/persist/resurrect.ts');
    for (const rel of files) {
      for (const w of sessionWrites(fs.readFileSync(path.join(root, rel), 'utf8'))) found.push(`${rel}:${w.line}: ${w.rule} session state (use an operation of ${MODEL}): ${w.text}`);
    }
    expect(found, found.join('\n')).toEqual([]);
  });

  it('sees the writes the model itself makes, so a clean scan of the rest means something', () => {
    const model = fs.readFileSync(path.join(root, MODEL, 'tiles.ts'), 'utf8');
    expect(sessionWrites(model).length).toBeGreaterThan(0);
  });
});
