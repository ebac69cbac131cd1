import { describe, expect, it } from 'vitest';
import type { AgentView, Prediction } from '../../../protocol/awareness';
import { awarenessLines } from './agentsPeers';

const agent = (name: string, quadrant: string, t: Partial<AgentView['trajectory']>, keyTopics: string[] = []): AgentView =>
  ({ name, label: `${name} (${quadrant})`, quadrant, keyTopics, trajectory: { deepening: [], emerging: [], fading: [], stable: [], ...t } }) as unknown as AgentView;
const pred = (a: string, b: string, confidence: number, topics: string[], type: Prediction['type'] = 'approaching'): Prediction => ({ a, b, confidence, topics, type }) as unknown as Prediction;

describe('the peers view’s awareness lines', () => {
  it('shows each agent’s trajectory by class, and whom it converges with, most confident first, once per partner', () => {
    const lines = awarenessLines(
      [agent('ada', 'top-left', { deepening: ['jwt', 'auth'], fading: ['css'] }), agent('bob', 'bottom-right', {}, ['orders']), agent('cy', 'top-right', {})],
      [pred('ada', 'bob', 0.5, ['jwt', 'auth', 'login', 'token']), pred('bob', 'ada', 0.8, ['auth'], 'mutual-deepening')],
    );
    expect(lines).toEqual([
      '  ada (top-left): deepening jwt, auth · fading css',
      '    ⚠ converges with bob (bottom-right) on auth (mutual-deepening, 80%)',
      '  bob (bottom-right): orders',
      '    ⚠ converges with ada (top-left) on auth (mutual-deepening, 80%)',
      '  cy (top-right): no topics yet',
    ]);
  });
});
