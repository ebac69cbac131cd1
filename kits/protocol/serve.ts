// What a daemon opens besides its unix socket (issue 26): ~/.config/pane/serve.json.
// Today one door, TLS, for other machines' pane daemons that paired with this one
// (`pane host pair NAME` there runs `pane host pair-serve` here over ssh, which writes
// this file). No file, or no `tls`, is the default: no network door at all.
import { z } from 'zod';
import { lazySchema } from './lazySchema';

/** The TLS port `pane host pair` asks for when none is given: unassigned by IANA, easy to spot in `ss -tlnp`. */
export const DEFAULT_TLS_PORT = 7681;

export const TlsDoorSchema = lazySchema(() => z
  .object({
    /** The address to listen on (127.0.0.1, 0.0.0.0, a LAN IP, ::). */
    address: z.string().min(1).max(253),
    port: z.number().int().min(1).max(65535),
  })
  .strict());
export type TlsDoor = z.infer<typeof TlsDoorSchema>;

export const ServeConfigSchema = lazySchema(() => z
  .object({
    $schema: z.string().max(500).optional(),
    /** Listen for paired pane daemons on mutual TLS (a client certificate signed by this user's CA, under the state dir's tls/). */
    tls: TlsDoorSchema.optional(),
  })
  .strict());
export type ServeConfig = z.infer<typeof ServeConfigSchema>;

/** A certificate's SHA-256 over its DER, as `openssl x509 -fingerprint -sha256` and Node print it: 32 upper-case hex bytes joined by colons. */
export const FingerprintSchema = lazySchema(() => z.string().regex(/^(?:[0-9A-F]{2}:){31}[0-9A-F]{2}$/, 'a SHA-256 fingerprint: 32 upper-case hex bytes joined by ":"'));

/** What `pane host pair-serve` reads on stdin: the client's certificate request and the names it reaches this machine by. */
export const PairRequestSchema = lazySchema(() => z
  .object({
    csr: z.string().min(1).max(16_384),
    /** Host names or IPs the client dials (the server certificate carries them). */
    names: z.array(z.string().min(1).max(253).regex(/^[A-Za-z0-9.:_-]+$/, 'a host name or IP')).min(1).max(16),
    port: z.number().int().min(1).max(65535).optional(),
    address: z.string().min(1).max(253).optional(),
    /** The certificate this client held for this machine before (pairing again): marked revoked once the new one is recorded. */
    replaces: FingerprintSchema.optional(),
  })
  .strict());
export type PairRequest = z.infer<typeof PairRequestSchema>;

/** What it prints back: the CA to pin, the client certificate, where the TLS door listens. */
export const PairReplySchema = lazySchema(() => z
  .object({
    ca: z.string().min(1).max(16_384),
    cert: z.string().min(1).max(16_384),
    /** SHA-256 of the server certificate, for the person to compare. */
    serverFingerprint: z.string().max(200),
    port: z.number().int().min(1).max(65535),
    /** The address the door listens on there (0.0.0.0 unless pairing or serve.json said otherwise). */
    address: z.string().min(1).max(253).optional(),
    /** Whether the daemon there answered on its TLS port before the reply (false: start it, `pane serve`). */
    listening: z.boolean(),
  })
  .strict());
export type PairReply = z.infer<typeof PairReplySchema>;

/**
 * Client certificates one machine's pair-serve keeps a record of: a person pairs a few
 * machines, each again now and then (the one it replaces stays listed, revoked, until it
 * expires). Past it pairing is refused until some are revoked; 1024 × ~300 bytes stays
 * well under MAX_CLIENTS_FILE_BYTES.
 */
export const MAX_ISSUED_CLIENTS = 1024;
/** Characters of the name a client gives (its certificate's common name, user@machine): X.509's ub-common-name. */
export const MAX_CLIENT_NAME = 64;
/** Bytes of clients.json read: MAX_ISSUED_CLIENTS records of ~300 bytes, with room. */
export const MAX_CLIENTS_FILE_BYTES = 512 * 1024;

/** One client certificate pair-serve issued: the TLS door takes a client only when its certificate is here and not revoked. */
export const IssuedClientSchema = lazySchema(() => z
  .object({
    fingerprint: FingerprintSchema,
    /** The name the client gave in its request (user@machine, the certificate's common name). */
    name: z.string().min(1).max(MAX_CLIENT_NAME),
    issuedAt: z.iso.datetime(),
    /** The certificate's notAfter: past it the record may be dropped (the handshake refuses it anyway). */
    expires: z.iso.datetime(),
    /** Set by `pane host revoke` or `pane host unpair` (or pairing again from the same client); the door closes its live connections. */
    revokedAt: z.iso.datetime().optional(),
  })
  .strict());
export type IssuedClient = z.infer<typeof IssuedClientSchema>;

/** $XDG_STATE_HOME/pane/tls/clients.json: every client certificate this machine's CA issued through pair-serve. */
export const ClientsFileSchema = lazySchema(() => z
  .object({
    $schema: z.string().max(500).optional(),
    clients: z.array(IssuedClientSchema).max(MAX_ISSUED_CLIENTS),
  })
  .strict());
export type ClientsFile = z.infer<typeof ClientsFileSchema>;

/** What `pane host unpair-serve` reads on stdin: the certificate the client gives up. */
export const UnpairRequestSchema = lazySchema(() => z.object({ fingerprint: FingerprintSchema }).strict());
export type UnpairRequest = z.infer<typeof UnpairRequestSchema>;

/** What it prints back: whether the record held it, and when it was (or already had been) revoked. */
export const UnpairReplySchema = lazySchema(() => z
  .object({
    fingerprint: FingerprintSchema,
    /** False when the record never held it (issued before the record, or pruned): the door refuses it already. */
    found: z.boolean(),
    revokedAt: z.iso.datetime().optional(),
  })
  .strict());
export type UnpairReply = z.infer<typeof UnpairReplySchema>;
