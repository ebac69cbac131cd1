// Holds "session rules live in the model": outside server/model/session/, no server
// file assigns a session's layout, floating, zoomed, focused or viewport, or
// mutates those in place. Handlers parse, call a model operation, publish what it
// returns and ack (docs/architecture.md, "Handlers and the session model").
// And "one writer for every pane field": outside server/model/, no server file
// writes any field of a pane or a session, or the server's panes or sessions map
// (server/model/paneOps.ts, server/model/session/), found by type.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { paneWriteScanner, type PaneWriteScanner } from './paneWrites';

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

/** The one place allowed to write a pane's fields and the panes map. */
const PANE_MODEL = 'server/model/';
/** A file outside the model, as a careless handler would write it: each `// write` line must be found, nothing else. */
const PROBE = 'server/handlers/paneWritesProbe.ts';
const PROBE_SRC = `import type { Pane, Session } from '../../kits/protocol/model';
import type { PaneServer } from '../paneServer';
export function probe(server: PaneServer, pane: Pane, n: number, s: Session): void {
  pane.attrs = { ...pane.attrs, x: '1' }; // write
  pane.tag.name = 'x'; // write
  server.panes.get(n)!.cwd = '/'; // write
  pane.cols += 1; // write
  pane.attrs['k'] = 'v'; // write
  delete pane.attrs.k; // write
  pane.tag.commands.push('zoom'); // write
  pane.launch!.args.splice(0, 1); // write
  Object.assign(pane, { state: 'exited' }); // write
  Object.assign(pane.attrs, { a: 'b' }); // write
  server.panes.delete(n); // write
  server.panes.set(n, pane); // write
  const p = server.pane(n);
  p.exit = null; // write
  p.pid++; // write
  const rec = { state: 'idle', cols: 1, attrs: {} as Record<string, string> };
  rec.state = 'busy';
  rec.attrs = { a: 'b' };
  const copy = { ...pane.attrs, y: '2' };
  copy.y = '3';
  const seen = new Map<number, { state: string }>();
  seen.set(n, { state: pane.state });
  const mine = new Map<number, Pane>();
  mine.set(n, pane);
  s.name = 'x'; // write session
  server.session('main').placements = []; // write session
  server.sessions.delete(s.id); // write session
  const named = new Map<string, Session>();
  named.set(s.name, s);
  if (s.name === 'x') void s.layout;
  if (pane.cols === 80 && pane.tag.name !== 'x') void [...server.panes.values()].map((q) => q.attrs);
}
`;

describe('pane writes', () => {
  let scan: PaneWriteScanner;
  beforeAll(() => {
    scan = paneWriteScanner(root, { [PROBE]: PROBE_SRC });
  }, 180_000);

  it('finds every kind of write to a pane or session field or the panes or sessions map, by type, and not writes to other objects', () => {
    const lines = PROBE_SRC.split('\n');
    const want = (tag: string) => lines.flatMap((l, i) => (l.endsWith(tag) ? [i + 1] : []));
    expect(want('// write').length).toBe(14);
    expect(want('// write session').length).toBe(3);
    const found = scan.writes(PROBE);
    expect(found.filter((w) => w.of === 'pane').map((w) => w.line)).toEqual(want('// write'));
    expect(found.filter((w) => w.of === 'session').map((w) => w.line)).toEqual(want('// write session'));
  });

  it('happen only in server/model/: no handler, agent, awareness, namespace, persist or transport file writes a pane or a session', () => {
    const files = scan.serverFiles();
    expect(files).toContain('server/handlers/pane.ts');
    expect(files).toContain('server/agents/service.ts');
    expect(files).toContain('server/awareness/presenter.ts');
    expect(files).toContain('server/persist/resurrect.ts');
    const found: string[] = [];
    for (const rel of files) {
      if (rel.startsWith(PANE_MODEL)) continue;
      for (const w of scan.writes(rel)) found.push(`${rel}:${w.line}: ${w.what} (use an operation of ${w.of === 'pane' ? 'server/model/paneOps.ts' : MODEL}): ${w.text}`);
    }
    expect(found, found.join('\n')).toEqual([]);
  });

  it('publishes a pane field\'s change only from server/model/: the operation that wrote it says so', () => {
    // A pane event sent from outside would say a field changed that only the model changes.
    const sends = /\bpublish\(\s*'pane\/(?:attrs-changed|tag-changed|changed)'|\bserver\.paneChanged\(/;
    expect(sends.test(`server.publish('pane/attrs-changed', { pane: n, attrs });`)).toBe(true);
    expect(sends.test(`ctx.server.paneChanged(pane);`)).toBe(true);
    expect(sends.test(`if (event === 'pane/attrs-changed') return;`)).toBe(false);
    expect(sends.test(`return this.paneChanged(d.pane);`)).toBe(false); // the namespace's own reader of the event
    const found: string[] = [];
    for (const rel of scan.serverFiles()) {
      // paneServer.ts defines paneChanged, the bus's one way to say `pane/changed`.
      if (rel.startsWith(PANE_MODEL) || rel === 'server/paneServer.ts') continue;
      fs.readFileSync(path.join(root, rel), 'utf8').split('\n').forEach((line, i) => {
        if (sends.test(line.replace(/\/\/.*$/, ''))) found.push(`${rel}:${i + 1}: publishes a pane change (call an operation of server/model/paneOps.ts): ${line.trim()}`);
      });
    }
    expect(found, found.join('\n')).toEqual([]);
  });

  it('sees the writes the model itself makes (birth, exit, the panes map), so a clean scan of the rest means something', () => {
    const whats = scan.writes('server/model/lifecycle.ts').map((w) => w.what);
    expect(whats).toContain('changes the panes map');
    expect(whats).toContain('assigns a pane field');
    expect(scan.writes('server/model/session/sessions.ts').map((w) => w.what)).toEqual(expect.arrayContaining(['changes the sessions map', 'assigns a session field']));
    expect(scan.writes('server/model/paneOps.ts').length).toBeGreaterThan(0);
  });
});
