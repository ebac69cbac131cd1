// runCli in-process, without a server: usage errors exit 2 naming the problem
// plus the command's usage, help exits 0, absence exits 3, and the CLI's module
// graph stays free of zod (the start-up budget depends on it).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION } from '../../protocol/version';
import { agentCommands } from './commands/agents';
import { awarenessCommands } from './commands/awareness';
import { durableCommands } from './commands/durable';
import { floatCommands } from './commands/floating';
import { paneCommands } from './commands/panes';
import { serverCommands } from './commands/server';
import { sessionCommands } from './commands/sessions';
import { streamCommands } from './commands/streams';
import { tagCommands } from './commands/tags';
import { sandboxCommands } from './commands/sandbox';
import { hostCommands } from './commands/hosts';
import { GROUP_OF, groupOf, type GroupName } from './groups';
import { commandTable, runCli } from './main';
import { nsCommands } from './nsCommands';
import { NO_SERVER_HINT } from './errors';

async function run(argv: string[], env: Record<string, string | undefined> = {}) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c) => (out += c));
  stderr.on('data', (c) => (err += c));
  const served: string[][] = [];
  const code = await runCli(argv, { serve: async (a) => (served.push(a), 0) }, { stdout, stderr, stdin: new PassThrough(), env });
  return { code, out, err, served };
}

const NOWHERE = path.join(os.tmpdir(), 'pane-cli-test-nowhere', 'none.sock');

describe('usage errors', () => {
  const cases: [string[], RegExp][] = [
    [['bogus'], /^pane: unknown command 'bogus'/],
    [['lss'], /unknown command 'lss' \(did you mean ls\?\)/],
    [['--frobnicate', 'ls'], /^pane: unknown flag --frobnicate/],
    [['--socket'], /--socket needs a value/],
    [['ls', '--bogus'], /^pane ls: unknown flag --bogus\nusage: pane ls \[--json\] \[--session S\]/],
    // A long flag mistyped gets the command's nearest flags, as a mistyped command does.
    [['ls', '--jsn'], /^pane ls: unknown flag --jsn \(did you mean --json\?\)\n/],
    [['output', '--folow'], /^pane output: unknown flag --folow \(did you mean --follow\?\)/],
    [['ls', '--session'], /^pane ls: --session needs a value \(S\)/],
    [['split', '-d', 'x'], /^pane split: -d: 'x' is not one of h, v, horizontal, vertical/],
    [['split', '-r', 'fifty'], /^pane split: -r: 'fifty' is not a whole number/],
    [['split', 'htop'], /unexpected argument 'htop' \(put a program after --/],
    [['split', '-t', 'x:y'], /-t: 'x:y' is not a pane id/],
    [['focus', '-d', 'sideways'], /^pane focus: -d: 'sideways' is not one of left, right, up, down, next, prev/],
    [['resize', '-d', 'left'], /^pane resize: missing CELLS: how far to move the edge \(-n CELLS, or CELLS after the flags\)/],
    [['resize', '-d', 'left', 'lots'], /^pane resize: CELLS: 'lots' is not a whole number from 1 to 10000/],
    [['resize', '-d', 'left', '-n', '3', '4'], /^pane resize: -n 3 and CELLS 4 disagree; give one/],
    [['resize', '-n', '3'], /^pane resize: missing -d/],
    [['resize', '-d', 'left', '-n', '-2'], /-n: -2 is below the minimum 1/],
    [['focus', 'sideways'], /^pane focus: DIR: 'sideways' is not one of left, right, up, down, next, prev/],
    [['focus', '-d', 'left', 'right'], /^pane focus: -d left and DIR right disagree; give one/],
    [['swap', '-t', '1'], /^pane swap: swap needs --with ID or a direction \(-d DIR, or DIR alone\)/],
    [['swap', '--with', '2', 'left'], /^pane swap: --with and a direction both name the other pane; give one/],
    [['swap', '--with', '2', '-d', 'left'], /--with and -d cannot be used together/],
    [['float', '--x', 'left'], /--x: 'left' is not a whole number/],
    [['float', '--tile', '--x', '3'], /--x and --tile cannot be used together/],
    [['send', '-t', '3'], /^pane send: missing TEXT/],
    [['send', '--raw', '-n', 'x'], /--raw and -n cannot be used together/],
    [['output', '--from', '-1'], /--from: -1 is below the minimum 0/],
    [['watch', 'panes'], /FAMILY: 'panes' is not one of pane, layout, focus, session, client, output/],
    [['session'], /^pane: session needs a subcommand: new, ls, kill, attach, rename, save, restore/],
    [['session', 'nuke'], /unknown session command 'nuke'/],
    [['session', 'kill'], /^pane session kill: missing NAME/],
    [['session', 'new', 'a', 'b'], /unexpected argument 'b'/],
    [['attr', 'no-equals'], /'no-equals' is not KEY=VALUE/],
    [['permit', 'c1', 'write'], /MODE: 'write' is not one of rw, ro/],
    [['close', '--socket', '/a', '--socket=/b'], /--socket given twice/],
    [['--socket', '/a', 'close', '--socket', '/b'], /--socket given twice/],
    [['help', 'nosuch'], /unknown command 'nosuch'/],
  ];
  for (const [argv, want] of cases) {
    it(`exits 2 for \`pane ${argv.join(' ')}\`, naming the problem`, async () => {
      const r = await run([...argv, ...(argv.includes('--socket') ? [] : [])], { PANE_SOCKET: NOWHERE });
      expect(r.err).toMatch(want);
      expect(r.code).toBe(2);
      expect(r.out).toBe('');
    });
  }

  it('follows a command’s usage error with its usage line and a pointer to its help', async () => {
    const r = await run(['split', '--nope']);
    expect(r.err).toBe('pane split: unknown flag --nope\nusage: pane split [-t ID] [-d h|v] [-r PCT] [--cwd D] [--sig SIG] [--name N] [-- PROGRAM ARGS...]\nRun `pane help split` for details.\n');
  });

  it('prints the command list to stderr and exits 2 with no command at all', async () => {
    const r = await run([]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^pane — drive a pane server/);
  });

  it('lists a group’s subcommands with their summaries for `pane host --help` and `pane help host`, exiting 0', async () => {
    for (const argv of [['host', '--help'], ['host', '-h'], ['help', 'host']]) {
      const r = await run(argv, { PANE_SOCKET: NOWHERE });
      expect(r.code).toBe(0);
      expect(r.err).toBe('');
      expect(r.out).toMatch(/^usage: pane host SUBCOMMAND/);
      expect(r.out).toMatch(/host connect +join a host: its panes appear as NAME:N/);
    }
  });

  it('refuses a $PANE_ID that is not a pane id, naming it', async () => {
    const r = await run(['close'], { PANE_ID: 'junk', PANE_SOCKET: NOWHERE });
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/\$PANE_ID is 'junk', which is not a pane id; pass -t ID/);
  });
});

describe('command groups (each run loads its group’s bundle alone)', () => {
  const hook = { serve: async () => 0 };
  const groups: Record<GroupName, { command: string }[]> = {
    panes: paneCommands, floating: floatCommands, tags: tagCommands, streams: streamCommands, sessions: sessionCommands,
    server: serverCommands(hook), durable: durableCommands, agents: agentCommands, awareness: awarenessCommands, sandbox: sandboxCommands, hosts: hostCommands, ns: nsCommands,
  };

  it('names, for every command of the table, the group that holds it, and no word the table lacks', () => {
    const table = commandTable(hook).filter((c) => c.command !== 'help');
    for (const c of table) {
      const group = GROUP_OF[c.command.split(' ')[0] as string];
      expect(group, c.command).toBeDefined();
      expect(groups[group!].some((g) => g.command === c.command), `${c.command} in ${group}`).toBe(true);
    }
    expect(Object.keys(GROUP_OF).sort()).toEqual([...new Set(table.map((c) => c.command.split(' ')[0]))].sort());
  });

  it('finds the group past a leading --socket, and none for help, flags or unknown words', () => {
    expect(groupOf(['ls'])).toBe('panes');
    expect(groupOf(['--socket', '/s', 'session', 'new'])).toBe('sessions');
    expect(groupOf(['--socket=/s', 'cat', '/1/tag'])).toBe('ns');
    for (const argv of [['-V'], ['--version'], ['--socket', '/s', '--version']]) expect(groupOf(argv), argv.join(' ')).toBe('ns');
    for (const argv of [[], ['help'], ['--help'], ['lss'], ['--socket', '/s']]) expect(groupOf(argv), argv.join(' ')).toBeUndefined();
  });
});

describe('help', () => {
  it('lists every command of the table with its summary', async () => {
    const r = await run(['help']);
    expect(r.code).toBe(0);
    for (const c of commandTable({ serve: async () => 0 })) expect(r.out).toContain(`  ${c.command}`);
    expect(r.out).toMatch(/Exit codes: 0 ok; 1 the operation failed; 2 usage error; 3 no server reachable/);
  });

  it('shows one command’s usage, flags and notes, from help CMD and CMD --help alike', async () => {
    const a = await run(['help', 'send']);
    const b = await run(['send', '--help']);
    expect(a.code).toBe(0);
    expect(a.out).toBe(b.out);
    expect(a.out).toMatch(/^usage: pane send \[-t ID\] \[-n, --no-newline\]|^usage: pane send \[-t ID\] \[-n\]/);
    expect(a.out).toMatch(/--raw\s+send the bytes exactly as given/);
    expect(a.out).toMatch(/--socket P/);
  });

  it('shows subcommand help', async () => {
    const r = await run(['help', 'session', 'new']);
    expect(r.out).toMatch(/^usage: pane session new \[--cwd D\] \[--host HOST\] \[NAME\] \[-- PROGRAM ARGS\.\.\.\]/);
  });

  it('prints general help on --help before any command', async () => {
    const r = await run(['--help']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/usage: pane \[--socket P\] COMMAND/);
  });
});

describe('version and start', () => {
  it('prints the package version and the protocol version on --version', async () => {
    const r = await run(['--version']);
    const pkg = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '../../../package.json'), 'utf8')) as { version: string };
    expect(r).toMatchObject({ code: 0, out: `pane ${pkg.version} (protocol ${PROTOCOL_VERSION})\n`, err: '' });
  });

  it('names an unknown command and points to pane --help', async () => {
    const r = await run(['frobnicate']);
    expect(r).toMatchObject({ code: 2, out: '', err: "pane: unknown command 'frobnicate'\nRun `pane --help` for the list of commands.\n" });
  });

  it('hands pane start’s argv, with a leading --socket, to the desktop launcher', async () => {
    const started: string[][] = [];
    const code = await runCli(['--socket', '/tmp/x.sock', 'start', '--chromium'], { serve: async () => 0, start: async (a) => (started.push(a), 0) }, { stdout: new PassThrough(), stderr: new PassThrough() });
    expect(code).toBe(0);
    expect(started).toEqual([['--socket', '/tmp/x.sock', '--chromium']]);
  });

  it('says so when this build has no desktop launcher', async () => {
    const r = await run(['start']);
    expect(r.code).toBe(1);
    expect(r.err).toBe('pane: this build of pane has no desktop launcher (dist/start.mjs); run `npm run build`\n');
  });
});

describe('serve', () => {
  it('hands its argv, with a leading --socket, to the server untouched', async () => {
    const r = await run(['--socket', '/tmp/x.sock', 'serve', '--host', 'vm', '--empty']);
    expect(r.code).toBe(0);
    expect(r.served).toEqual([['--socket', '/tmp/x.sock', '--host', 'vm', '--empty']]);
  });
});

describe('no server', () => {
  it('exits 3 naming the socket from --socket', async () => {
    const r = await run(['ls', '--socket', NOWHERE]);
    expect(r.code).toBe(3);
    expect(r.err).toBe(`pane: no pane server at ${NOWHERE}; ${NO_SERVER_HINT}\n`);
  });

  it('exits 3 naming the socket from $PANE_SOCKET', async () => {
    const r = await run(['info'], { PANE_SOCKET: NOWHERE });
    expect(r.code).toBe(3);
    expect(r.err).toContain(`no pane server at ${NOWHERE}`);
  });

  it('checks usage before connecting: a usage error wins over a missing server', async () => {
    const r = await run(['resize', '--socket', NOWHERE]);
    expect(r.code).toBe(2);
  });
});

/** The protocol modules written without zod, for this path: the frame limits and binary codec, the envelope checks, partnersOf, the version, exit labels, PaneFault, a stand-in's attrs, the latency buckets, the Prometheus text, the binary scale and an agent's state words. */
const ZOD_FREE = ['kits/protocol/binary.ts', 'kits/protocol/endpointForm.ts', 'kits/protocol/stdio.ts', 'kits/protocol/frameCheck.ts', 'kits/protocol/partners.ts', 'kits/protocol/version.ts', 'kits/protocol/exitLabel.ts', 'kits/protocol/fault.ts', 'kits/protocol/stateVersion.ts', 'kits/protocol/standIn.ts', 'kits/protocol/shown.ts', 'kits/protocol/principal.ts', 'kits/protocol/flow.ts', 'kits/protocol/grantLimits.ts', 'kits/protocol/vocabRevision.ts', 'kits/protocol/gridLimits.ts', 'kits/protocol/latency.ts', 'kits/protocol/prometheus.ts', 'kits/protocol/paneRate.ts', 'kits/protocol/binaryScale.ts', 'kits/protocol/codeReplaced.ts', 'kits/protocol/agentState.ts'];

describe('start-up weight', () => {
  it('loads neither zod nor the protocol schemas on the way to running a command', async () => {
    // Walk only static imports from main.ts: dynamic ones (serve, mount) load on demand.
    const r = await build({ entryPoints: [path.join(import.meta.dirname, 'main.ts')], bundle: true, platform: 'node', format: 'esm', write: false, outdir: os.tmpdir(), logLevel: 'silent', metafile: true });
    const inputs = r.metafile.inputs;
    const entry = Object.keys(inputs).find((k) => k.endsWith('kits/node/cli/main.ts'));
    expect(entry).toBeDefined();
    const seen = new Set<string>();
    const walk = (file: string, via: string[]): void => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const i of inputs[file]?.imports ?? []) {
        if (i.kind !== 'import-statement' || i.external) continue;
        const bad = /node_modules\/zod\//.test(i.path) || (/kits\/protocol\//.test(i.path) && !ZOD_FREE.some((f) => i.path.endsWith(f)));
        if (bad) throw new Error(`the CLI start-up path loads ${i.path} via ${[...via, file].join(' → ')}`);
        walk(i.path, [...via, file]);
      }
    };
    walk(entry as string, []);
    expect(seen.size).toBeGreaterThan(5);
  });
});
