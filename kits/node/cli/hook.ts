// `pane hook`: what an agent CLI runs on each hook event (Claude Code's hooks).
// Reads the event JSON on stdin, reports it as agent/hook, prints the answer.
// It never blocks or breaks the agent: past its budget, with no server, or on any
// error it prints nothing and exits 0. Kept zod-free and small: it runs per event.
import { NoServerError } from './errors';
import { reachServer } from './reach';

/** The whole run, stdin to answer, stays under this (Claude Code waits on the hook). */
export const HOOK_BUDGET_MS = 1500;
/** With `--event` the payload is optional (Aider sends none and may leave stdin open): this long for one, at most. */
const EVENT_STDIN_MS = 200;

function readStdin(stdin: NodeJS.ReadableStream, ms: number): Promise<string> {
  return new Promise((resolve) => {
    if ((stdin as { isTTY?: boolean }).isTTY) return resolve('');
    const chunks: Buffer[] = [];
    const done = () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const timer = setTimeout(done, ms);
    stdin.on('data', (c: Buffer | string) => chunks.push(typeof c === 'string' ? Buffer.from(c) : c));
    stdin.once('end', done);
    stdin.once('error', done);
  });
}

export interface HookRun {
  socketPath: string;
  env: Record<string, string | undefined>;
  stdin: NodeJS.ReadableStream;
  out: (text: string) => void;
  err: (text: string) => void;
  /** The agent token to say hello with (the CLI's rule: only for the agent's own server). */
  token: string | undefined;
  /** The app whose hook dialect stdin is in (`pane hook --app gemini`); unset: Claude Code's. */
  app?: string | undefined;
  /** The event's name where the CLI's payload lacks it (`--event`: Copilot's hooks, Aider's notification command, which sends none). */
  event?: string | undefined;
  budgetMs?: number;
}

/** Runs one hook; resolves to 0 always (the agent must never see pane fail). */
export async function runHook(h: HookRun): Promise<number> {
  const budget = h.budgetMs ?? HOOK_BUDGET_MS;
  const start = Date.now();
  const left = () => Math.max(1, budget - (Date.now() - start));
  let finished = false;
  let client: Awaited<ReturnType<typeof reachServer>> | undefined;
  const work = (async () => {
    const event = h.event !== undefined && /^[A-Za-z][A-Za-z0-9_.:-]{0,63}$/.test(h.event) ? h.event : undefined;
    // A notification command's stdin may be the terminal, or hold nothing: its event is the whole message.
    const raw = event !== undefined && (h.stdin as { isTTY?: boolean }).isTTY ? '' : await readStdin(h.stdin, event !== undefined ? Math.min(left(), EVENT_STDIN_MS) : left());
    if (raw.trim() === '' && event === undefined) return;
    let input: unknown = {};
    if (raw.trim() !== '') {
      try {
        input = JSON.parse(raw);
      } catch {
        if (event === undefined) return; // not JSON: not a hook event we understand
        input = {};
      }
    }
    if (input === null || typeof input !== 'object' || Array.isArray(input)) return;
    if (event !== undefined && typeof (input as Record<string, unknown>).hook_event_name !== 'string') (input as Record<string, unknown>).hook_event_name = event;
    const c = await reachServer(h.socketPath, { timeoutMs: left(), ...(h.token === undefined ? {} : { token: h.token }), dropOnClose: true });
    client = c;
    try {
      const params: { input: Record<string, unknown>; pane?: string; agent?: string; app?: string } = { input: input as Record<string, unknown> };
      if (h.app !== undefined && /^[A-Za-z0-9._-]{1,64}$/.test(h.app)) params.app = h.app;
      const pane = h.env.PANE_ID;
      if (pane && /^(?:[A-Za-z0-9][A-Za-z0-9._-]*:)?[1-9][0-9]*$/.test(pane)) params.pane = pane;
      const agent = h.env.PANE_AGENT;
      if (agent && /^[a-z][a-z0-9-]{0,31}$/.test(agent)) params.agent = agent;
      const r = await c.call('agent/hook', params);
      if (!finished && r.output) h.out(JSON.stringify(r.output));
    } finally {
      c.close();
    }
  })();
  const late = new Promise<void>((res) => setTimeout(res, budget).unref());
  try {
    await Promise.race([work, late]);
  } catch (e) {
    // No server is the normal case outside pane; anything else gets one quiet line on stderr.
    if (!(e instanceof NoServerError)) h.err(`pane hook: ${(e as Error).message}`);
  }
  finished = true;
  // A server that took the hello but never answers must not keep this process alive past its budget.
  client?.close();
  // Nor may a stdin the agent CLI left open (a listener on it holds the loop): let it go.
  releaseStdin(h.stdin);
  return 0;
}

/** Stops listening to stdin and lets it go, so an open pipe nobody closes cannot keep `pane hook` past its budget. */
function releaseStdin(stdin: NodeJS.ReadableStream): void {
  stdin.removeAllListeners('data');
  stdin.removeAllListeners('end');
  stdin.pause();
  (stdin as { destroy?: () => void }).destroy?.();
}
