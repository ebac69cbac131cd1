// The widgets body (issue 37): a tree of components from its app file's `widget`,
// drawn by the window (renderer/src/bodies/WidgetBody.tsx). No program runs in it.
// Its body file is the tree as text — each component a line, bound values read as
// the reader reads them — so `cat /pane/N/body`, an agent and a screen reader get
// what the window shows. Not writable: actions are words and ctl writes.
import { MAX_WIDGET_ROWS, walkWidget, type Binding, type WidgetNode } from '../../../kits/protocol/widget';
import { shown, shownKeepingTabs } from '../../../kits/protocol/shown';
import { boundPath, itemText, parseBound, pickField, rowsOf, shownValue, type Bound } from '../../../kits/protocol/widgetValues';
import type { BodyIO, BodyProvider } from './provider';

/** Rows of a table or list the body text shows (the window shows up to MAX_WIDGET_ROWS). */
export const WIDGET_TEXT_ROWS = 50;

async function readBound(io: BodyIO, b: Binding, attrs: Readonly<Record<string, string>>, cache: Map<string, Promise<string>>): Promise<Bound> {
  const at = boundPath(b.path, attrs);
  if (!at.ok) return at;
  // A body is not read into a widget's text: a widget bound to its own body (or two to each
  // other's) would read itself without end. The window reads and shows it; the text names it.
  if (/\/body$/.test(at.path)) return { ok: false, error: `${at.path}: a body is shown in the window, not read into a widget's text` };
  try {
    let text = cache.get(at.path);
    if (!text) cache.set(at.path, (text = io.readPath(at.path)));
    return parseBound(b, await text);
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}

/** One line per component, indented by depth; bound values read now. */
export async function widgetText(io: BodyIO, root: WidgetNode, attrs: Readonly<Record<string, string>> = {}): Promise<string> {
  const cache = new Map<string, Promise<string>>();
  const out: string[] = [];
  for (const { node, depth } of walkWidget(root)) {
    const pad = '  '.repeat(depth);
    const head = `${pad}${node.type}${node.label ? ` ${node.label}` : ''}`;
    if (!('bind' in node) || node.bind === undefined) {
      const lit = 'text' in node && typeof node.text === 'string' ? `: ${node.text.split('\n').join(`\n${pad}  `)}` : '';
      const extra = node.type === 'terminal' ? `: pane ${node.pane}` : node.type === 'button' || node.type === 'input' || node.type === 'select' ? ' (action)' : '';
      out.push(head + lit + extra);
      continue;
    }
    const v = await readBound(io, node.bind, attrs, cache);
    if (!v.ok) {
      out.push(`${head}: [${shown(v.error)}]`);
      continue;
    }
    if (node.type === 'table' || node.type === 'list' || node.type === 'log') {
      const rows = node.type === 'log' ? rowsOf(shownValue(v.value).split('\n').filter((l) => l !== '').slice(-Math.min(node.lines, WIDGET_TEXT_ROWS))) : rowsOf(v.value);
      out.push(`${head}: ${rows.length} row${rows.length === 1 ? '' : 's'}`);
      if (node.type === 'table') out.push(`${pad}  ${node.columns.map((c) => c.title).join('\t')}`);
      for (const r of rows.slice(0, Math.min(WIDGET_TEXT_ROWS, MAX_WIDGET_ROWS))) {
        // Values are others' words (agents' prompts, hosts' names, a log's lines): escaped, so no reader's terminal runs them (a cell's tab too: it would shift the columns).
        const line = node.type === 'table' ? node.columns.map((c) => shown(shownValue(pickField(r, c.field)))).join('\t') : node.type === 'list' ? shown(itemText(node.item, r)) : shownKeepingTabs(shownValue(r['value']));
        out.push(`${pad}  ${line}`);
      }
      continue;
    }
    const value = shownValue(v.value).split('\n').map(shownKeepingTabs).join(`\n${pad}  `);
    out.push(`${head}: ${value}${'unit' in node && node.unit ? ` ${node.unit}` : ''}`);
  }
  return out.join('\n') + '\n';
}

export const widgetsBody: BodyProvider<'widgets'> = {
  kind: 'widgets',
  runsProgram: false,
  agent: false,
  standIn: false,
  shellKind: 'widgets',
  vocabulary: (common) => [...common],
  read: async (io, pane, offset) => {
    const tree = io.widget(pane);
    const text = tree ? await widgetText(io, tree, pane.attrs) : `no widget: the app file of pane ${pane.n} (${pane.attrs['app'] ?? 'none'}) is gone or has no widget\n`;
    return Buffer.from(text, 'utf8').subarray(offset);
  },
  write: async (io) => io.refuse('a widget pane has no writable body; its actions are its words (/N/ctl)'),
};
