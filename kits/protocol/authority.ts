// The principal table: for every method of the protocol, what each kind of
// principal may do with it. The dispatcher reads it on every request, whatever
// door the request came through (server/handlers/registry.ts), so a door added
// later inherits the rule instead of keeping a list of its own; a method added
// without a row does not compile (the Record below), and test/security/
// principalTable.test.ts walks every method for every principal. docs/authority.md
// is generated from it (npm run docs).
//
// The person may call every method (its capability checked as for any client).
//
// agent:
//   access  its .access decides (capabilities, commands, panes, namespace paths)
//   self    the handler lets an agent act only on itself (its plan, its inbox, its hooks)
//   never   the person's alone, whatever an .access says
// readOnly: a client without the write capability (or whose writing was revoked)
//   may call it. A read-only viewer sees screens and events, never mail or messages.
// host: a joined host's link may cause it here. A host's link makes no request of
//   this server: its panes, words and events are shown as its own (HOST:N), never
//   run here, so every row is false.
import type { MethodName } from './index';

export interface MethodAuthority {
  agent: 'access' | 'self' | 'never';
  readOnly: boolean;
  host: boolean;
}

export const AUTHORITY: Record<Exclude<MethodName, 'hello'>, MethodAuthority> = {
  'session/new': { agent: 'access', readOnly: false, host: false },
  'session/kill': { agent: 'access', readOnly: false, host: false },
  'session/rename': { agent: 'access', readOnly: false, host: false },
  'session/list': { agent: 'access', readOnly: true, host: false },
  'session/get': { agent: 'access', readOnly: true, host: false },
  'session/viewport': { agent: 'access', readOnly: false, host: false },
  'session/snapshot': { agent: 'access', readOnly: true, host: false },
  'session/restore': { agent: 'access', readOnly: false, host: false },
  'pane/list': { agent: 'access', readOnly: true, host: false },
  'pane/get': { agent: 'access', readOnly: true, host: false },
  'pane/geometry': { agent: 'access', readOnly: true, host: false },
  'pane/split': { agent: 'access', readOnly: false, host: false },
  'pane/launch': { agent: 'access', readOnly: false, host: false },
  'pane/focus': { agent: 'access', readOnly: false, host: false },
  'pane/resize': { agent: 'access', readOnly: false, host: false },
  'pane/ratio': { agent: 'access', readOnly: false, host: false },
  'pane/swap': { agent: 'access', readOnly: false, host: false },
  'pane/close': { agent: 'access', readOnly: false, host: false },
  'pane/restart': { agent: 'access', readOnly: false, host: false },
  'pane/zoom': { agent: 'access', readOnly: false, host: false },
  'pane/float': { agent: 'access', readOnly: false, host: false },
  'pane/tag': { agent: 'access', readOnly: false, host: false },
  'pane/attrs': { agent: 'access', readOnly: false, host: false },
  'pane/exec': { agent: 'access', readOnly: false, host: false },
  'pane/input': { agent: 'access', readOnly: false, host: false },
  'float/create': { agent: 'access', readOnly: false, host: false },
  'float/move': { agent: 'access', readOnly: false, host: false },
  'float/resize': { agent: 'access', readOnly: false, host: false },
  'float/focus': { agent: 'access', readOnly: false, host: false },
  'float/raise': { agent: 'access', readOnly: false, host: false },
  'float/lower': { agent: 'access', readOnly: false, host: false },
  'float/z': { agent: 'access', readOnly: false, host: false },
  'float/layer': { agent: 'access', readOnly: false, host: false },
  'float/visible': { agent: 'access', readOnly: false, host: false },
  'float/close': { agent: 'access', readOnly: false, host: false },
  'pty/attach': { agent: 'access', readOnly: true, host: false },
  'pty/detach': { agent: 'access', readOnly: true, host: false },
  'pty/ack': { agent: 'access', readOnly: true, host: false },
  'pty/read': { agent: 'access', readOnly: true, host: false },
  'pty/screen': { agent: 'access', readOnly: true, host: false },
  'pty/resize': { agent: 'access', readOnly: false, host: false },
  'events/subscribe': { agent: 'access', readOnly: true, host: false },
  'events/unsubscribe': { agent: 'access', readOnly: true, host: false },
  'client/list': { agent: 'access', readOnly: true, host: false },
  'client/permission': { agent: 'never', readOnly: false, host: false },
  'server/info': { agent: 'access', readOnly: true, host: false },
  'server/stop': { agent: 'access', readOnly: false, host: false },
  'server/tls-recheck': { agent: 'never', readOnly: false, host: false },
  'server/launch-url': { agent: 'never', readOnly: false, host: false },
  'stdio/adopt': { agent: 'never', readOnly: false, host: false },
  'apps/list': { agent: 'access', readOnly: true, host: false },
  'apps/launch': { agent: 'access', readOnly: false, host: false },
  'keymap/get': { agent: 'access', readOnly: true, host: false },
  'settings/get': { agent: 'access', readOnly: true, host: false },
  'agent/list': { agent: 'self', readOnly: true, host: false },
  'agent/get': { agent: 'self', readOnly: true, host: false },
  'agent/add': { agent: 'access', readOnly: false, host: false },
  'agent/remove': { agent: 'access', readOnly: false, host: false },
  'agent/access': { agent: 'self', readOnly: true, host: false },
  'agent/plan': { agent: 'self', readOnly: false, host: false },
  'agent/mail': { agent: 'access', readOnly: false, host: false },
  'agent/inbox': { agent: 'self', readOnly: false, host: false },
  'agent/hook': { agent: 'self', readOnly: false, host: false },
  'agent/write': { agent: 'self', readOnly: false, host: false },
  'agent/launch': { agent: 'access', readOnly: false, host: false },
  'agent/open': { agent: 'access', readOnly: false, host: false },
  'agent/worktree-remove': { agent: 'access', readOnly: false, host: false },
  'ns/list': { agent: 'access', readOnly: true, host: false },
  'ns/stat': { agent: 'access', readOnly: true, host: false },
  'ns/open': { agent: 'access', readOnly: true, host: false },
  'ns/close': { agent: 'access', readOnly: true, host: false },
  'ns/read': { agent: 'access', readOnly: true, host: false },
  'ns/write': { agent: 'access', readOnly: false, host: false },
  'awareness/prompt': { agent: 'access', readOnly: false, host: false },
  'awareness/tool': { agent: 'access', readOnly: false, host: false },
  'awareness/agents': { agent: 'access', readOnly: true, host: false },
  'awareness/claim': { agent: 'access', readOnly: false, host: false },
  'awareness/release': { agent: 'access', readOnly: false, host: false },
  'awareness/claims': { agent: 'access', readOnly: true, host: false },
  'awareness/check': { agent: 'access', readOnly: true, host: false },
  'awareness/message': { agent: 'access', readOnly: false, host: false },
  'awareness/inbox': { agent: 'access', readOnly: false, host: false },
  'awareness/messages': { agent: 'access', readOnly: false, host: false },
  'awareness/predictions': { agent: 'access', readOnly: true, host: false },
  'awareness/notices': { agent: 'access', readOnly: false, host: false },
  'awareness/resolve': { agent: 'access', readOnly: false, host: false },
  'awareness/handoff': { agent: 'access', readOnly: false, host: false },
  'awareness/delegate': { agent: 'access', readOnly: true, host: false },
  'awareness/context': { agent: 'access', readOnly: false, host: false },
  'state/generations': { agent: 'access', readOnly: true, host: false },
  'state/save': { agent: 'access', readOnly: false, host: false },
  'state/restore': { agent: 'access', readOnly: false, host: false },
  'host/list': { agent: 'access', readOnly: true, host: false },
  'host/connect': { agent: 'access', readOnly: false, host: false },
  'host/show': { agent: 'access', readOnly: false, host: false },
  'host/disconnect': { agent: 'access', readOnly: false, host: false },
};

/** Why these are the person's alone (the refusal names it). */
export const PERSON_ONLY_REASON: Partial<Record<MethodName, string>> = {
  'stdio/adopt': 'takes over the caller’s pipes as the person',
  'server/launch-url': 'mints a window token with the person’s rights',
  'client/permission': 'changes what other clients may do',
  'server/tls-recheck': 'the person’s TLS door',
};

/**
 * Events that carry mail or messages (who wrote whom, subjects, words typed to an
 * agent): never sent to a read-only client, which sees screens and the rest.
 */
export const PRIVATE_EVENTS: ReadonlySet<string> = new Set(['agent/mailed', 'agent/said', 'awareness/messaged']);

export function authorityOf(method: MethodName): MethodAuthority | undefined {
  return method === 'hello' ? undefined : AUTHORITY[method];
}
