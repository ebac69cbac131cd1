// What a daemon opens besides its unix socket (issue 26): ~/.config/pane/serve.json.
// Today one door, TLS, for other machines' pane daemons that paired with this one
// (`pane host pair NAME` there runs `pane host pair-serve` here over ssh, which writes
// this file). No file, or no `tls`, is the default: no network door at all.
import { z } from 'zod';

/** The TLS port `pane host pair` asks for when none is given: unassigned by IANA, easy to spot in `ss -tlnp`. */
export const DEFAULT_TLS_PORT = 7681;

export const TlsDoorSchema = z
  .object({
    /** The address to listen on (127.0.0.1, 0.0.0.0, a LAN IP, ::). */
    address: z.string().min(1).max(253),
    port: z.number().int().min(1).max(65535),
  })
  .strict();
export type TlsDoor = z.infer<typeof TlsDoorSchema>;

export const ServeConfigSchema = z
  .object({
    $schema: z.string().max(500).optional(),
    /** Listen for paired pane daemons on mutual TLS (a client certificate signed by this user's CA, under the state dir's tls/). */
    tls: TlsDoorSchema.optional(),
  })
  .strict();
export type ServeConfig = z.infer<typeof ServeConfigSchema>;

/** What `pane host pair-serve` reads on stdin: the client's certificate request and the names it reaches this machine by. */
export const PairRequestSchema = z
  .object({
    csr: z.string().min(1).max(16_384),
    /** Host names or IPs the client dials (the server certificate carries them). */
    names: z.array(z.string().min(1).max(253).regex(/^[A-Za-z0-9.:_-]+$/, 'a host name or IP')).min(1).max(16),
    port: z.number().int().min(1).max(65535).optional(),
    address: z.string().min(1).max(253).optional(),
  })
  .strict();
export type PairRequest = z.infer<typeof PairRequestSchema>;

/** What it prints back: the CA to pin, the client certificate, where the TLS door listens. */
export const PairReplySchema = z
  .object({
    ca: z.string().min(1).max(16_384),
    cert: z.string().min(1).max(16_384),
    /** SHA-256 of the server certificate, for the person to compare. */
    serverFingerprint: z.string().max(200),
    port: z.number().int().min(1).max(65535),
    /** Whether the daemon there answered on its TLS port before the reply (false: start it, `pane serve`). */
    listening: z.boolean(),
  })
  .strict();
export type PairReply = z.infer<typeof PairReplySchema>;
