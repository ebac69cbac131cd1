// Component test of layout drawing: the Workspace rendered from a store holding a
// server snapshot shows one region per tiled pane, placed where the server's
// placements say (cells × the cell size), a separator per split, and a tag toolbar.
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { placements } from '../../../kits/layout/geometry';
import type { Pane, Session } from '../../../kits/protocol/model';
import { store } from '../store';
import { Workspace } from './Workspace';

const pane = (n: number, name: string, attrs: Record<string, string> = {}): Pane => ({
  n, uuid: `00000000-0000-4000-8000-00000000000${n}`, host: 'h', session: '00000000-0000-4000-8000-000000000000', signature: 'com.pane.terminal',
  kind: 'terminal', tag: { name, commands: [], user: n === 2 ? 'make test' : '' },
  vocabulary: [{ name: 'close', doc: 'Close', args: [], inTag: true }, { name: 'zoom', doc: 'Zoom', args: [], inTag: true }, { name: 'send', doc: 'Send', args: [] }],
  owner: 'u', cwd: '/', launch: null, pid: 1, pgid: 1, state: 'running', exit: null, cols: 80, rows: 24, attrs, createdAt: 0,
});

const bare: Omit<Session, 'placements'> = {
  id: '00000000-0000-4000-8000-000000000000', name: 'main', host: 'h', createdAt: 0, focused: 2, zoomed: null,
  viewport: { cols: 160, rows: 48 }, floating: [],
  layout: { type: 'split', direction: 'horizontal', ratio: 40, a: { type: 'leaf', pane: 1 }, b: { type: 'split', direction: 'vertical', ratio: 25, a: { type: 'leaf', pane: 2 }, b: { type: 'leaf', pane: 3 } } },
};
/** As the server sends it: with its placements. */
const session: Session = { ...bare, placements: placements(bare) };

let html = '';
beforeAll(() => {
  store.getState().applySnapshot({ rev: 1, host: 'h', sessions: [session], panes: [pane(1, 'build', { quadrant: 'left' }), pane(2, 'agent'), pane(3, 'logs')] });
  store.getState().setConn({ state: 'open' });
  store.getState().setCell({ w: 8, h: 16 });
  // Static rendering reads zustand's "server snapshot", which is the initial state; point it at the live one.
  store.getInitialState = store.getState;
  html = renderToStaticMarkup(<Workspace />);
});

describe('Workspace', () => {
  it('draws one region per tiled pane, named by its tag', () => {
    const regions = [...html.matchAll(/<section[^>]*role="region"[^>]*aria-label="([^"]*)"/g)].map((m) => m[1]);
    expect(regions).toEqual(['build', 'agent — make test', 'logs']);
  });

  it('places tiles at the cells the server placed them in, times the cell size', () => {
    // 160×48 cells of 8×16 px: 64 columns and 160 - 64 = 96 beside; 12 rows above 36.
    expect(html).toContain('left:0;top:0;width:512px;height:768px');
    expect(html).toContain('left:512px;top:0;width:768px;height:192px');
    expect(html).toContain('left:512px;top:192px;width:768px;height:576px');
  });

  it('draws a separator per split carrying its ratio', () => {
    const seps = [...html.matchAll(/role="separator"[^>]*aria-valuenow="(\d+)"/g)].map((m) => Number(m[1]));
    expect(seps.sort()).toEqual([25, 40]);
  });

  it('marks the focused pane and gives each a toolbar of its tag words', () => {
    expect(html).toMatch(/class="pane focused"[^>]*aria-label="agent — make test"/);
    expect((html.match(/role="toolbar"/g) ?? []).length).toBe(3);
    expect(html).toContain('>close</button>');
    expect(html).not.toContain('>send</button>');
    expect(html).toContain('aria-label="quadrant left"');
  });

  it('draws only the zoomed pane while zoomed', () => {
    const z = { ...bare, focused: 3, zoomed: 3 };
    store.getState().applyEvent('layout/changed', { session: { ...z, placements: placements(z) } }, 2);
    const zoomed = renderToStaticMarkup(<Workspace />);
    expect((zoomed.match(/role="region"/g) ?? []).length).toBe(1);
    expect(zoomed).toContain('left:0;top:0;width:1280px;height:768px');
    expect(zoomed).not.toContain('role="separator"');
  });
});
