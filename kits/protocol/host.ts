// Hosts: other pane daemons this one joins (issue 26). A host is a file,
// ~/.config/pane/hosts/NAME.json, saying how to reach that daemon's
// `pane serve --stdio` (ssh, any argv, later TLS); `host/*` lists, joins and leaves them.
import { z } from 'zod';
import { HostNameSchema, PaneRefSchema, SessionRefSchema } from './ids';
import { ConfigErrorSchema } from './keymap';
import { boundedArray, boundedString, MAX_ARG_LENGTH, MAX_ARGS, MAX_PATH_LENGTH, MAX_SSH_OPTIONS } from './limits';
import { method } from './method';
import { PaneSchema, SplitDirectionSchema } from './model';
import { PaneAckSchema } from './pane';
import { lazySchema } from './lazySchema';

/**
 * ssh -o options a host file may set. Nothing here runs a command or opens a
 * forward (ProxyCommand, LocalCommand, KnownHostsCommand, RemoteForward, ...):
 * a host file decides where pane connects, never what it runs locally; a jump
 * host is ProxyJump, which ssh runs itself. ControlMaster/ControlPath are pane's.
 */
export const SSH_OPTION_ALLOWLIST = [
  'IdentityFile',
  'IdentitiesOnly',
  'IdentityAgent',
  'CertificateFile',
  'UserKnownHostsFile',
  'StrictHostKeyChecking',
  'HostKeyAlias',
  'ProxyJump',
  'ConnectTimeout',
  'ConnectionAttempts',
  'ServerAliveInterval',
  'ServerAliveCountMax',
  'Compression',
  'AddressFamily',
  'LogLevel',
] as const;
export type SshOption = (typeof SSH_OPTION_ALLOWLIST)[number];

/** `user@host` or `host`: no leading '-' (it would be read as an ssh flag), no spaces or shell characters. */
export const SshDestinationSchema = lazySchema(() => z
  .string()
  .max(300)
  .regex(/^(?:[A-Za-z0-9._][A-Za-z0-9._-]*@)?(?:[A-Za-z0-9][A-Za-z0-9.-]*|\[[0-9A-Fa-f:.]+\])$/, 'a destination is host or user@host (letters, digits, ".", "-"; an IPv6 address in brackets)'));

/** A path to `pane` on the remote, put in ssh's remote command line: no shell characters. */
const RemotePaneSchema = lazySchema(() => z
  .string()
  .max(MAX_PATH_LENGTH)
  .regex(/^[A-Za-z0-9_./~+-]+$/, 'the remote pane is a program name or path (letters, digits, "_", ".", "/", "~", "+", "-"), no shell characters'));

const PortSchema = lazySchema(() => z.number().int().min(1).max(65535));

export const SshHowSchema = lazySchema(() => z
  .object({
    via: z.literal('ssh'),
    destination: SshDestinationSchema,
    port: PortSchema.optional(),
    /** An ssh_config file for this host (ssh -F); default: the user's own. */
    configFile: boundedString(MAX_PATH_LENGTH, 'MAX_PATH_LENGTH').optional(),
    /** ssh -o options from SSH_OPTION_ALLOWLIST, each a short value. */
    options: z
      .record(z.string(), z.string().max(MAX_PATH_LENGTH).regex(/^[^\n\r\0]*$/, 'one line'))
      .superRefine((o, ctx) => {
        const keys = Object.keys(o);
        if (keys.length > MAX_SSH_OPTIONS) ctx.addIssue({ code: 'custom', message: `at most ${MAX_SSH_OPTIONS} ssh options (MAX_SSH_OPTIONS); this has ${keys.length}` });
        for (const k of keys) {
          if (!(SSH_OPTION_ALLOWLIST as readonly string[]).includes(k)) ctx.addIssue({ code: 'custom', path: [k], message: `pane passes ssh only these options: ${SSH_OPTION_ALLOWLIST.join(', ')} (none runs a command); put ${k} in your ssh_config (configFile) if you mean it` });
        }
      })
      .optional(),
    /** The `pane` program on the remote (default: `pane` on its PATH). */
    pane: RemotePaneSchema.optional(),
  })
  .strict());

export const CommandHowSchema = lazySchema(() => z
  .object({
    via: z.literal('command'),
    /** Any argv whose stdio reaches a remote `pane serve --stdio` (docker exec -i C pane serve --stdio, kubectl exec -i …). */
    argv: boundedArray(boundedString(MAX_ARG_LENGTH, 'MAX_ARG_LENGTH'), MAX_ARGS, 'MAX_ARGS', 'argv elements').min(1),
  })
  .strict());

export const TlsHowSchema = lazySchema(() => z
  .object({
    via: z.literal('tls'),
    host: z.string().min(1).max(253),
    port: PortSchema,
    cert: boundedString(MAX_PATH_LENGTH, 'MAX_PATH_LENGTH').optional(),
    key: boundedString(MAX_PATH_LENGTH, 'MAX_PATH_LENGTH').optional(),
    ca: boundedString(MAX_PATH_LENGTH, 'MAX_PATH_LENGTH').optional(),
    /** The name the server's certificate must carry, when not `host`. */
    servername: z.string().min(1).max(253).optional(),
    /** The ssh reach `pane host pair NAME` bootstrapped over (kept so pairing again needs no DEST). */
    pairedVia: SshHowSchema.optional(),
  })
  .strict());

export const HostHowSchema = lazySchema(() => z.discriminatedUnion('via', [SshHowSchema, CommandHowSchema, TlsHowSchema]));
export type HostHow = z.infer<typeof HostHowSchema>;

/** One file in ~/.config/pane/hosts/; its name (NAME.json) is the host's name in `NAME:N`. */
export const HostFileSchema = lazySchema(() => z
  .object({
    $schema: z.string().max(500).optional(),
    /** If given, must be the file's name without .json. */
    name: HostNameSchema.optional(),
    how: HostHowSchema,
    /** Joined for viewing only: every request that would change the remote is refused here. */
    readOnly: z.boolean().default(false),
    /** Join it when the server starts or the file appears (default: on `pane host connect`). */
    autoConnect: z.boolean().default(false),
  })
  .strict());
export type HostFile = z.infer<typeof HostFileSchema>;

export const HostStateSchema = lazySchema(() => z.enum(['disconnected', 'connecting', 'connected', 'stale']));
export type HostState = z.infer<typeof HostStateSchema>;

export const HostInfoSchema = lazySchema(() => z.object({
  name: HostNameSchema,
  file: z.string(),
  how: z.string(),
  readOnly: z.boolean(),
  state: HostStateSchema,
  /** Why it is not connected (the last failure, naming what to do), if it is not. */
  error: z.string().nullable(),
  /**
   * The remote's own host name and pane version, once it answered; `codeReplaced` once its
   * heartbeat's server/info said an update there replaced the code its daemon runs.
   */
  remote: z.object({ host: z.string(), version: z.string(), codeReplaced: z.boolean().optional() }).nullable(),
  /** Panes it had when last heard from. */
  panes: z.number().int().min(0),
  /** Milliseconds since its last answer; null before the first. */
  lastHeardMs: z.number().nullable(),
}));
export type HostInfo = z.infer<typeof HostInfoSchema>;

export const HostListSchema = lazySchema(() => z.object({
  hosts: z.array(HostInfoSchema),
  errors: z.array(ConfigErrorSchema),
}));
export type HostList = z.infer<typeof HostListSchema>;

const NameParam = lazySchema(() => z.object({ name: HostNameSchema }));

/** A joined host's pane, always as HOST:N (a bare N is a local pane, which needs no stand-in). */
export const RemotePaneRefSchema = lazySchema(() => z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*:[1-9][0-9]*$/, 'a remote pane is HOST:N, e.g. devbox:3'));

/** host/show: a joined host's pane tiled (or floated) in a local session, through a local stand-in pane (decision 037). */
export const HostShowParamsSchema = lazySchema(() => z.object({
  /** The remote pane, HOST:N. */
  remote: RemotePaneRefSchema,
  /** The local pane to split beside (default: the session's focused pane); a local number or this server's HOST:N. */
  pane: PaneRefSchema.optional(),
  session: SessionRefSchema.optional(),
  direction: SplitDirectionSchema.optional(),
  /** Float it over the tiles instead of splitting. */
  float: z.boolean().default(false),
}));

export const hostEventSchemas = {
  /** A host was joined, left, went stale, or its file changed: the whole list. */
  'host/changed': HostListSchema,
  /**
   * A joined host's pane changed there (server/hosts/remoteEvents.ts): the remote's own
   * `event`, with the pane named `id` HOST:N (HOST the host file's name) and, unless it
   * closed, as it is now. Never the remote's bare number, which would name a local pane.
   */
  'host/pane': lazySchema(() => z.object({
    host: HostNameSchema,
    event: z.enum(['pane/created', 'pane/changed', 'pane/restarted', 'pane/closed', 'pane/exited', 'pane/tag-changed', 'pane/attrs-changed']),
    id: z.string(),
    pane: PaneSchema.optional(),
  })),
} as const;

export const hostMethods = {
  'host/list': method({
    params: lazySchema(() => z.object({ panes: z.boolean().default(false) })),
    result: lazySchema(() => HostListSchema.extend({ panes: z.array(PaneSchema).optional(), sessions: z.array(z.object({ host: HostNameSchema, id: z.string(), name: z.string() })).optional() })),
    cap: 'read',
    doc: 'The hosts of ~/.config/pane/hosts/, their state and errors; with `panes`, the panes of the joined ones as HOST:N and their sessions (a pane names its session by id).',
  }),
  'host/connect': method({
    params: NameParam,
    result: HostInfoSchema,
    cap: 'admin',
    doc: 'Joins a host: dials it as its file says and waits for its hello (or the reason it failed).',
  }),
  'host/show': method({
    params: HostShowParamsSchema,
    result: PaneAckSchema,
    cap: 'write',
    doc: 'Tiles a joined host\'s pane HOST:N in a local session: a local stand-in pane (kind remote) whose number the layout, focus and keys hold, streaming and typing into the remote pane; closing it leaves the remote pane running.',
  }),
  'host/disconnect': method({
    params: NameParam,
    result: HostInfoSchema,
    cap: 'admin',
    doc: 'Leaves a host: closes its link; its panes go on running there.',
  }),
};
