// What every test of a real agent CLI (from npm, pinned in scripts/agentClis.mjs) shares:
// why it cannot run here, a person's desktop environment for the CLI (no CI markers), and
// a real `pane serve` in a throwaway HOME with a project beside it, driven by the real CLI.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sandboxUnavailable } from '../../server/agents/sandbox';
import { BIN, buildOnce, cleanEnv, until } from '../cli/harness';

/** How long stop() keeps trying to remove the test's home while something still writes in it (within vitest's 30 s hook timeout). */
const RM_WAIT_MS = 20_000;
/** How long stop() gives the server to end: its stop waits up to 3 s for a pane's program and 4 s for the sandbox helper. */
const SERVER_STOP_MS = 10_000;

/**
 * Variables by which a CLI takes itself to be in a CI job (is-in-ci and the CLIs' own checks):
 * Gemini then skips its TUI for a model call, and on GITHUB_SHA strips its hooks' environment.
 */
export const CI_MARKERS = /^(CI|CONTINUOUS_INTEGRATION|BUILD_NUMBER|BUILD_ID|RUN_ID|GITHUB_[A-Z_]+|GITLAB_CI|BUILDKITE|CIRCLECI|TRAVIS|JENKINS_URL|TEAMCITY_VERSION|CI_[A-Z_]+)$/;

/** Why the tests of the CLIs these variables name cannot run here (one unset, or no sandbox), or null. */
export function realCliSkip(vars: Record<string, string | undefined>): string | null {
  const unset = Object.entries(vars)
    .filter(([, v]) => v === undefined)
    .map(([k]) => k);
  if (unset.length > 0) return `${unset.join(' and ')} ${unset.length > 1 ? 'are' : 'is'} unset (npm test installs the pinned agent CLIs; run node scripts/agentClis.mjs)`;
  return sandboxUnavailable(process.env.PATH);
}

/** A person's desktop, not a CI job: HOME, the CLIs' folders first on PATH, `extra` (their dummy keys), no CI markers. */
export function desktopEnv(home: string, clis: string[], extra: Record<string, string>): Record<string, string> {
  const env = cleanEnv({ HOME: home, PATH: [...clis.map((c) => path.dirname(c)), process.env.PATH].join(':'), ...extra });
  for (const k of Object.keys(env)) if (CI_MARKERS.test(k)) delete env[k];
  return env;
}

export interface RealCliServer {
  /** The throwaway HOME (the agents' homes are under its .local/share/pane/agents/). */
  dir: string;
  socket: string;
  project: string;
  env: Record<string, string>;
  /** The built `pane` against this server. */
  pane(args: string[], input?: string): { status: number | null; stdout: string; stderr: string };
  /** Bytes typed into a pane as they are (`pane send --raw`): a CLI's TUI reads them as keys. */
  raw(target: string, text: string): number | null;
  stop(): Promise<void>;
}

/** A real `pane serve` in a fresh HOME (`prefix`), with a project folder (`project`, a git repository when `git`). */
export async function startRealCliServer(o: { prefix: string; project?: string; git?: boolean; clis: string[]; env: Record<string, string> }): Promise<RealCliServer> {
  buildOnce();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), o.prefix));
  const socket = path.join(dir, 's.sock');
  const project = path.join(dir, o.project ?? 'proj');
  fs.mkdirSync(project);
  if (o.git) spawnSync('git', ['init', '-q', project]);
  const env = desktopEnv(dir, o.clis, o.env);
  const pane = (args: string[], input = '') => {
    const r = spawnSync(BIN, ['--socket', socket, ...args], { env, input, encoding: 'utf8', timeout: 20_000 });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  const server: ChildProcess = spawn(BIN, ['serve', '--socket', socket], { env, stdio: ['ignore', 'ignore', 'pipe'], cwd: dir });
  await until('pane serve', () => fs.existsSync(socket) && pane(['ls']).status === 0, 20_000);
  return {
    dir,
    socket,
    project,
    env,
    pane,
    raw: (target, text) => spawnSync(BIN, ['--socket', socket, 'send', '--raw', '-t', target, '-'], { input: text, env }).status,
    async stop() {
      if (server.exitCode === null) {
        const gone = new Promise((r) => server.once('exit', r));
        server.kill('SIGTERM');
        // The server's stop waits for its programs (SIGKILL past KILL_GRACE_MS) and the sandbox helper: SERVER_STOP_MS covers both.
        await Promise.race([gone, new Promise((r) => setTimeout(r, SERVER_STOP_MS))]);
      }
      // A `pane` process could still write its code cache under dir/.cache after the server had gone: seen as ENOTEMPTY
      // after 1.5 s, 5.5 s and once 21 s under a CI run's load, when the stop did not wait for the programs (the CLI, hung
      // up, ran its session-end hooks on its way out) or the sandbox helper; it does since b7db3d7. Tried for RM_WAIT_MS;
      // a directory still being written then is left to the system's tmp cleaning, said on stderr: not what these tests test.
      const end = Date.now() + RM_WAIT_MS;
      for (;;) {
        try {
          fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3, retryDelay: 100 });
          return;
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== 'ENOTEMPTY') throw e;
          if (Date.now() > end) {
            process.stderr.write(`realCli: left ${dir}: still written to ${RM_WAIT_MS / 1000} s after the server stopped (${(e as Error).message})\n`);
            return;
          }
          await new Promise((r) => setTimeout(r, 500));
        }
      }
    },
  };
}
