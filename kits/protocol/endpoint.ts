// Where a pane server is reached: one Endpoint type for every way in (a unix socket,
// an agent's socket, a child process's stdio, TLS, a WebSocket). The CLI, the kits,
// host files and the server dial and listen on these; kits/node/endpoint.ts does it.
// The string form (`unix:/p`, `agent:ada`, `exec:ssh h pane serve --stdio`, `tls://h:p`,
// `ws://…`) is parsed without zod in endpointForm.ts, for the one-shot CLI.
import { z } from 'zod';
import { AgentNameSchema } from './agent';
import { lazySchema } from './lazySchema';

/** Longest path the kernel takes for a unix socket (sun_path is 108 bytes on Linux, with its NUL). */
export const MAX_UNIX_PATH = 107;
/** Arguments of a stdio command: ssh + options + a remote `pane serve --stdio` is ~10; 64 leaves room for docker/kubectl wrappers. */
export const MAX_EXEC_ARGS = 64;

const FilePath = lazySchema(() => z.string().min(1).max(4096));
/** The hosts a `tcp` endpoint may name: the loopback, as an address (a name could resolve elsewhere). */
export const LOOPBACK_HOSTS = ['127.0.0.1', '::1'] as const;

/** A unix domain socket, by path: the person's own daemon (mode 0600 in a 0700 dir). */
export const UnixEndpointSchema = lazySchema(() => z.object({ kind: z.literal('unix'), path: FilePath.max(MAX_UNIX_PATH) }));
/** An agent's own socket (its home's pane.sock), by the agent's name; `root` is the agents' directory when not the default. */
export const AgentEndpointSchema = lazySchema(() => z.object({ kind: z.literal('agent'), agent: AgentNameSchema, root: FilePath.optional() }));
/**
 * A child process whose stdin/stdout carry the protocol: `ssh host pane serve --stdio`,
 * `docker exec -i C pane serve --stdio`, … It prints STDIO_PREAMBLE (kits/protocol/stdio.ts) first.
 */
export const ExecEndpointSchema = lazySchema(() => z.object({ kind: z.literal('exec'), argv: z.array(z.string().min(1).max(4096)).min(1).max(MAX_EXEC_ARGS) }));
/** A TLS listener; cert/key are this side's (mutual TLS), ca the trusted roots for the peer (files, PEM). */
export const TlsEndpointSchema = lazySchema(() => z.object({
  kind: z.literal('tls'),
  host: z.string().min(1).max(253),
  port: z.number().int().min(1).max(65535),
  cert: FilePath.optional(),
  key: FilePath.optional(),
  ca: FilePath.optional(),
  /** The name the server's certificate must carry, when not `host`. */
  servername: z.string().min(1).max(253).optional(),
}));
/** A WebSocket URL (ws:// or wss://), as the window's HTTP front serves one. */
export const WsEndpointSchema = lazySchema(() => z.object({ kind: z.literal('ws'), url: z.string().regex(/^wss?:\/\/[^\s]+$/, 'a WebSocket URL starts ws:// or wss://').max(2048) }));

/**
 * A TCP port on this machine's loopback: inside an agent's sandbox, the relay on the sandbox's own
 * loopback to its socket (unix sockets cannot be made there). Loopback only: the stream is neither
 * encrypted nor is the server's identity checked, so it never names another machine (tls:// does).
 */
export const TcpEndpointSchema = lazySchema(() => z.object({ kind: z.literal('tcp'), host: z.enum(LOOPBACK_HOSTS), port: z.number().int().min(1).max(65535) }));

export const EndpointSchema = lazySchema(() => z.discriminatedUnion('kind', [UnixEndpointSchema, AgentEndpointSchema, ExecEndpointSchema, TlsEndpointSchema, WsEndpointSchema, TcpEndpointSchema]));
export type Endpoint = z.infer<typeof EndpointSchema>;
export type EndpointKind = Endpoint['kind'];
export type ListenEndpoint = Extract<Endpoint, { kind: 'unix' | 'tls' }>;
