// The handshake: hello (version, wanted capabilities, optional token) → welcome
// (granted capabilities) or a typed refusal. Nothing else is accepted before it.
import { z } from 'zod';
import { CAPABILITIES, method } from './method';

export { PROTOCOL_VERSION } from './version';

export const CapabilitySchema = z.enum(CAPABILITIES);

export const ClientKindSchema = z.enum(['cli', 'renderer', 'agent', 'namespace', 'test', 'bench', 'other']);

export const HelloParamsSchema = z.object({
  protocol: z.number().int(),
  client: z.object({ name: z.string().max(100), kind: ClientKindSchema }),
  capabilities: z.array(CapabilitySchema).min(1),
  token: z.string().max(512).optional(),
});
export type HelloParams = z.infer<typeof HelloParamsSchema>;

export const WelcomeSchema = z.object({
  protocol: z.number().int(),
  server: z.object({ host: z.string(), version: z.string(), pid: z.number().int() }),
  client: z.string(),
  capabilities: z.array(CapabilitySchema),
  /** Who this connection acts as: a user name, or agent name when a token names one. */
  user: z.string(),
});
export type Welcome = z.infer<typeof WelcomeSchema>;

export const helloMethods = {
  hello: method({
    params: HelloParamsSchema,
    result: WelcomeSchema,
    cap: 'read',
    doc: 'Opens the conversation; must be the first request.',
  }),
};
