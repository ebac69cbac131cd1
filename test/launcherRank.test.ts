// The launcher's ranking over the real app files in apps/: exact names and
// keywords first, then prefixes, then words inside names, then letters scattered
// through a description — as a table of what a person types and what Enter opens.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppFileSchema, type AppEntry } from '../kits/protocol/app';
import { launcherOrder, rankApps } from '../renderer/src/ui/appMatch';

const dir = path.join(import.meta.dirname, '..', 'apps');
const apps: AppEntry[] = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .map((f) => ({ ...AppFileSchema.parse(JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'))), id: f.slice(0, -5), file: f, source: 'builtin' as const }))
  .sort((a, b) => a.name.localeCompare(b.name));

const first = (q: string) => rankApps(q, apps)[0]?.item.name;
const order = (q: string) => rankApps(q, apps).map((r) => r.item.name);

describe('launcher ranking', () => {
  it.each([
    // query, what Enter opens, why
    ['top', 'System monitor', 'keyword "top" exactly, above Terminal whose description only scatters t-o-p'],
    ['terminal', 'Terminal', 'exact name'],
    ['term', 'Terminal', 'name prefix'],
    ['shell', 'Terminal', 'exact keyword, above "Scratch shell" (a word of its name)'],
    ['claude', 'Claude Code', 'exact keyword'],
    ['cla', 'Claude Code', 'name prefix'],
    ['code', 'Codex CLI', 'a prefix ("codex") ranks above a word inside a name ("Claude Code")'],
    ['claude code', 'Claude Code', 'exact name, spaces and all'],
    ['gem', 'Gemini CLI', 'name prefix'],
    ['codex', 'Codex CLI', 'exact keyword'],
    ['openai', 'Codex CLI', 'exact keyword'],
    ['demo', 'Demo agent', 'exact keyword'],
    ['cpu', 'System monitor', 'exact keyword'],
    ['mon', 'Pane monitor', 'a word of the name (System monitor next: a tie keeps name order)'],
    ['metrics', 'Pane monitor', 'exact keyword'],
    ['agents', 'Agents board', 'exact keyword, above agents whose keyword is "agent"'],
    ['diff', 'Diff review', 'name prefix'],
    ['log', 'Pane log', 'exact keyword'],
    ['peers', 'Peers', 'exact name, above agents whose keyword is "peer"'],
    ['scratch', 'Scratch shell', 'name prefix'],
    ['bash', 'Terminal', 'exact keyword'],
  ])('"%s" opens %s (%s)', (q, want) => {
    expect(first(q)).toBe(want);
  });

  it.each(['top', 'a', 'co', 'cli', 'pe', 'sh'])('lists "%s" tier by tier: exact, prefix, word, substring, scattered', (q) => {
    const rank = { exact: 4, prefix: 3, word: 2, substring: 1, scattered: 0 };
    const tiers = rankApps(q, apps).map((x) => rank[x.hit.tier]);
    expect(tiers.length).toBeGreaterThan(0);
    expect(tiers).toEqual([...tiers].sort((a, b) => b - a));
  });

  it('never lets a description outrank a name: "ai" opens an agent by its keyword, not a description containing "ai"', () => {
    const r = rankApps('ai', apps);
    expect(r[0]!.hit.tier).toBe('exact');
    expect(['Aider', 'Claude Code', 'Codex CLI', 'Demo agent', 'Gemini CLI']).toContain(r[0]!.item.name);
  });

  it('keeps the file order for an empty query and drops what does not match at all', () => {
    expect(order('')).toEqual(apps.map((a) => a.name));
    expect(order('zzzq')).toEqual([]);
  });

  it('shows first what runs here, the terminal and the demo agent at the top, and what is to install after it (a newcomer with no agent CLI)', () => {
    // As on a fresh machine: the agent CLIs (and aider's python) are not on PATH.
    const fresh = apps.map((a) => ({ ...a, installed: ['terminal', 'demo-agent', 'scratch', 'top', 'peers'].includes(a.id) }));
    const { runs, toInstall } = launcherOrder(fresh);
    expect(runs.map((a) => a.name)).toEqual(['Terminal', 'Demo agent', 'Scratch shell', 'System monitor', ...runs.slice(4).map((a) => a.name)]);
    expect(runs.every((a) => a.installed)).toBe(true);
    expect(toInstall.length).toBe(apps.length - runs.length);
    expect(toInstall.map((a) => a.name)).toEqual([...toInstall.map((a) => a.name)].sort((x, y) => x.localeCompare(y)));
  });
});
