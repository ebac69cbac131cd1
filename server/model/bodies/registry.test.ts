// The body registry is the one place the server chooses by body kind: every
// kind of the protocol's enum has its provider, and nothing else gets one.
import { describe, expect, it } from 'vitest';
import { PaneFault } from '../../../kits/protocol/error';
import { BodyKindSchema, type BodyKind, type Pane } from '../../../kits/protocol/model';
import { vocabularyFor } from '../vocabulary';
import type { BodyIO } from './provider';
import { bodyOf } from './registry';

const pane = (kind: BodyKind): Pane => ({
  n: 7, uuid: '00000000-0000-4000-8000-000000000007', host: 'h', session: '00000000-0000-4000-8000-000000000000', signature: `com.pane.${kind}`,
  kind, tag: { name: 'x', commands: [], user: '' }, vocabulary: [],
  owner: 'u', cwd: '/', launch: null, pid: null, pgid: null, state: 'running', exit: null, cols: 80, rows: 24, attrs: {}, createdAt: 0,
});

/** A BodyIO that records what a provider asked of it. */
function recordingIO() {
  const asked: string[] = [];
  const io: BodyIO = {
    screen: async (p) => (asked.push(`screen ${p.n}`), Buffer.from('screen\n')),
    text: (p) => (asked.push(`text ${p.n}`), Buffer.from('held')),
    appendText: (p, d) => void asked.push(`append ${p.n} ${d.toString()}`),
    refuse: (hint) => {
      asked.push(`refuse ${hint}`);
      throw new Error(hint);
    },
    widget: (p) => (asked.push(`widget ${p.n}`), { type: 'column', children: [{ type: 'text', label: 'Panes', bind: { path: '/server/stats', as: 'kv', pick: 'panes' } }] }),
    readPath: async (path) => (asked.push(`read ${path}`), 'panes 3\nclients 1\n'),
  };
  return { io, asked };
}

describe('body registry', () => {
  it('has a provider for every body kind of the protocol, each serving its own kind', () => {
    for (const kind of BodyKindSchema.options) expect(bodyOf(kind).kind).toBe(kind);
  });

  it('answers a kind no provider serves with a typed failure naming the kind', () => {
    const ask = () => bodyOf('hologram' as BodyKind);
    expect(ask).toThrow(PaneFault);
    expect(ask).toThrow(/no body provider for kind "hologram" \(known: terminal, agent, text, widgets, remote\)/);
    // Names on Object.prototype are not providers.
    expect(() => bodyOf('toString' as BodyKind)).toThrow(/no body provider for kind "toString"/);
  });

  it('runs a program only for terminal and agent bodies', () => {
    expect(BodyKindSchema.options.filter((k) => bodyOf(k).runsProgram)).toEqual(['terminal', 'agent']);
  });

  it('marks only the agent body as an agent, whose stand-in shell is a plain terminal', () => {
    expect(BodyKindSchema.options.filter((k) => bodyOf(k).agent)).toEqual(['agent']);
    expect(Object.fromEntries(BodyKindSchema.options.map((k) => [k, bodyOf(k).shellKind]))).toEqual({ terminal: 'terminal', agent: 'terminal', text: 'text', widgets: 'widgets', remote: 'remote' });
  });

  it('gives each kind its words on top of the common ones', () => {
    const names = (k: BodyKind) => vocabularyFor(k).map((c) => c.name);
    expect(names('terminal')).toEqual(expect.arrayContaining(['close', 'zoom', 'focus', 'restart', 'interrupt', 'send']));
    expect(names('agent')).toEqual(expect.arrayContaining(['finger', 'mail', 'write', 'plan', 'access', 'restart', 'send']));
    expect(names('agent').filter((n) => n === 'focus' || n === 'interrupt')).toEqual(['focus', 'interrupt']);
    expect(names('text')).not.toContain('restart');
    expect(names('widgets')).toEqual(names('text'));
  });

  it('serves the body file through the provider: screen, held text, the widget tree as text', async () => {
    const { io, asked } = recordingIO();
    expect((await bodyOf('terminal').read(io, pane('terminal'), 0)).toString()).toBe('screen\n');
    expect((await bodyOf('text').read(io, pane('text'), 0)).toString()).toBe('held');
    expect((await bodyOf('widgets').read(io, pane('widgets'), 0)).toString()).toBe('column\n  text Panes: 3\n');
    await bodyOf('text').write(io, pane('text'), Buffer.from('more'));
    await expect(bodyOf('terminal').write(io, pane('terminal'), Buffer.from('ls'))).rejects.toThrow('write to /7/input');
    await expect(bodyOf('widgets').write(io, pane('widgets'), Buffer.from('x'))).rejects.toThrow('a widget pane has no writable body');
    expect(asked).toEqual(['screen 7', 'text 7', 'widget 7', 'read /server/stats', 'append 7 more', 'refuse its body is the terminal screen; write to /7/input to type into it', 'refuse a widget pane has no writable body; its actions are its words (/N/ctl)']);
  });
});
