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
// guest: someone let in with an attach grant (grant/create) may call it. A read-only
//   grant is also a read-only client (the readOnly column holds too); a read-write
//   one types into and runs the words of the panes it sees, focuses and zooms them,
//   and does nothing else that writes: no programs started, no desktop reshaped,
//   no agents, hosts, state, grants or mail.
import type { MethodName } from './index';

export interface MethodAuthority {
  agent: 'access' | 'self' | 'never';
  readOnly: boolean;
  host: boolean;
  guest: boolean;
}

export const AUTHORITY: Record<Exclude<MethodName, 'hello'>, MethodAuthority> = {
  'session/new': { agent: 'access', readOnly: false, host: false, guest: false },
  'session/kill': { agent: 'access', readOnly: false, host: false, guest: false },
  'session/rename': { agent: 'access', readOnly: false, host: false, guest: false },
  'session/layout': { agent: 'never', readOnly: false, host: false, guest: false },
  'session/list': { agent: 'access', readOnly: true, host: false, guest: true },
  'session/get': { agent: 'access', readOnly: true, host: false, guest: true },
  'session/viewport': { agent: 'access', readOnly: false, host: false, guest: false },
  'session/context': { agent: 'access', readOnly: true, host: false, guest: true },
  'session/attach': { agent: 'never', readOnly: false, host: false, guest: false },
  'session/snapshot': { agent: 'access', readOnly: true, host: false, guest: true },
  'session/restore': { agent: 'access', readOnly: false, host: false, guest: false },
  'pane/list': { agent: 'access', readOnly: true, host: false, guest: true },
  'pane/get': { agent: 'access', readOnly: true, host: false, guest: true },
  'pane/geometry': { agent: 'access', readOnly: true, host: false, guest: true },
  'pane/split': { agent: 'access', readOnly: false, host: false, guest: false },
  'pane/launch': { agent: 'access', readOnly: false, host: false, guest: false },
  'pane/focus': { agent: 'access', readOnly: false, host: false, guest: true },
  'pane/resize': { agent: 'access', readOnly: false, host: false, guest: false },
  'pane/ratio': { agent: 'access', readOnly: false, host: false, guest: false },
  'pane/swap': { agent: 'access', readOnly: false, host: false, guest: false },
  'pane/move': { agent: 'never', readOnly: false, host: false, guest: false },
  'pane/close': { agent: 'access', readOnly: false, host: false, guest: false },
  'pane/restart': { agent: 'access', readOnly: false, host: false, guest: false },
  'pane/zoom': { agent: 'access', readOnly: false, host: false, guest: true },
  'pane/float': { agent: 'access', readOnly: false, host: false, guest: false },
  'pane/hide': { agent: 'access', readOnly: false, host: false, guest: false },
  'pane/tag': { agent: 'access', readOnly: false, host: false, guest: false },
  'pane/attrs': { agent: 'access', readOnly: false, host: false, guest: false },
  'pane/exec': { agent: 'access', readOnly: false, host: false, guest: true },
  'pane/input': { agent: 'access', readOnly: false, host: false, guest: true },
  'float/create': { agent: 'access', readOnly: false, host: false, guest: false },
  'float/move': { agent: 'access', readOnly: false, host: false, guest: false },
  'float/resize': { agent: 'access', readOnly: false, host: false, guest: false },
  'float/focus': { agent: 'access', readOnly: false, host: false, guest: true },
  'float/raise': { agent: 'access', readOnly: false, host: false, guest: false },
  'float/lower': { agent: 'access', readOnly: false, host: false, guest: false },
  'float/z': { agent: 'access', readOnly: false, host: false, guest: false },
  'float/layer': { agent: 'access', readOnly: false, host: false, guest: false },
  'float/visible': { agent: 'access', readOnly: false, host: false, guest: false },
  'float/close': { agent: 'access', readOnly: false, host: false, guest: false },
  'pty/attach': { agent: 'access', readOnly: true, host: false, guest: true },
  'pty/detach': { agent: 'access', readOnly: true, host: false, guest: true },
  'pty/ack': { agent: 'access', readOnly: true, host: false, guest: true },
  'pty/read': { agent: 'access', readOnly: true, host: false, guest: true },
  'pty/screen': { agent: 'access', readOnly: true, host: false, guest: true },
  'pane/wait': { agent: 'access', readOnly: true, host: false, guest: true },
  'pty/grid': { agent: 'access', readOnly: true, host: false, guest: true },
  'pty/resize': { agent: 'access', readOnly: false, host: false, guest: false },
  'events/subscribe': { agent: 'access', readOnly: true, host: false, guest: true },
  'events/unsubscribe': { agent: 'access', readOnly: true, host: false, guest: true },
  'client/list': { agent: 'access', readOnly: true, host: false, guest: true },
  'client/permission': { agent: 'never', readOnly: false, host: false, guest: false },
  'server/info': { agent: 'access', readOnly: true, host: false, guest: true },
  'server/metrics': { agent: 'access', readOnly: true, host: false, guest: false },
  'server/stop': { agent: 'access', readOnly: false, host: false, guest: false },
  'server/tls-recheck': { agent: 'never', readOnly: false, host: false, guest: false },
  'server/launch-url': { agent: 'never', readOnly: false, host: false, guest: false },
  'stdio/adopt': { agent: 'never', readOnly: false, host: false, guest: false },
  'apps/list': { agent: 'access', readOnly: true, host: false, guest: true },
  'apps/launch': { agent: 'access', readOnly: false, host: false, guest: false },
  'keymap/get': { agent: 'access', readOnly: true, host: false, guest: true },
  'settings/get': { agent: 'access', readOnly: true, host: false, guest: true },
  'agent/list': { agent: 'self', readOnly: true, host: false, guest: true },
  'agent/get': { agent: 'self', readOnly: true, host: false, guest: true },
  'agent/add': { agent: 'access', readOnly: false, host: false, guest: false },
  'agent/remove': { agent: 'access', readOnly: false, host: false, guest: false },
  'agent/access': { agent: 'self', readOnly: true, host: false, guest: true },
  'agent/plan': { agent: 'self', readOnly: false, host: false, guest: false },
  'agent/mail': { agent: 'access', readOnly: false, host: false, guest: false },
  'agent/inbox': { agent: 'self', readOnly: false, host: false, guest: false },
  'agent/hook': { agent: 'self', readOnly: false, host: false, guest: false },
  'agent/write': { agent: 'self', readOnly: false, host: false, guest: false },
  'agent/launch': { agent: 'access', readOnly: false, host: false, guest: false },
  'agent/open': { agent: 'access', readOnly: false, host: false, guest: false },
  'agent/diff': { agent: 'access', readOnly: true, host: false, guest: false },
  'agent/review': { agent: 'access', readOnly: false, host: false, guest: false },
  'agent/worktree-remove': { agent: 'access', readOnly: false, host: false, guest: false },
  'ns/list': { agent: 'access', readOnly: true, host: false, guest: true },
  'ns/stat': { agent: 'access', readOnly: true, host: false, guest: true },
  'ns/open': { agent: 'access', readOnly: true, host: false, guest: true },
  'ns/close': { agent: 'access', readOnly: true, host: false, guest: true },
  'ns/read': { agent: 'access', readOnly: true, host: false, guest: true },
  'ns/write': { agent: 'access', readOnly: false, host: false, guest: false },
  'awareness/prompt': { agent: 'access', readOnly: false, host: false, guest: false },
  'awareness/tool': { agent: 'access', readOnly: false, host: false, guest: false },
  'awareness/agents': { agent: 'access', readOnly: true, host: false, guest: true },
  'awareness/claim': { agent: 'access', readOnly: false, host: false, guest: false },
  'awareness/release': { agent: 'access', readOnly: false, host: false, guest: false },
  'awareness/claims': { agent: 'access', readOnly: true, host: false, guest: true },
  'awareness/check': { agent: 'access', readOnly: true, host: false, guest: true },
  'awareness/message': { agent: 'access', readOnly: false, host: false, guest: false },
  'awareness/inbox': { agent: 'access', readOnly: false, host: false, guest: false },
  'awareness/messages': { agent: 'access', readOnly: false, host: false, guest: false },
  'awareness/predictions': { agent: 'access', readOnly: true, host: false, guest: true },
  'awareness/notices': { agent: 'access', readOnly: false, host: false, guest: false },
  'awareness/resolve': { agent: 'access', readOnly: false, host: false, guest: false },
  'awareness/handoff': { agent: 'access', readOnly: false, host: false, guest: false },
  'awareness/delegate': { agent: 'access', readOnly: true, host: false, guest: true },
  'awareness/context': { agent: 'access', readOnly: false, host: false, guest: false },
  'state/generations': { agent: 'access', readOnly: true, host: false, guest: true },
  'state/save': { agent: 'access', readOnly: false, host: false, guest: false },
  'state/restore': { agent: 'access', readOnly: false, host: false, guest: false },
  'host/list': { agent: 'access', readOnly: true, host: false, guest: true },
  'host/connect': { agent: 'access', readOnly: false, host: false, guest: false },
  'host/show': { agent: 'access', readOnly: false, host: false, guest: false },
  'host/disconnect': { agent: 'access', readOnly: false, host: false, guest: false },
  // A plumbed message's actions run as the caller (its .access bounds the pane it names and what a rule starts); a guest clicks nothing into action.
  'plumb/send': { agent: 'access', readOnly: false, host: false, guest: false },
  'plumb/test': { agent: 'access', readOnly: true, host: false, guest: false },
  'plumb/rules': { agent: 'access', readOnly: true, host: false, guest: false },
  'grant/create': { agent: 'access', readOnly: false, host: false, guest: false },
  'grant/list': { agent: 'access', readOnly: false, host: false, guest: false },
  'grant/revoke': { agent: 'access', readOnly: false, host: false, guest: false },
};

/** Why these are the person's alone (the refusal names it). */
export const PERSON_ONLY_REASON: Partial<Record<MethodName, string>> = {
  'stdio/adopt': 'takes over the caller’s pipes as the person',
  'server/launch-url': 'mints a window token with the person’s rights',
  'client/permission': 'changes what other clients may do',
  'server/tls-recheck': 'the person’s TLS door',
  'session/attach': 'changes what the person’s windows show, or mints a window token',
  'session/layout': 'rearranges every tile of the person’s session',
  'pane/move': 'moves a pane between the person’s sessions',
};

/**
 * Events that carry mail or messages (who wrote whom, subjects, words typed to an
 * agent): never sent to a read-only client, which sees screens and the rest.
 */
export const PRIVATE_EVENTS: ReadonlySet<string> = new Set(['agent/mailed', 'agent/said', 'awareness/messaged']);

export function authorityOf(method: MethodName): MethodAuthority | undefined {
  return method === 'hello' ? undefined : AUTHORITY[method];
}
