// The handshake: hello (version, wanted capabilities, optional token) → welcome
// (granted capabilities) or a typed refusal. Nothing else is accepted before it.
import { z } from 'zod';
import { CAPABILITIES, method } from './method';
import { GrantWelcomeSchema } from './grant';
import { lazySchema } from './lazySchema';

export { PROTOCOL_VERSION } from './version';

export const CapabilitySchema = lazySchema(() => z.enum(CAPABILITIES));

export const ClientKindSchema = lazySchema(() => z.enum(['cli', 'renderer', 'agent', 'namespace', 'test', 'bench', 'other']));

/** Feature flags a hello may offer: a short name each (version.ts's PROTOCOL_FEATURES), at most this many. */
export const MAX_HELLO_FEATURES = 64;

export const HelloParamsSchema = lazySchema(() => z.object({
  /** The client's highest protocol; all a client before ranges sends. */
  protocol: z.number().int(),
  /** The [min, max] protocol range the client speaks; the server picks the highest it shares. */
  protocols: z.tuple([z.number().int(), z.number().int()]).optional(),
  /** Optional abilities the client has; the welcome names those the server has too. */
  features: z.array(z.string().max(40)).max(MAX_HELLO_FEATURES).optional(),
  client: z.object({ name: z.string().max(100), kind: ClientKindSchema, version: z.string().max(40).optional() }),
  capabilities: z.array(CapabilitySchema).min(1),
  token: z.string().max(512).optional(),
  /** An attach grant's token (grant/create): this client speaks as that grant, with its mode, until it expires or is revoked. */
  grant: z.string().max(200).optional(),
}));
export type HelloParams = z.infer<typeof HelloParamsSchema>;

export const WelcomeSchema = lazySchema(() => z.object({
  /** The protocol agreed: the highest both ends speak. */
  protocol: z.number().int(),
  /** The features both ends have (absent from a server before ranges). */
  features: z.array(z.string()).optional(),
  /** `instance`: a random id of this daemon's run, by which a host link knows it has reached the daemon it runs in (absent from older servers). */
  server: z.object({ host: z.string(), version: z.string(), pid: z.number().int(), instance: z.string().max(64).optional() }),
  client: z.string(),
  capabilities: z.array(CapabilitySchema),
  /** Who this connection acts as: a user name, or agent name when a token names one. */
  user: z.string(),
  /** Set when the client came in with a grant: what it is and when it ends (the window says "read-only" and the time). */
  grant: GrantWelcomeSchema.optional(),
}));
export type Welcome = z.infer<typeof WelcomeSchema>;

export const helloMethods = {
  hello: method({
    params: HelloParamsSchema,
    result: WelcomeSchema,
    cap: 'read',
    doc: 'Opens the conversation; must be the first request.',
  }),
};
