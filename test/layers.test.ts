// Holds the layer rules of docs/architecture.md: kits <- server <- electron;
// kits <- renderer; kits/ (outside kits/node) uses neither node:* nor DOM-only
// modules; the server never imports electron or the renderer.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '..');

function files(dir: string): string[] {
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
  walk(path.join(root, dir));
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

const layerOf = (abs: string | null) => (abs ? path.relative(root, abs).split(path.sep)[0] : null);

const rules: Rule[] = [
  {
    name: 'kits/ must not import server/, electron/ or renderer/',
    applies: (r) => r.startsWith('kits/'),
    forbids: (_s, res) => ['server', 'electron', 'renderer'].includes(layerOf(res) ?? ''),
  },
  {
    name: 'kits/ outside kits/node/ must not import node:* or Node built-ins (it runs in the browser too)',
    applies: (r) => r.startsWith('kits/') && !r.startsWith('kits/node/'),
    forbids: (s, res) => s.startsWith('node:') || (!res && /^(fs|path|os|net|child_process|crypto|http|tty|url|worker_threads)$/.test(s)) || (res !== null && path.relative(root, res).startsWith('kits/node')),
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
];

export function violations(): string[] {
  const out: string[] = [];
  for (const dir of ['kits', 'server', 'renderer', 'electron']) {
    for (const f of files(dir)) {
      const rel = path.relative(root, f).split(path.sep).join('/');
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

describe('layer rules', () => {
  it('finds no import that breaks a layer rule', () => {
    expect(violations()).toEqual([]);
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
