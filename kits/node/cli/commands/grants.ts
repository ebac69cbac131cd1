// `pane grant new`: attach grants for someone the person lets in — read-only or
// read-write, until a time — and `pane grant ls` / `pane grant revoke ID`.
import { JSON_FLAG, type CommandSpec } from '../command';
import { UsageError } from '../errors';
import { bool, str } from '../args';
import { ago, table } from '../format';
import { localTime } from '../../localTime';
import { shown } from '../../../protocol/shown';
import { DEFAULT_GRANT_TTL_MS, grantDuration, MAX_GRANT_TTL_MS, MAX_METRICS_GRANT_TTL_MS } from '../../../protocol/grantLimits';

const DAY_MS = 86_400_000;

/** `90s`, `30m`, `2h`, `7d` (or plain seconds) as milliseconds; a UsageError names what is wrong. */
export function parseDuration(text: string, command: string, max = MAX_GRANT_TTL_MS): number {
  const ms = grantDuration(text, max);
  if (typeof ms === 'string') throw new UsageError(`--for: ${ms}`, command);
  return ms;
}

const MODE_WORDS = { ro: 'read-only', rw: 'read-write', metrics: 'metrics: a scraper’s, lets no client in' } as const;

/** A grant's times as the rest of the CLI says them: local, to the minute (they had been UTC ISO, "2026-12-06 18:40:25Z"). */
const at = (ms: number | undefined) => (ms === undefined ? '-' : localTime(ms, 'minute'));
/** An expiry with how long is left: "2026-12-06 18:40 (in 1h00m)", or "(expired)". */
const expiry = (ms: number) => `${at(ms)} (${ms > Date.now() ? `in ${ago(ms - Date.now())}` : 'expired'})`;

export const grantCommands: CommandSpec[] = [
  {
    command: 'grant new',
    groupDefault: true,
    summary: 'let someone in to one session: print an attach grant (read-only unless --rw) that expires, for a window or a client; --metrics: a scraper’s token',
    flags: [
      { name: 'session', type: 'string', value: 'NAME', doc: 'the session it shows, its guest seeing that session’s panes and nothing else (default: the session of the pane you type in, else the first)' },
      { name: 'context', type: 'string', value: 'NAME', doc: 'a context of the session for the guest to follow: with your window on ?context=NAME, you share one focus and zoom (default: a context of its own)' },
      { name: 'rw', type: 'bool', doc: 'read-write: the guest may type into and run the words of its session’s panes (never start programs, reshape the desktop, or read mail)' },
      { name: 'read-only', type: 'bool', doc: 'read-only, the default: screens and events, no key in' },
      { name: 'metrics', type: 'bool', doc: `for a scraper: the bearer token of GET /metrics on the HTTP front (with "metricsScrape": true in settings.json); lets no client in; may live ${MAX_METRICS_GRANT_TTL_MS / DAY_MS}d` },
      { name: 'for', type: 'string', value: 'DURATION', doc: `how long it lives: 90s, 30m, 2h, 7d (default ${DEFAULT_GRANT_TTL_MS / 60_000}m, at most ${MAX_GRANT_TTL_MS / DAY_MS}d; a metrics grant ${MAX_METRICS_GRANT_TTL_MS / DAY_MS}d)` },
      { name: 'expires', type: 'string', value: 'DURATION', doc: 'the same as --for' },
      { name: 'note', type: 'string', value: 'TEXT', doc: 'whom it is for, shown by pane grant ls' },
      { name: 'name', type: 'string', value: 'LABEL', doc: 'the same as --note' },
      JSON_FLAG,
    ],
    notes: [
      'With flags straight after it, `pane grant` is `pane grant new`: `pane grant --session work --read-only --expires 2h --name bob`.',
      'The token is printed once; the server keeps only its SHA-256. A window opens with the URL (the token rides in its #fragment, which a browser never sends to a server); a CLI uses it as PANE_GRANT=TOKEN pane ... . A read-only guest sees screens and events, never agents’ mail or messages, and does not resize the person’s panes. Every guest is closed when its grant expires or is revoked (pane grant revoke ID).',
    ],
    async run(ctx, a) {
      const one = (x: string, y: string) => {
        if (str(a, x) !== undefined && str(a, y) !== undefined) throw new UsageError(`--${x} and --${y} say the same; give one`, 'grant new');
        return str(a, x) ?? str(a, y);
      };
      const ttl = one('for', 'expires');
      const note = one('note', 'name');
      const session = str(a, 'session');
      if ([bool(a, 'rw'), bool(a, 'metrics'), bool(a, 'read-only')].filter(Boolean).length > 1) throw new UsageError('--read-only, --rw and --metrics: a grant is one of them', 'grant new');
      const mode = bool(a, 'metrics') ? 'metrics' : bool(a, 'rw') ? 'rw' : 'ro';
      if (mode === 'metrics' && session !== undefined) throw new UsageError('--session: a metrics grant shows no session (it reads counts and sizes)', 'grant new');
      const from = mode === 'metrics' || session !== undefined ? undefined : ctx.target(a);
      const context = str(a, 'context');
      if (mode === 'metrics' && context !== undefined) throw new UsageError('--context: a metrics grant shows no session', 'grant new');
      const c = await ctx.connect();
      const g = await c.call('grant/create', {
        mode,
        ...(ttl !== undefined ? { ttlMs: parseDuration(ttl, 'grant new', mode === 'metrics' ? MAX_METRICS_GRANT_TTL_MS : MAX_GRANT_TTL_MS) } : {}),
        ...(note !== undefined ? { note } : {}),
        ...(session !== undefined ? { session } : {}),
        ...(from !== undefined ? { from } : {}),
        ...(context !== undefined ? { context } : {}),
      });
      if (bool(a, 'json')) {
        ctx.out(JSON.stringify(g, null, 2));
        return 0;
      }
      ctx.out(`grant ${g.id} (${MODE_WORDS[g.mode]})${g.session ? ` of session ${shown(g.session.name)}` : ''} until ${expiry(g.expiresAt)}`);
      ctx.out(`token: ${g.token}`);
      if (g.mode === 'metrics') {
        const target = g.url ? new URL(g.url).host : 'HOST:PORT';
        ctx.out(`scrape: ${g.url ?? 'GET /metrics on the HTTP front (this server has none: pane serve --http PORT, or npm start)'} with the header Authorization: Bearer TOKEN, once settings.json says "metricsScrape": true`);
        ctx.out(`prometheus.yml: scrape_configs: [{job_name: pane, authorization: {credentials_file: FILE_WITH_THE_TOKEN}, static_configs: [{targets: ['${target}']}]}]`);
        return 0;
      }
      ctx.out(g.url ? `window: ${g.url}` : 'window: add #grant=TOKEN to the address of any pane window (this server has no HTTP front of its own)');
      ctx.out(`client: PANE_GRANT=${g.token} pane ls`);
      return 0;
    },
  },
  {
    command: 'grant ls',
    summary: 'list the attach grants alive: mode, expiry, uses, guests connected now',
    flags: [JSON_FLAG],
    async run(ctx, a) {
      const c = await ctx.connect();
      const { grants } = await c.call('grant/list', {});
      if (bool(a, 'json')) ctx.out(JSON.stringify(grants, null, 2));
      else if (grants.length === 0) ctx.out('no grants alive (pane grant new issues one)');
      else ctx.out(table(['ID', 'MODE', 'SESSION', 'EXPIRES', 'USES', 'LAST USED', 'GUESTS', 'NOTE'], grants.map((g) => [g.id, g.mode, g.session === undefined ? '-' : shown(g.sessionName ?? '(ended)'), expiry(g.expiresAt), String(g.uses), at(g.lastUsedAt), String(g.clients), shown(g.note ?? '-')])));
      return 0;
    },
  },
  {
    command: 'grant revoke',
    summary: 'revoke an attach grant: its token lets no one in again, and its guests are closed now',
    flags: [],
    positionals: [{ name: 'ID', required: true }],
    async run(ctx, a) {
      const c = await ctx.connect();
      const r = await c.call('grant/revoke', { id: a.positionals[0] as string });
      ctx.out(`revoked ${r.id}; closed ${r.closed} guest${r.closed === 1 ? '' : 's'}`);
      return 0;
    },
  },
];
