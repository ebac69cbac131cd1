// Holds the layer rules of docs/architecture.md: kits <- server <- electron;
// kits <- renderer; kits/ (outside kits/node) uses neither node:* nor DOM-only
// modules; the server never imports electron or the renderer; electron/ imports
// only server/ and kits/; no value-import cycles; fakes live under test/.
// Inside server/: its folders import only downward in the written order
// (SERVER_ORDER, docs/architecture.md), and the state owner (server/model/,
// server/paneServer.ts) knows no transport.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveSpec, valueCycles, valueImports } from './importGraph';

const root = path.resolve(__dirname, '..');

function files(dir: string, base = root): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    if (!fs.existsSync(d)) return;
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'node_modules') walk(p);
      } else if (/\.(ts|tsx)$/.test(e.name)) out.push(p);
    }
  };
  walk(path.join(base, dir));
  return out;
}

/** Every module specifier a file imports, statically or dynamically. */
export function importsOf(src: string): string[] {
  const out: string[] = [];
  const re = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]|require\(\s*['"]([^'"]+)['"]\s*\)/g;
  for (const m of src.matchAll(re)) out.push((m[1] ?? m[2] ?? m[3] ?? m[4])!);
  return out;
}

interface Rule {
  name: string;
  applies: (rel: string) => boolean;
  forbids: (spec: string, resolved: string | null) => boolean;
}

let layerBase = root;
const layerOf = (abs: string | null) => (abs ? path.relative(layerBase, abs).split(path.sep)[0] : null);

const rules: Rule[] = [
  {
    name: 'kits/ must not import server/, electron/ or renderer/',
    applies: (r) => r.startsWith('kits/'),
    forbids: (_s, res) => ['server', 'electron', 'renderer'].includes(layerOf(res) ?? ''),
  },
  {
    name: 'kits/ outside kits/node/ must not import node:* or Node built-ins (it runs in the browser too)',
    applies: (r) => r.startsWith('kits/') && !r.startsWith('kits/node/'),
    forbids: (s, res) => s.startsWith('node:') || (!res && /^(fs|path|os|net|child_process|crypto|http|tty|url|worker_threads)$/.test(s)) || (res !== null && path.relative(layerBase, res).startsWith('kits/node')),
  },
  {
    name: 'server/ must not import electron or renderer/',
    applies: (r) => r.startsWith('server/'),
    forbids: (s, res) => s === 'electron' || s.startsWith('electron/') || ['renderer', 'electron'].includes(layerOf(res) ?? ''),
  },
  {
    name: 'renderer/ may import only kits/ (never server/, electron/ or node:*)',
    applies: (r) => r.startsWith('renderer/'),
    forbids: (s, res) => s.startsWith('node:') || ['server', 'electron'].includes(layerOf(res) ?? ''),
  },
  {
    name: 'renderer/ must not import kits/node/ (it runs in the browser)',
    applies: (r) => r.startsWith('renderer/'),
    forbids: (_s, res) => res !== null && path.relative(layerBase, res).split(path.sep).join('/').startsWith('kits/node'),
  },
  {
    name: 'electron/ may import only server/ and kits/ of the project (never renderer/ or test/)',
    applies: (r) => r.startsWith('electron/'),
    forbids: (_s, res) => res !== null && !['electron', 'server', 'kits'].includes(layerOf(res) ?? ''),
  },
];

/** Runtime code of the four layers under base: tests and build configs (vite.config.ts runs in Node at build time) are not. */
function runtimeFiles(base = root): string[] {
  return ['kits', 'server', 'renderer', 'electron']
    .flatMap((d) => files(d, base))
    .filter((f) => !/\.test\.tsx?$/.test(f) && !/\.config\.ts$/.test(f));
}

export function violations(base = root): string[] {
  const out: string[] = [];
  layerBase = base;
  for (const dir of ['kits', 'server', 'renderer', 'electron']) {
    for (const f of files(dir, base)) {
      const rel = path.relative(base, f).split(path.sep).join('/');
      // Tests and build configs (vite.config.ts runs in Node at build time) are not runtime code of their layer.
      if (/\.test\.tsx?$/.test(rel) || /\.config\.ts$/.test(rel)) continue;
      const src = fs.readFileSync(f, 'utf8');
      for (const spec of importsOf(src)) {
        const resolved = spec.startsWith('.') ? path.resolve(path.dirname(f), spec) : null;
        for (const rule of rules) {
          if (rule.applies(rel) && rule.forbids(spec, resolved)) out.push(`${rel} imports "${spec}": ${rule.name}`);
        }
      }
    }
  }
  return out;
}

/**
 * server/'s folders from the bottom up (docs/architecture.md, "Server folders"):
 * a folder may import its own rank and those below, never one above. A file
 * directly in server/ is in the rank that names it, else in the top one (the
 * composition: main.ts, serveCommand.ts and their like).
 */
export const SERVER_ORDER: string[][] = [
  ['metrics'],
  ['pty'],
  ['shell'],
  ['model', 'paneServer.ts'],
  ['namespace'],
  ['config'],
  ['agents'],
  ['persist', 'awareness', 'grants', 'plumb'],
  ['handlers'],
  ['hosts'],
  ['transport'],
  ['services.ts', 'main.ts', 'serveCommand.ts', 'bin.ts', 'distDir.ts'],
];
const TOP = SERVER_ORDER.length - 1;
const ORDER_RULE = 'server/ folders import only downward in the written order (value imports; type-only imports are exempt): pty <- shell <- model <- namespace <- config <- agents <- persist, awareness, grants, plumb <- handlers <- hosts <- transport <- main';

/** The folder (or top-level file) of server/ a path is in, and its rank in SERVER_ORDER (-1 when it has none). */
function serverPlace(rel: string): { place: string; rank: number } {
  const parts = rel.split('/');
  const place = parts[1] ?? '';
  const rank = SERVER_ORDER.findIndex((r) => r.includes(place));
  return { place, rank: rank < 0 && parts.length === 2 ? TOP : rank };
}

/** Value imports in server/ that go up SERVER_ORDER, or come from or go to a folder the order does not name. */
export function orderViolations(base = root): string[] {
  const out: string[] = [];
  for (const f of runtimeFiles(base)) {
    const rel = path.relative(base, f).split(path.sep).join('/');
    if (!rel.startsWith('server/')) continue;
    const from = serverPlace(rel);
    for (const spec of valueImports(f)) {
      const res = resolveSpec(f, spec);
      if (res === null) continue;
      const to = path.relative(base, res).split(path.sep).join('/');
      if (!to.startsWith('server/')) continue;
      const target = serverPlace(to);
      if (target.place === from.place) continue;
      if (from.rank < 0) out.push(`${rel} imports "${spec}": server/${from.place} is in no rank of SERVER_ORDER: ${ORDER_RULE}`);
      else if (target.rank < 0) out.push(`${rel} imports "${spec}": server/${target.place} is in no rank of SERVER_ORDER: ${ORDER_RULE}`);
      else if (target.rank > from.rank) out.push(`${rel} imports "${spec}": ${ORDER_RULE}`);
    }
  }
  return out;
}

const BUS_RULE = 'server/model/ and server/paneServer.ts know no transport (they publish on the bus; server/transport/ subscribes): no import of server/transport/, a kit transport, net, tls or ws';

/** Imports, type-only ones too, through which the state owner would know a channel. */
export function busViolations(base = root): string[] {
  const out: string[] = [];
  for (const f of runtimeFiles(base)) {
    const rel = path.relative(base, f).split(path.sep).join('/');
    if (!rel.startsWith('server/model/') && rel !== 'server/paneServer.ts') continue;
    for (const spec of importsOf(fs.readFileSync(f, 'utf8'))) {
      const res = resolveSpec(f, spec);
      const to = res === null ? '' : path.relative(base, res).split(path.sep).join('/');
      const transport =
        /^(node:)?(net|tls|dgram|http|https|http2)$/.test(spec) ||
        spec === 'ws' ||
        to.startsWith('server/transport/') ||
        /^kits\/(client|node)\/[^/]*([Tt]ransport|endpoint)[^/]*\.ts$/.test(to);
      if (transport) out.push(`${rel} imports "${spec}": ${BUS_RULE}`);
    }
  }
  return out;
}

/** A throwaway tree laid out like the project's, for probing the rules without touching it. */
function probeTree(filesByPath: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-layers-'));
  for (const [rel, text] of Object.entries(filesByPath)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

describe('layer rules', () => {
  it('finds no import that breaks a layer rule', () => {
    expect(violations()).toEqual([]);
  });

  it('keeps electron/ to server/ and kits/, and renderer/ away from kits/node/', () => {
    const dir = probeTree({
      'electron/a.ts': "import { x } from '../renderer/src/x';\nimport { y } from '../server/y';\n",
      'renderer/src/x.ts': "import { z } from '../../kits/node/z';\nexport const x = 1;\n",
      'server/y.ts': 'export const y = 1;\n',
      'kits/node/z.ts': 'export const z = 1;\n',
    });
    try {
      const v = violations(dir);
      expect(v).toContain('electron/a.ts imports "../renderer/src/x": electron/ may import only server/ and kits/ of the project (never renderer/ or test/)');
      expect(v).toContain('renderer/src/x.ts imports "../../kits/node/z": renderer/ must not import kits/node/ (it runs in the browser)');
      expect(v.some((l) => l.includes('"../server/y"'))).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names the broken rule when a file breaks one', () => {
    const probe = path.join(root, 'kits/protocol/__layer_probe__.ts');
    fs.writeFileSync(probe, "import fs from 'node:fs';\nimport { x } from '../../server/paneServer';\n");
    try {
      const v = violations().filter((l) => l.includes('__layer_probe__'));
      expect(v).toContain('kits/protocol/__layer_probe__.ts imports "node:fs": kits/ outside kits/node/ must not import node:* or Node built-ins (it runs in the browser too)');
      expect(v.some((l) => l.includes('kits/ must not import server/'))).toBe(true);
    } finally {
      fs.unlinkSync(probe);
    }
  });
});

describe('server folder order', () => {
  it('finds no value import from a server/ folder to one above it in the written order', () => {
    expect(orderViolations()).toEqual([]);
  });

  it('names the rule when a lower folder imports a higher one, or a folder is in no rank, and lets type-only and downward imports be', () => {
    const dir = probeTree({
      'server/pty/terminal.ts': "import { MAX_COLS } from '../model/sizeLimits';\nimport type { Pane } from '../model/pane';\nexport const t = MAX_COLS;\n",
      'server/model/sizeLimits.ts': "import { t } from '../pty/terminal';\nexport const MAX_COLS = 1000 + (t ? 0 : 0);\n",
      'server/model/pane.ts': 'export type Pane = { n: number };\n',
      'server/attic/old.ts': "import { t } from '../pty/terminal';\nexport const o = t;\n",
    });
    try {
      const v = orderViolations(dir);
      expect(v).toContain(`server/pty/terminal.ts imports "../model/sizeLimits": ${ORDER_RULE}`);
      expect(v).toContain(`server/attic/old.ts imports "../pty/terminal": server/attic is in no rank of SERVER_ORDER: ${ORDER_RULE}`);
      expect(v).toHaveLength(2);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the bus', () => {
  it('finds no transport known to server/model/ or server/paneServer.ts', () => {
    expect(busViolations()).toEqual([]);
  });

  it('names the rule when the model imports a connection, even for its type, or a socket', () => {
    const dir = probeTree({
      'server/model/lifecycle.ts': "import type { ClientConn } from '../transport/clientConn';\nexport type C = ClientConn;\n",
      'server/paneServer.ts': "import type net from 'node:net';\nimport type { Transport } from '../kits/client/transport';\nimport { EventBus } from './model/bus';\nexport type S = net.Socket | Transport | EventBus;\n",
      'server/model/bus.ts': 'export class EventBus {}\n',
      'server/transport/clientConn.ts': 'export class ClientConn {}\n',
      'kits/client/transport.ts': 'export interface Transport { kind: string }\n',
    });
    try {
      const v = busViolations(dir);
      expect(v).toEqual([
        `server/model/lifecycle.ts imports "../transport/clientConn": ${BUS_RULE}`,
        `server/paneServer.ts imports "node:net": ${BUS_RULE}`,
        `server/paneServer.ts imports "../kits/client/transport": ${BUS_RULE}`,
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('import cycles', () => {
  it('finds no value-import cycle in kits/, server/, renderer/ or electron/', () => {
    expect(valueCycles(runtimeFiles(), root).map((c) => c.join(' -> '))).toEqual([]);
  });

  it('names the files around a value-import cycle, and ignores type-only imports', () => {
    const dir = probeTree({
      'server/a.ts': "import { b } from './b';\nexport const a = () => b;\n",
      'server/b.ts': "import { c } from './c';\nexport const b = c;\n",
      'server/c.ts': "import { a } from './a';\nexport const c = a;\n",
      'server/d.ts': "import type { E } from './e';\nexport type D = E;\n",
      'server/e.ts': "import { type D } from './d';\nexport { type D as F } from './d';\nexport type E = D;\n",
    });
    try {
      expect(valueCycles(runtimeFiles(dir), dir)).toEqual([['server/a.ts', 'server/b.ts', 'server/c.ts', 'server/a.ts']]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the state owner', () => {
  it('server/paneServer.ts loads neither transports nor handlers (startServer composes them around it)', () => {
    const file = path.join(root, 'server/paneServer.ts');
    const loaded = valueImports(file)
      .map((s) => resolveSpec(file, s))
      .filter((r): r is string => r !== null)
      .map((r) => path.relative(root, r).split(path.sep).join('/'));
    expect(loaded.filter((r) => r.startsWith('server/transport/') || r.startsWith('server/handlers/'))).toEqual([]);
  });

  it('server/ keeps no module-level lookup keyed by server: what a server has hangs off it or its Services', () => {
    const keyed = /new (Weak)?Map<PaneServer\b/;
    const rel = runtimeFiles()
      .filter((f) => path.relative(root, f).startsWith('server'))
      .filter((f) => keyed.test(fs.readFileSync(f, 'utf8')))
      .map((f) => path.relative(root, f).split(path.sep).join('/'));
    expect(rel).toEqual([]);
  });
});

describe('fakes', () => {
  it('keeps fakes and stubs out of the production tree (they live under test/)', () => {
    const rel = runtimeFiles().map((f) => path.relative(root, f).split(path.sep).join('/'));
    expect(rel.filter((r) => /(^|\/)(fake|stub|mock)[^/]*$/i.test(r))).toEqual([]);
  });
});
