// The window picks a pane's body component by kind from one registry; a kind no
// component draws gets a placeholder naming the kind instead of a crash.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { BodyKindSchema } from '../../../kits/protocol/model';
import { bodies } from './index';
import { BodyRegistry, UndrawnBody, type BodyProps } from './registry';
import { TerminalBody } from './TerminalBody';

const Clock = ({ pane, kind }: BodyProps) => <div className="pane-body clock">{`${kind} body of pane ${pane}`}</div>;

describe('body registry', () => {
  it('draws a registered extra kind with its component', () => {
    const r = new BodyRegistry({ terminal: TerminalBody });
    r.register('clock', Clock);
    const Body = r.componentFor('clock');
    expect(Body).toBe(Clock);
    expect(renderToStaticMarkup(<Body pane={9} kind="clock" focused={false} />)).toBe('<div class="pane-body clock">clock body of pane 9</div>');
    expect(r.kinds()).toEqual(['terminal', 'clock']);
  });

  it('draws a kind with no component as a placeholder that names the kind', () => {
    const Body = new BodyRegistry().componentFor('hologram');
    expect(Body).toBe(UndrawnBody);
    const html = renderToStaticMarkup(<Body pane={3} kind="hologram" focused />);
    expect(html).toContain('role="note"');
    expect(html).toContain('This window has no component for a “hologram” body.');
  });

  it('draws terminal, agent and remote (a joined host\'s pane) bodies as terminals, widgets as widgets, and the text kind as a named placeholder', () => {
    expect(bodies.componentFor('terminal')).toBe(TerminalBody);
    expect(bodies.componentFor('agent')).toBe(TerminalBody);
    expect(bodies.componentFor('remote')).toBe(TerminalBody);
    expect(bodies.componentFor('widgets')).not.toBe(UndrawnBody);
    expect(bodies.componentFor('widgets')).not.toBe(TerminalBody);
    for (const kind of BodyKindSchema.options.filter((k) => k !== 'terminal' && k !== 'agent' && k !== 'remote' && k !== 'widgets')) {
      expect(bodies.componentFor(kind)).toBe(UndrawnBody);
    }
    // Every registration is a kind of the protocol's enum (kits/protocol/model.ts).
    for (const kind of bodies.kinds()) expect(BodyKindSchema.options).toContain(kind);
  });
});
