// A widget pane's body (issue 37): the tree its app file declares, drawn from the
// fixed catalogue. Bound values are namespace files read by this window as whoever
// it is (ns/read), again whenever the server's state moves (its rev, at most every
// WIDGET_REFRESH_MS, sooner when reads are cheap) and on a binding's own timer; actions run as whoever clicked
// (pane/exec, ns/write) and a refusal shows where it was clicked. Every value is text
// to React — escaped, never markup — and the markdown here makes elements, never HTML.
import { valueWithUnit, withUnit } from '../ui/units';
import { createContext, memo, useContext, useEffect, useLayoutEffect, useMemo, useRef, useState, type JSX, type ReactNode, type RefObject } from 'react';
import { menuHasKeyboard, OverflowMenu } from '../components/OverflowMenu';
import { bindingKey, MAX_WIDGET_ROWS, widgetBindings, type Binding, type WidgetAction, type WidgetNode } from '../../../kits/protocol/widget';
import { actionRequest, boundPath, itemText, parseBound, pickField, rowsOf, shownValue, type Bound, type Row } from '../../../kits/protocol/widgetValues';
import { client } from '../net/client';
import { store, useApp } from '../store';
import type { BodyProps } from './registry';

/** Re-reads after a change of the server's state wait at most this long since the last: a burst of events is one read. */
export const WIDGET_REFRESH_MS = 250;
/**
 * The gap between reads after events is this many times what the last read took (a
 * 10 ms read of /agents with 100 agents: 30 ms), between a frame and WIDGET_REFRESH_MS:
 * a storm of events costs the daemon at most a quarter of its time in one widget's
 * reads, and a change after a quiet spell is drawn on the next frames (the bench's
 * event → frame; a fixed 250 ms bound held an event that followed another by 100 ms
 * back 150 ms).
 */
export const WIDGET_READ_COST_FACTOR = 3;
export const WIDGET_MIN_GAP_MS = 16;
/** Bytes of a bound file read: a table's rows, a log's tail (the rest is left unread, and said). */
export const WIDGET_READ_BYTES = 256 << 10;

type Values = ReadonlyMap<string, Bound>;
const NO_ATTRS: Readonly<Record<string, string>> = {};

/**
 * What every component of one widget shares: `refresh` reads every binding again now
 * (after an action, so its outcome shows at once); `attrs` are the widget pane's own,
 * which an action's {ATTR} may name (a row's fields come first).
 */
const Ctx = createContext<{ refresh: () => void; attrs: Readonly<Record<string, string>> }>({ refresh: () => undefined, attrs: {} });

/** Paths known to be streams (a log): read from their tail. A path is stat'ed once; a file is read from its start in one request. */
const streams = new Map<string, boolean>();

/** A bound file's text as this window may read it; a stream (a log) from its tail, a file from its start. */
async function readText(path: string): Promise<{ ok: true; text: string } | { ok: false; error: string }> {
  try {
    let stream = streams.get(path);
    let size = 0;
    if (stream === undefined || stream) {
      const st = await client.call('ns/stat', { path });
      streams.set(path, (stream = st.stream));
      size = st.size;
    }
    const offset = stream && size > WIDGET_READ_BYTES ? size - WIDGET_READ_BYTES : 0;
    const r = await client.call('ns/read', { path, offset, count: WIDGET_READ_BYTES });
    const text = r.encoding === 'base64' ? new TextDecoder().decode(Uint8Array.from(atob(r.data), (ch) => ch.charCodeAt(0))) : r.data;
    return { ok: true, text: offset > 0 ? text.slice(text.indexOf('\n') + 1) : text };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}

/** Each path read once (its {ATTR}s from the widget pane's attributes), each binding of it parsed its own way; with the text it came from (the same text is the same value: nothing redraws). */
async function readBindings(which: readonly Binding[], attrs: Readonly<Record<string, string>>): Promise<[string, Bound, string][]> {
  const resolved = which.map((b) => [b, boundPath(b.path, attrs)] as const);
  const paths = [...new Set(resolved.flatMap(([, r]) => (r.ok ? [r.path] : [])))];
  const texts = new Map(await Promise.all(paths.map(async (p) => [p, await readText(p)] as const)));
  return resolved.map(([b, r]) => {
    if (!r.ok) return [bindingKey(b), r, `!${r.error}`];
    const t = texts.get(r.path)!;
    return t.ok ? [bindingKey(b), parseBound(b, t.text), `${r.path}\n${t.text}`] : [bindingKey(b), t, `!${t.error}`];
  });
}

/** The values of a tree's bindings, read now, after each change of state (throttled) and on each binding's timer. */
function useBindings(bindings: readonly Binding[], attrs: Readonly<Record<string, string>>): { values: Values; refresh: () => void } {
  const [values, setValues] = useState<Values>(new Map());
  const rev = useApp((s) => s.rev);
  const busy = useRef(false);
  /** The text each binding's value was parsed from. */
  const seen = useRef(new Map<string, string>());
  const again = useRef(false);
  const last = useRef(0);
  /** How long after the last read the next one after an event waits (WIDGET_READ_COST_FACTOR × what it took). */
  const gap = useRef(WIDGET_MIN_GAP_MS);
  const attrsNow = useRef(attrs);
  attrsNow.current = attrs;
  const key = bindings.map(bindingKey).join('\n');

  const readAll = useMemo(() => {
    let alive = true;
    // `timed`: a binding's own timer; it does not count against the bound on reads after events.
    const run = async (which: readonly Binding[], timed = false) => {
      if (busy.current) {
        again.current = true;
        return;
      }
      busy.current = true;
      const started = performance.now();
      if (!timed) last.current = started;
      const got = await readBindings(which, attrsNow.current);
      busy.current = false;
      if (!timed) gap.current = Math.min(WIDGET_REFRESH_MS, Math.max(WIDGET_MIN_GAP_MS, WIDGET_READ_COST_FACTOR * (performance.now() - started)));
      if (!alive) return;
      const changed = got.filter(([k, , text]) => seen.current.get(k) !== text);
      for (const [k, , text] of changed) seen.current.set(k, text);
      if (changed.length > 0)
        setValues((old) => {
          const next = new Map(old);
          for (const [k, v] of changed) next.set(k, v);
          return next;
        });
      if (again.current) {
        again.current = false;
        void run(bindings);
      }
    };
    return {
      run,
      stop: () => {
        alive = false;
      },
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);

  useEffect(() => () => readAll.stop(), [readAll]);

  // Every change of the server's state: one read of every binding, a gap (what reads cost, bounded by WIDGET_REFRESH_MS) after the last.
  useEffect(() => {
    const wait = Math.max(0, gap.current - (performance.now() - last.current));
    const t = setTimeout(() => void readAll.run(bindings), wait);
    return () => clearTimeout(t);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [rev, readAll]);

  // Timed bindings (metrics, logs): their own period.
  useEffect(() => {
    const periods = [...new Set(bindings.flatMap((b) => (b.every === undefined ? [] : [b.every])))];
    const timers = periods.map((every) => setInterval(() => void readAll.run(bindings.filter((b) => b.every === every), true), every * 1000));
    return () => timers.forEach(clearInterval);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [readAll]);

  const refresh = useMemo(() => () => void readAll.run(bindings), [readAll]); // eslint-disable-line react-hooks/exhaustive-deps
  return { values, refresh };
}

/** Runs an action as this window's principal; the answer (done, or the refusal) is shown where it was clicked. */
async function runAction(widgetPane: number, a: WidgetAction, row: Row): Promise<string> {
  const req = actionRequest(a, row);
  if (!req.ok) return `refused: ${req.error}`;
  try {
    if (req.method === 'pane/exec') await client.call('pane/exec', { pane: req.pane ?? widgetPane, line: req.line, origin: 'widget' });
    else await client.call('ns/write', { path: req.path, data: req.data });
    return '';
  } catch (e) {
    return `refused: ${e instanceof Error ? e.message : String(e)}`;
  }
}

function actionLabel(a: WidgetAction): string {
  return a.label ?? ('run' in a ? a.run : `write ${a.write}`);
}

/** What an action answered when it was refused, where it was clicked (an alert: a screen reader says it). */
function Said({ text }: { text: string }) {
  return text ? (
    <span className="wg-refused" role="alert">
      {text}
    </span>
  ) : null;
}

/**
 * A button running an action. Its outcome shows beside it until the next click, or —
 * in a table, whose narrow actions cell would wrap it word by word — goes to `onSaid`,
 * which shows it on a line of its own under the row.
 */
function ActionButton({ pane, action, row, label, onSaid }: { pane: number; action: WidgetAction; row: Row; label?: string; onSaid?: (text: string) => void }) {
  const [said, setSaid] = useState('');
  const { refresh, attrs } = useContext(Ctx);
  return (
    <span className="wg-action">
      <button type="button" onClick={() => void runAction(pane, action, { ...attrs, ...row }).then((s) => ((onSaid ?? setSaid)(s), refresh()))}>
        {label ?? actionLabel(action)}
      </button>
      {onSaid ? null : <Said text={said} />}
    </span>
  );
}

/**
 * A row's actions behind one "…" menu in its first cell, for a table too wide for its pane:
 * at the row's end they had scrolled out of sight, and a narrow board showed agents with no
 * way to act on them. The menu's items are the actions' labels (made unique), each doc what it runs.
 */
function RowMenu({ pane, actions, row, rowName, onSaid }: { pane: number; actions: readonly WidgetAction[]; row: Row; rowName: string; onSaid: (text: string) => void }) {
  const { refresh, attrs } = useContext(Ctx);
  const labels = useMemo(() => {
    const seen = new Map<string, number>();
    return actions.map((a) => {
      const l = actionLabel(a);
      const k = (seen.get(l) ?? 0) + 1;
      seen.set(l, k);
      return k === 1 ? l : `${l} (${k})`;
    });
  }, [actions]);
  const docs = useMemo(() => new Map(labels.map((l, i) => { const a = actions[i]!; return [l, 'run' in a ? `runs ${a.run}` : `writes ${a.write}`]; })), [labels, actions]);
  return (
    <OverflowMenu
      words={labels}
      docs={docs}
      paneName={rowName}
      label={`actions for ${rowName}`}
      onRun={(w) => {
        const a = actions[labels.indexOf(w)];
        if (a) void runAction(pane, a, { ...attrs, ...row }).then((said) => (onSaid(said), refresh()));
      }}
    />
  );
}

/**
 * How far a component folds to fit its pane's width: level 0 as written, each next level
 * narrower, the last always taken. The width a level needs is `content`'s scrollWidth,
 * measured while that level is shown and kept while a narrower one is (folding narrows the
 * content, so measuring it then would unfold it again); a level not measured yet is tried.
 * `box` is what always stands at the pane's width, whatever the level.
 */
function useFoldLevel(box: RefObject<HTMLElement | null>, content: RefObject<HTMLElement | null>, levels: number, rows: number): number {
  const [level, setLevel] = useState(0);
  const needed = useRef<number[]>([]);
  useLayoutEffect(() => {
    const el = box.current;
    if (levels <= 1 || !el) return;
    const check = () => {
      const c = content.current;
      if (c && level < levels - 1) needed.current[level] = c.scrollWidth;
      const room = el.clientWidth + 1;
      let next = 0;
      while (next < levels - 1 && needed.current[next] !== undefined && needed.current[next]! > room) next++;
      if (next !== level) setLevel(next);
    };
    check();
    const ro = new ResizeObserver(check);
    ro.observe(el);
    if (content.current) ro.observe(content.current);
    return () => ro.disconnect();
  }, [box, content, levels, level, rows]);
  return Math.min(level, Math.max(0, levels - 1));
}

/** One row of a table; drawn again only when its row's text changes (a board of 100 agents redraws the one that moved). */
const TableRow = memo(
  function TableRow({ row, node, pane, onSaid, folded }: { row: Row; rowText: string; node: Extract<WidgetNode, { type: 'table' }>; pane: number; onSaid: (text: string) => void; folded: boolean }) {
    const first = node.columns[0];
    return (
      <tr>
        {folded && node.actions?.length ? (
          <td className="wg-row-menu">
            <RowMenu pane={pane} actions={node.actions} row={row} rowName={first ? shownValue(pickField(row, first.field)) : 'this row'} onSaid={onSaid} />
          </td>
        ) : null}
        {node.columns.map((c) => (
          <td key={c.field} data-field={c.field} className={c.unit ? 'wg-num' : undefined}>
            {valueWithUnit(pickField(row, c.field), c.unit, shownValue)}
          </td>
        ))}
        {node.actions?.length && !folded ? (
          <td className="wg-actions">
            {node.actions.map((a, j) => (
              <ActionButton key={j} pane={pane} action={a} row={row} onSaid={onSaid} />
            ))}
          </td>
        ) : null}
      </tr>
    );
  },
  (a, b) => a.rowText === b.rowText && a.node === b.node && a.pane === b.pane && a.folded === b.folded,
);

/**
 * One row of a table too wide for its pane even with its actions folded, as a card: its first
 * column's value heads it (after the row's "…" menu), the others follow as title and value,
 * wrapping, those with no value left out. Sideways scrolling had hidden all but the first columns of a narrow pane's table.
 */
const CardRow = memo(
  function CardRow({ row, node, pane, onSaid }: { row: Row; rowText: string; node: Extract<WidgetNode, { type: 'table' }>; pane: number; onSaid: (text: string) => void }) {
    const [first, ...rest] = node.columns;
    const name = first ? shownValue(pickField(row, first.field)) : 'this row';
    return (
      <li>
        <div className="wg-card-head">
          {node.actions?.length ? <RowMenu pane={pane} actions={node.actions} row={row} rowName={name} onSaid={onSaid} /> : null}
          {first ? (
            <span data-field={first.field}>
              <span className="wg-card-title">{first.title} </span>
              {valueWithUnit(pickField(row, first.field), first.unit, shownValue)}
            </span>
          ) : null}
        </div>
        <dl>
          {rest.map((c) => {
            // A field with no value takes no line of its own here (a terminal's agent, a prompt not given yet).
            const v = valueWithUnit(pickField(row, c.field), c.unit, shownValue);
            return v === '' ? null : (
              <div key={c.field} className="wg-pair">
                <dt>{c.title}</dt>
                <dd data-field={c.field} className={c.unit ? 'wg-num' : undefined}>
                  {v}
                </dd>
              </div>
            );
          })}
        </dl>
      </li>
    );
  },
  (a, b) => a.rowText === b.rowText && a.node === b.node && a.pane === b.pane,
);

/**
 * A table: its rows, and under it what the last action clicked in it answered, whole and in
 * view (a narrow actions cell would wrap it word by word). Narrower than the table, the pane
 * gets each row's actions in a "…" menu at its start; narrower still, each row as a card.
 * Only a single column wider than the pane scrolls sideways (the region takes focus, so by
 * keyboard too).
 */
function TableWidget({ id, label, bound, value, node, pane }: { id: string; label: string | undefined; bound: Bound | undefined; value: unknown; node: Extract<WidgetNode, { type: 'table' }>; pane: number }) {
  const [said, setSaid] = useState('');
  const rows = rowsOf(value).slice(0, MAX_WIDGET_ROWS);
  const box = useRef<HTMLDivElement>(null);
  const table = useRef<HTMLTableElement>(null);
  const hasActions = (node.actions?.length ?? 0) > 0;
  // Levels: as written; actions folded (when there are any); cards (when there is more than one column).
  const kinds: ('table' | 'folded' | 'cards')[] = ['table', ...(hasActions ? (['folded'] as const) : []), ...(node.columns.length > 1 ? (['cards'] as const) : [])];
  const kind = kinds[useFoldLevel(box, table, kinds.length, rows.length)]!;
  const folded = kind !== 'table' && hasActions;
  return (
    <Framed className="wg-table" id={id} label={label} bound={bound} empty={node.empty ?? 'nothing'} count={rows.length}>
      <div ref={box}>
        {rows.length > 0 && kind === 'cards' ? (
          <ul className="wg-cards" aria-label={label}>
            {rows.map((r, k) => (
              <CardRow key={k} row={r} rowText={JSON.stringify(r)} node={node} pane={pane} onSaid={setSaid} />
            ))}
          </ul>
        ) : rows.length > 0 ? (
          <div className="wg-scroll" role="region" aria-label={`${label ?? 'table'}, scrollable`} tabIndex={0}>
            <table ref={table} aria-label={label}>
              <thead>
                <tr>
                  {folded ? (
                    <th scope="col">
                      <span className="sr-only">actions</span>
                    </th>
                  ) : null}
                  {node.columns.map((c) => (
                    <th key={c.field} scope="col" className={c.unit ? 'wg-num' : undefined}>
                      {c.title}
                    </th>
                  ))}
                  {hasActions && !folded ? <th scope="col">actions</th> : null}
                </tr>
              </thead>
              <tbody>
                {rows.map((r, k) => (
                  <TableRow key={k} row={r} rowText={JSON.stringify(r)} node={node} pane={pane} onSaid={setSaid} folded={folded} />
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </div>
      <Said text={said} />
    </Framed>
  );
}

/**
 * A list: an item a row, with its actions after its text; where an item and its buttons do
 * not fit the pane's width on one line, the actions go behind each item's "…" menu, at its
 * start (they had wrapped under the text, button by button).
 */
function ListWidget({ id, label, bound, value, node, pane }: { id: string; label: string | undefined; bound: Bound | undefined; value: unknown; node: Extract<WidgetNode, { type: 'list' }>; pane: number }) {
  const [said, setSaid] = useState('');
  const rows = rowsOf(value).slice(0, MAX_WIDGET_ROWS);
  const box = useRef<HTMLDivElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const hasActions = (node.actions?.length ?? 0) > 0;
  const folded = useFoldLevel(box, list, hasActions ? 2 : 1, rows.length) === 1;
  return (
    <Framed className="wg-list" id={id} label={label} bound={bound} empty={node.empty ?? 'nothing'} count={rows.length}>
      <div ref={box}>
        <ul ref={list} aria-label={label} className={hasActions && !folded ? 'wg-one-line' : undefined}>
          {rows.map((r, k) => {
            const text = itemText(node.item, r);
            return (
              <li key={k}>
                {folded ? <RowMenu pane={pane} actions={node.actions!} row={r} rowName={text} onSaid={setSaid} /> : null}
                <span>{text}</span>
                {folded ? null : node.actions?.map((a, j) => <ActionButton key={j} pane={pane} action={a} row={r} />)}
              </li>
            );
          })}
        </ul>
      </div>
      {folded ? <Said text={said} /> : null}
    </Framed>
  );
}

/** A bound component's frame: its heading, its value's error (or the empty note), then what it draws. */
function Framed({ className, id, label, bound, empty, count, children }: { className?: string; id: string; label?: string | undefined; bound: Bound | undefined; empty?: string | undefined; count?: number; children: ReactNode }) {
  return (
    <div className={className} data-widget={id}>
      {label ? <div className="wg-heading">{label}</div> : null}
      <Missing bound={bound} />
      {empty !== undefined && bound?.ok && count === 0 ? <div className="wg-muted">{empty}</div> : null}
      {children}
    </div>
  );
}

function Missing({ bound }: { bound: Bound | undefined }) {
  if (bound === undefined) return <span className="wg-muted">…</span>;
  return bound.ok ? null : <span className="wg-error">{bound.error}</span>;
}

/** The small markdown of a widget: headings, paragraphs, lists, `code`, **bold**, *em*, fenced code. Elements only. */
export function Markdown({ text }: { text: string }): JSX.Element {
  const blocks: ReactNode[] = [];
  const lines = text.split('\n');
  let i = 0;
  const inline = (s: string): ReactNode[] =>
    s.split(/(`[^`]+`|\*\*[^*]+\*\*|\*[^*]+\*)/).map((part, k) => {
      if (part.startsWith('`') && part.endsWith('`') && part.length > 1) return <code key={k}>{part.slice(1, -1)}</code>;
      if (part.startsWith('**') && part.endsWith('**') && part.length > 3) return <strong key={k}>{part.slice(2, -2)}</strong>;
      if (part.startsWith('*') && part.endsWith('*') && part.length > 1) return <em key={k}>{part.slice(1, -1)}</em>;
      return part;
    });
  while (i < lines.length) {
    const l = lines[i]!;
    if (l.startsWith('```')) {
      const body: string[] = [];
      for (i++; i < lines.length && !lines[i]!.startsWith('```'); i++) body.push(lines[i]!);
      i++;
      blocks.push(<pre key={blocks.length}>{body.join('\n')}</pre>);
      continue;
    }
    const h = /^(#{1,4})\s+(.*)$/.exec(l);
    if (h) {
      const level = Math.min(6, h[1]!.length + 2);
      const Tag = `h${level}` as 'h3';
      blocks.push(<Tag key={blocks.length}>{inline(h[2]!)}</Tag>);
      i++;
      continue;
    }
    if (/^\s*[-*]\s+/.test(l)) {
      const items: ReactNode[] = [];
      for (; i < lines.length && /^\s*[-*]\s+/.test(lines[i]!); i++) items.push(<li key={items.length}>{inline(lines[i]!.replace(/^\s*[-*]\s+/, ''))}</li>);
      blocks.push(<ul key={blocks.length}>{items}</ul>);
      continue;
    }
    if (l.trim() === '') {
      i++;
      continue;
    }
    const para: string[] = [];
    for (; i < lines.length && lines[i]!.trim() !== '' && !/^(#{1,4}\s|```|\s*[-*]\s)/.test(lines[i]!); i++) para.push(lines[i]!);
    blocks.push(<p key={blocks.length}>{inline(para.join(' '))}</p>);
  }
  return <div className="wg-markdown">{blocks}</div>;
}

/** A number's recent history as a line (the window keeps it: MAX_SPARK_POINTS at most). */
/** The grid's gap (styles.css .wg-grid), which the columns' widths leave room for. */
const GRID_GAP_PX = 10;
/** Narrowest column before a grid puts fewer side by side: a label and a figure such as "107.5 MiB". */
const GRID_MIN_COLUMN_PX = 110;

/**
 * A grid's columns: the file's count where the pane has room, fewer (wrapping onto more
 * rows) where each would be under GRID_MIN_COLUMN_PX, so a narrow pane's figures are
 * not cut to "107.5" or "client".
 */
function gridColumns(n: number): string {
  return `repeat(auto-fill, minmax(max(${GRID_MIN_COLUMN_PX}px, calc((100% - ${(n - 1) * GRID_GAP_PX}px) / ${n})), 1fr))`;
}

function Spark({ id, label, value, points, unit, tall }: { id: string; label: string; value: number | undefined; points: number; unit?: string | undefined; tall: boolean }) {
  const hist = useRef<number[]>([]);
  const lastSeen = useRef<number | undefined>(undefined);
  if (value !== undefined && value !== lastSeen.current) {
    hist.current = [...hist.current, value].slice(-points);
    lastSeen.current = value;
  }
  const h = tall ? 80 : 24;
  const w = 160;
  const xs = hist.current;
  const lo = Math.min(...xs, 0);
  const hi = Math.max(...xs, 1);
  const d = xs.map((v, k) => `${k === 0 ? 'M' : 'L'}${((k / Math.max(1, points - 1)) * w).toFixed(1)},${(h - ((v - lo) / (hi - lo || 1)) * (h - 2) - 1).toFixed(1)}`).join(' ');
  const shown = value === undefined ? '—' : withUnit(value, unit);
  return (
    <div className={tall ? 'wg-chart' : 'wg-spark'} data-widget={id}>
      <span className="wg-label">{label}</span>
      {/* Stretched to the room its cell has (a grid of three in a narrow pane), never over its neighbours. */}
      <svg role="img" aria-label={`${label}: ${shown}`} width={w} height={h} viewBox={`0 0 ${w} ${h}`} preserveAspectRatio="none">
        <path d={d} fill="none" stroke="currentColor" strokeWidth="1.5" />
      </svg>
      <span className="wg-value">{shown}</span>
    </div>
  );
}

/** A pane's screen, its last rows, read from /N/body; a click focuses the pane. */
function TerminalSlot({ pane, rows, label }: { pane: number; rows: number; label?: string | undefined }) {
  const rev = useApp((s) => s.rev);
  const [text, setText] = useState('');
  useEffect(() => {
    let alive = true;
    const t = setTimeout(() => {
      void client.call('ns/read', { path: `/${pane}/body`, count: WIDGET_READ_BYTES }).then(
        (r) => alive && setText((r.encoding === 'utf8' ? r.data : '').split('\n').slice(-rows - 1).join('\n')),
        (e: unknown) => alive && setText(e instanceof Error ? e.message : String(e)),
      );
    }, WIDGET_REFRESH_MS);
    return () => {
      alive = false;
      clearTimeout(t);
    };
  }, [rev, pane, rows]);
  return (
    <div className="wg-terminal">
      <button type="button" className="wg-slot-head" onClick={() => void client.act('pane/focus', { pane })}>
        {label ?? `pane ${pane}`}
      </button>
      <pre aria-label={`${label ?? `pane ${pane}`}: its screen`}>{text}</pre>
    </div>
  );
}

function DiffText({ text }: { text: string }) {
  return (
    <pre className="wg-diff">
      {text.split('\n').map((l, k) => (
        <span key={k} className={l.startsWith('+') && !l.startsWith('+++') ? 'wg-add' : l.startsWith('-') && !l.startsWith('---') ? 'wg-del' : l.startsWith('@@') ? 'wg-hunk' : undefined}>
          {l}
          {'\n'}
        </span>
      ))}
    </pre>
  );
}

function Node({ node, values, pane, path }: { node: WidgetNode; values: Values; pane: number; path: string }): JSX.Element {
  const bound = 'bind' in node && node.bind ? values.get(bindingKey(node.bind)) : undefined;
  const value = bound?.ok ? bound.value : undefined;
  const id = node.id ?? path;
  const label = node.label;
  switch (node.type) {
    case 'row':
    case 'column':
    case 'grid':
      return (
        <div className={`wg-${node.type}`} data-widget={id} role="group" aria-label={label} style={node.type === 'grid' ? { gridTemplateColumns: gridColumns(node.columns ?? 2) } : undefined}>
          {label ? <div className="wg-heading">{label}</div> : null}
          {node.children.map((c, k) => (
            <Node key={k} node={c} values={values} pane={pane} path={`${path}.${k}`} />
          ))}
        </div>
      );
    case 'text':
      return (
        <div className={`wg-text wg-${node.style ?? 'plain'}`} data-widget={id}>
          {label ? <span className="wg-label">{label}</span> : null}
          <span className="wg-value">{node.bind ? valueWithUnit(value, node.unit, shownValue) : node.text}</span>
          <Missing bound={node.bind ? bound : { ok: true, value: null }} />
        </div>
      );
    case 'markdown':
      return (
        <div data-widget={id}>
          <Markdown text={node.bind ? shownValue(value) : (node.text ?? '')} />
          {node.bind ? <Missing bound={bound} /> : null}
        </div>
      );
    case 'diff':
      return (
        <Framed id={id} label={label} bound={node.bind ? bound : { ok: true, value: null }}>
          <DiffText text={node.bind ? shownValue(value) : (node.text ?? '')} />
        </Framed>
      );
    case 'table':
      return <TableWidget id={id} label={label} bound={bound} value={value} node={node} pane={pane} />;
    case 'list':
      return <ListWidget id={id} label={label} bound={bound} value={value} node={node} pane={pane} />;
    case 'log': {
      const lines = shownValue(value).split('\n').filter((l) => l !== '').slice(-node.lines);
      return (
        <Framed className="wg-log" id={id} label={label} bound={bound}>
          <pre role="log" aria-label={label ?? node.bind.path} tabIndex={0}>
            {lines.join('\n')}
          </pre>
        </Framed>
      );
    }
    case 'progress': {
      const n = typeof value === 'number' ? value : Number(shownValue(value));
      const ok = Number.isFinite(n) && bound?.ok === true;
      return (
        <div className="wg-progress" data-widget={id}>
          <span className="wg-label">{label}</span>
          <progress max={node.max} value={ok ? Math.min(n, node.max) : undefined} aria-label={label} />
          <span className="wg-value">{ok ? withUnit(n, node.unit) : ''}</span>
          <Missing bound={bound} />
        </div>
      );
    }
    case 'sparkline':
    case 'chart': {
      const n = typeof value === 'number' ? value : Number(shownValue(value));
      return (
        <div data-widget={id}>
          <Spark id={id} label={label ?? node.bind.path} value={Number.isFinite(n) && bound?.ok ? n : undefined} points={node.points} unit={node.unit} tall={node.type === 'chart'} />
          <Missing bound={bound} />
        </div>
      );
    }
    case 'button':
      return (
        <div data-widget={id}>
          <ActionButton pane={pane} action={node.action} row={{}} label={node.label} />
        </div>
      );
    case 'input':
      return <InputWidget id={id} pane={pane} node={node} />;
    case 'select':
      return <SelectWidget id={id} pane={pane} node={node} />;
    case 'terminal':
      return <TerminalSlot pane={node.pane} rows={node.rows} label={label} />;
  }
}

function InputWidget({ id, pane, node }: { id: string; pane: number; node: Extract<WidgetNode, { type: 'input' }> }) {
  const [text, setText] = useState('');
  const [said, setSaid] = useState('');
  const { refresh, attrs } = useContext(Ctx);
  return (
    <form
      className="wg-input"
      data-widget={id}
      onSubmit={(e) => {
        e.preventDefault();
        const sent = text;
        void runAction(pane, node.action, { ...attrs, value: sent }).then((s) => {
          setSaid(s);
          // Done: the field empties, unless something new was typed while it ran (that is kept, not wiped).
          if (s === '') setText((now) => (now === sent ? '' : now));
          refresh();
        });
      }}
    >
      <label>
        <span className="wg-label">{node.label}</span>
        <input value={text} placeholder={node.placeholder} onChange={(e) => setText(e.target.value)} />
      </label>
      <Said text={said} />
    </form>
  );
}

function SelectWidget({ id, pane, node }: { id: string; pane: number; node: Extract<WidgetNode, { type: 'select' }> }) {
  const [said, setSaid] = useState('');
  const { refresh, attrs } = useContext(Ctx);
  return (
    <div className="wg-select" data-widget={id}>
      <label>
        <span className="wg-label">{node.label}</span>
        <select defaultValue="" onChange={(e) => void runAction(pane, node.action, { ...attrs, value: e.target.value }).then((s) => (setSaid(s), refresh()))}>
          <option value="" disabled>
            choose…
          </option>
          {node.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </label>
      <Said text={said} />
    </div>
  );
}

/** The widget body: its app's tree, or a note naming why there is none. */
export function WidgetBody({ pane, focused }: BodyProps) {
  const appId = useApp((s) => s.panes[pane]?.attrs['app']);
  const app = useApp((s) => s.apps.apps.find((a) => a.id === appId));
  const tree = app?.widget;
  const bindings = useMemo(() => (tree ? widgetBindings(tree) : []), [tree]);
  const attrs = useApp((s) => s.panes[pane]?.attrs) ?? NO_ATTRS;
  const { values, refresh } = useBindings(bindings, attrs);
  const ctx = useMemo(() => ({ refresh, attrs }), [refresh, attrs]);
  const ref = useRef<HTMLDivElement>(null);
  const overlayOpen = useApp((s) => s.overlay !== null);

  // The focused widget pane takes the keyboard: Tab walks its controls.
  useEffect(() => {
    if (focused && !overlayOpen && ref.current && !ref.current.contains(document.activeElement) && !menuHasKeyboard()) ref.current.focus();
  }, [focused, overlayOpen]);

  if (!tree)
    return (
      <div className="pane-body pane-body-undrawn" role="note">
        {appId ? `No widget: the app file “${appId}” is gone or declares no widget.` : 'No widget: this pane names no app.'}
      </div>
    );
  return (
    <div className="pane-body wg-body" ref={ref} tabIndex={-1} aria-label={`${app?.name ?? 'widget'} widget`} onKeyDown={(e) => e.key === 'Escape' && store.getState().overlay === null && (e.currentTarget as HTMLElement).focus()}>
      <Ctx.Provider value={ctx}>
        <Node node={tree} values={values} pane={pane} path="w" />
      </Ctx.Provider>
    </div>
  );
}
