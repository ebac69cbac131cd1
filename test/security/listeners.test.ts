// Every door has a row. A real `pane serve --http` with every door it can open (its
// unix socket, the HTTP front and its WebSocket, the hook door, and a sandboxed
// agent with its own socket and hook socket); the listeners the server process
// holds are read from the kernel (its socket fds, /proc/PID/net/tcp{,6} and
// /proc/net/unix), each is named as a door, and each door must have a row in
// docs/security.md's doors table and in its table of bounds, every cell filled.
// A listener that maps to no door, or a door with no row, fails the test.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxUnavailable } from '../../server/agents/sandbox';
import { root } from '../e2e/shell';
import { listenersOf, paneServe, wsHello, exchangeLaunch, type Listener, type Served } from './front';

const why = sandboxUnavailable(process.env.PATH);

let s: Served;
let hookPort = 0;
let home = '';
const pane = (args: string[]) => {
  const r = spawnSync(process.execPath, [path.join(root, 'dist/pane.mjs'), '--socket', s.socket, ...args], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: s.dir, LANG: 'C.UTF-8', XDG_RUNTIME_DIR: path.join(s.dir, 'run'), XDG_CONFIG_HOME: path.join(s.dir, 'config'), XDG_DATA_HOME: path.join(s.dir, 'data') }, encoding: 'utf8', timeout: 20_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};

async function until<T>(what: string, f: () => T, ms = 20_000): Promise<NonNullable<T>> {
  const end = Date.now() + ms;
  for (;;) {
    const v = f();
    if (v) return v as NonNullable<T>;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  s = await paneServe();
  // The hook door's port is the kernel's: learn it as a pane does, from its environment.
  const file = path.join(s.dir, 'hook-url');
  expect(pane(['new', '--', 'sh', '-c', `printf '%s' "$PANE_HOOK_URL" > ${file}; exec sleep 600`]).status).toBe(0);
  hookPort = Number(new URL(String(await until('the hook URL in a pane', () => fs.existsSync(file) && fs.readFileSync(file, 'utf8')))).port);
  // An agent in its sandbox: its own socket and hook socket open when it launches.
  if (why === null) {
    const project = path.join(s.dir, 'ada-proj');
    fs.mkdirSync(project);
    expect(pane(['agent', 'add', 'ada', '--project', project]).stderr).toBe('');
    const run = pane(['agent', 'run', 'ada', '--', 'sh']);
    expect(run.status, run.stderr).toBe(0);
    home = path.join(s.dir, 'data', 'pane', 'agents', 'ada');
    await until("ada's sockets", () => fs.existsSync(path.join(home, 'pane.sock')) && fs.existsSync(path.join(home, 'hook.sock')));
  }
  // A WebSocket client too, so the front is seen with the window's socket open.
  const { cookie } = await exchangeLaunch(s.launchUrl);
  expect(await wsHello(s.port, { cookie: cookie!, origin: `http://127.0.0.1:${s.port}` })).toEqual({ ok: true });
}, 90_000);
afterAll(() => s?.stop());

/** Which door a listener is, by what the test opened; null for one nobody accounts for. */
function doorOf(l: Listener): string | null {
  if (l.kind === 'unix' && l.where === s.socket) return 'unix socket';
  if (l.kind === 'unix' && home && l.where === path.join(home, 'pane.sock')) return 'agent socket';
  if (l.kind === 'unix' && home && l.where === path.join(home, 'hook.sock')) return 'agent hook socket';
  if (l.kind === 'tcp' && l.where === `127.0.0.1:${s.port}`) return 'HTTP front';
  if (l.kind === 'tcp' && l.where === `127.0.0.1:${hookPort}`) return 'hook door';
  return null;
}

/** The rows of the markdown table that follows `heading` in docs/security.md: cells by column. */
function tableAfter(doc: string, heading: string): string[][] {
  const at = doc.indexOf(heading);
  expect(at, `docs/security.md has no "${heading}"`).toBeGreaterThanOrEqual(0);
  const lines = doc.slice(at).split('\n');
  const first = lines.findIndex((l) => l.startsWith('|'));
  const rows: string[][] = [];
  for (const l of lines.slice(first + 2)) {
    if (!l.startsWith('|')) break;
    rows.push(l.slice(1, -1).split(/(?<!\\)\|/).map((c) => c.trim()));
  }
  return rows;
}

/** The row whose first cell names `door` (its name is the cell's first words, before any parenthesis). */
const rowFor = (rows: string[][], door: string) => rows.find((r) => r[0]!.replace(/\*\*/g, '').replace(/\s*\(.*$/, '').trim().toLowerCase() === door.toLowerCase());

describe('every listener the server holds is a door with its row in docs/security.md', () => {
  it('finds each listener a door name, and each door a row in the doors table and a full row of bounds', () => {
    const found = listenersOf(s.proc.pid!);
    const named = found.map((l) => ({ ...l, door: doorOf(l) }));
    expect(named.filter((l) => l.door === null).map((l) => `${l.kind} ${l.where}`), 'listeners that are no known door').toEqual([]);
    const doors = [...new Set(named.map((l) => l.door!))].sort();
    expect(doors).toEqual(why === null ? ['HTTP front', 'agent hook socket', 'agent socket', 'hook door', 'unix socket'] : ['HTTP front', 'hook door', 'unix socket']);
    const doc = fs.readFileSync(path.join(__dirname, '../../docs/security.md'), 'utf8');
    const table = tableAfter(doc, '## The doors');
    const bounds = tableAfter(doc, '### Bounds of each door');
    // The WebSocket rides on the HTTP front's listener; it is a door of its own in both tables.
    for (const door of [...doors, ...(doors.includes('HTTP front') ? ['WebSocket'] : [])]) {
      expect(rowFor(table, door), `no row for the ${door} in the doors table`).toBeDefined();
      const b = rowFor(bounds, door);
      expect(b, `no row for the ${door} in the bounds table`).toBeDefined();
      expect(b!.filter((c) => c === '').length, `an empty cell in the ${door}'s bounds`).toBe(0);
    }
  });
});
