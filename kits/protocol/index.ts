// The protocol: every method and event in one map, so `call('pane/split', ...)`
// is typed from the string alone (the MCP SDK's trick).
import type { z } from 'zod';
import { agentMethods } from './agent';
import { appMethods } from './app';
import { awarenessMethods } from './awareness';
import { clientMethods } from './client';
import { floatingMethods } from './floating';
import { grantMethods } from './grant';
import { metricsMethods } from './metrics';
import { helloMethods } from './hello';
import { hostMethods } from './host';
import { keymapMethods } from './keymap';
import { namespaceMethods } from './namespace';
import type { Capability, MethodSpec } from './method';
import { paneMethods } from './pane';
import { plumbMethods } from './plumb';
import { ptyMethods } from './pty';
import { sessionMethods } from './session';
import { settingsMethods } from './settings';
import { stateMethods } from './snapshot';
import { stdioMethods } from './stdioAdopt';

export * from './agent';
export * from './app';
export * from './awareness';
export * from './chord';
export * from './client';
export * from './envelope';
export * from './error';
export * from './events';
export * from './floating';
export * from './grant';
export * from './metrics';
export * from './hello';
export * from './host';
export * from './ids';
export * from './keymap';
export * from './method';
export * from './model';
export * from './namespace';
export * from './pane';
export * from './plumb';
export * from './pty';
export * from './session';
export * from './settings';
export * from './snapshot';

/** Every request the server understands. */
export const methods = {
  ...helloMethods,
  ...sessionMethods,
  ...paneMethods,
  ...floatingMethods,
  ...ptyMethods,
  ...clientMethods,
  ...stdioMethods,
  ...appMethods,
  ...keymapMethods,
  ...settingsMethods,
  ...agentMethods,
  ...namespaceMethods,
  ...awarenessMethods,
  ...stateMethods,
  ...hostMethods,
  ...grantMethods,
  ...metricsMethods,
  ...plumbMethods,
} as const;

export type MethodName = keyof typeof methods;
/** What a caller may pass (defaults optional). */
export type ParamsIn<M extends MethodName> = z.input<(typeof methods)[M]['params']>;
/** What a handler receives (defaults filled). */
export type Params<M extends MethodName> = z.output<(typeof methods)[M]['params']>;
export type Result<M extends MethodName> = z.output<(typeof methods)[M]['result']>;

export function isMethodName(name: string): name is MethodName {
  return Object.prototype.hasOwnProperty.call(methods, name);
}

export function capabilityOf(name: MethodName): Capability {
  return (methods[name] as MethodSpec).cap;
}
