// The agent part of a tag, rendered from attrs alone: nothing for a plain pane; the
// state badge with since-when in its label; unread, topics (cut) and the warning.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { Pane } from '../../../kits/protocol/model';
import { AgentTag, shortTopics, sinceText } from './AgentTag';

const pane = (attrs: Record<string, string>): Pane => ({
  n: 4, uuid: '00000000-0000-4000-8000-000000000004', host: 'h', session: '00000000-0000-4000-8000-000000000000', signature: 'com.pane.ai.agent.ada',
  kind: 'agent', tag: { name: 'ada', commands: [], user: '' }, vocabulary: [],
  owner: 'u', cwd: '/', launch: null, pid: 1, pgid: 1, state: 'running', exit: null, cols: 80, rows: 24, attrs, createdAt: 0,
});

describe('AgentTag', () => {
  it('draws nothing on a pane that is not an agent', () => {
    expect(renderToStaticMarkup(<AgentTag pane={pane({ quadrant: 'left' })} />)).toBe('');
  });

  it('labels the state badge with the state and since-when', () => {
    const since = String(Date.now() - 3 * 60_000);
    const html = renderToStaticMarkup(<AgentTag pane={pane({ agent: 'ada', 'agent.state': 'waiting', 'agent.since': since, 'agent.state-source': 'observed' })} />);
    expect(html).toContain('class="agent-state agent-state-waiting"');
    expect(html).toMatch(/aria-label="agent ada needs you \(observed\) since .*\(3 min ago\)"/);
    expect(html).toMatch(/>needs you<\/span>/);
    expect(renderToStaticMarkup(<AgentTag pane={pane({ agent: 'ada', 'agent.state': 'done' })} />)).toMatch(/class="agent-state agent-state-done"[^>]*>done</);
  });

  it('shows unread mail, cut topics with all of them in the tooltip, and the convergence warning', () => {
    const topics = 'authentication, jwt, sessions, cookies, middleware';
    const html = renderToStaticMarkup(
      <AgentTag pane={pane({ agent: 'ada', 'agent.state': 'working', 'agent.unread': '2', 'awareness.topics': topics, 'awareness.converge': 'bob (bottom-right): auth, jwt' })} />,
    );
    expect(html).toContain('aria-label="2 unread mail"');
    expect(html).toContain(`title="topics: ${topics}"`);
    expect(html).toContain('>authentication, jwt, sessions +2<');
    expect(html).toContain('>⚠ converges with bob (bottom-right): auth, jwt<');
  });

  it('says nothing of since-when it cannot read', () => {
    expect(sinceText(undefined)).toBe('');
    expect(sinceText('junk')).toBe('');
  });
});

describe('shortTopics', () => {
  it('keeps whole topics and counts the rest', () => {
    expect(shortTopics('auth, jwt')).toBe('auth, jwt');
    expect(shortTopics('a, b, c', 4)).toBe('a, b +1');
    expect(shortTopics('averyveryverylongtopicname', 8)).toBe('averyve…');
  });
});
