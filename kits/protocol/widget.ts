// Widget panes (issue 37): an app file of kind `widgets` declares a tree of
// components from a fixed catalogue. Values bind to /pane namespace paths (read
// by the window as whoever it is, again whenever the server's state moves, and
// on a timer where a file changes without events); actions run a word of a
// pane's vocabulary or write a namespace file, as whoever clicked. Nothing in a
// widget file is code: a value is shown as text, a template fills one argument.
import { z } from 'zod';
import { lazySchema } from './lazySchema';

/** Components one widget file may hold: more than a screen can show, few enough to lay out in a frame. */
export const MAX_WIDGET_NODES = 400;
/** Nesting of rows, columns and grids: a dozen levels is already unreadable. */
export const MAX_WIDGET_DEPTH = 12;
/** Distinct paths one widget binds: each is read again on every change of the server's state. */
export const MAX_WIDGET_BINDINGS = 48;
/** Children of one row, column or grid. */
export const MAX_WIDGET_CHILDREN = 64;
/** Columns of a table, actions of a row or button bar, options of a select. */
export const MAX_WIDGET_COLUMNS = 16;
/** Characters of a literal text (a label, a markdown body). */
export const MAX_WIDGET_TEXT = 8000;
/** Shortest period of a timed re-read (`every`): a binding to /server/metrics each second is plenty. */
export const MIN_WIDGET_EVERY_S = 1;
/** Rows a table, list or log shows at most: the newest are kept. */
export const MAX_WIDGET_ROWS = 500;
/** Points a sparkline keeps (the window's history of a bound number). */
export const MAX_SPARK_POINTS = 240;

const text = (max = 200) => z.string().max(max);
const id = lazySchema(() => z.string().regex(/^[A-Za-z][A-Za-z0-9_-]{0,39}$/, 'an id is a letter, then letters, digits, _ or - (40 at most)'));
/** A namespace path, perhaps with {field} templates filled from the row it sits in (a table's or list's). */
const nsPathTemplate = lazySchema(() => z.string().min(2).max(500).regex(/^\//, 'a namespace path starts with "/", e.g. /index or /{pane}/ctl'));
/** A dotted path into a JSON value: agent.state, panes.0.n. */
const pick = lazySchema(() => z.string().max(200).regex(/^[A-Za-z0-9_$-]+(\.[A-Za-z0-9_$-]+)*$/, 'a field is names and indexes joined by dots, e.g. panes.0.n'));

/**
 * How a bound file's bytes become a value: `text` as is; `lines` one row per line
 * (split into `fields` by runs of blanks when named); `json` one JSON value;
 * `jsonl` one JSON value per line (each a row); `kv` "name value" lines (/server/metrics)
 * as an object and, for tables, rows of {name, value}; `number` the first number.
 */
export const BindFormatSchema = lazySchema(() => z.enum(['text', 'lines', 'json', 'jsonl', 'kv', 'number']));
export type BindFormat = z.infer<typeof BindFormatSchema>;

export const BindingSchema = lazySchema(() => z
  .object({
    /** `{ATTR}` takes the widget pane's own attribute (one path segment): a review widget's `/{review.pane}/diff`. */
    path: nsPathTemplate,
    as: BindFormatSchema.default('text'),
    /** A field of the parsed value (json: a dotted path; lines: a row and its field, e.g. 0.name; kv: a name; jsonl's rows are left whole). */
    pick: pick.optional(),
    /** For `lines`: names of the blank-separated columns, the last taking the rest of the line. */
    fields: z.array(id).max(MAX_WIDGET_COLUMNS).optional(),
    /** Seconds between timed re-reads, for files that change without an event (metrics, a log). */
    every: z.number().min(MIN_WIDGET_EVERY_S).max(3600).optional(),
  })
  .strict());
export type Binding = z.infer<typeof BindingSchema>;

/**
 * What a click (or Enter in an input, a choice in a select) does, as whoever did it:
 * `run` a word of a pane's vocabulary (`pane` absent: the widget's own pane; "{pane}"
 * from the row) with `args`, or `write` `data` to a namespace file (a ctl, a tag).
 * `{field}` in them takes the row's field or the input's `{value}`: a value with a
 * control character is refused, and one in a path or before the last argument must be
 * one word (no blanks, not `..`, not starting with `-`).
 */
export const WidgetActionSchema = lazySchema(() => z.union([
  z
    .object({
      label: text(60).optional(),
      run: z.string().regex(/^[A-Za-z][A-Za-z0-9_-]{0,39}$/, 'run names a word: a letter, then letters, digits, _ or -'),
      args: z.array(text(500)).max(8).default([]),
      pane: z.string().max(40).regex(/^(\d+|\{[A-Za-z][A-Za-z0-9_.-]*\})$/, 'pane is a number or a {field} of the row').optional(),
    })
    .strict(),
  z.object({ label: text(60).optional(), write: nsPathTemplate, data: text(2000) }).strict(),
]));
export type WidgetAction = z.infer<typeof WidgetActionSchema>;

const base = { id: lazySchema(() => id.optional()), label: lazySchema(() => text(120).optional()) };
const bindable = { ...base, text: lazySchema(() => text(MAX_WIDGET_TEXT).optional()), bind: lazySchema(() => BindingSchema.optional()) };
/** How a figure is shown: `bytes` and `bytes/s` in binary prefixes, `ms` and `s` as lengths of time, any other after the number. */
const unit = lazySchema(() => text(20).optional());
const columnSpec = lazySchema(() => z.object({ title: text(60), field: pick, unit }).strict());

const Leaf = {
  text: lazySchema(() => z.object({ type: z.literal('text'), ...bindable, style: z.enum(['plain', 'title', 'muted', 'mono']).optional(), unit }).strict()),
  markdown: lazySchema(() => z.object({ type: z.literal('markdown'), ...bindable }).strict()),
  table: lazySchema(() => z
    .object({ type: z.literal('table'), ...base, bind: BindingSchema, columns: z.array(columnSpec).min(1).max(MAX_WIDGET_COLUMNS), actions: z.array(WidgetActionSchema).max(MAX_WIDGET_COLUMNS).optional(), empty: text(200).optional() })
    .strict()),
  list: lazySchema(() => z
    .object({ type: z.literal('list'), ...base, bind: BindingSchema, item: text(500), actions: z.array(WidgetActionSchema).max(MAX_WIDGET_COLUMNS).optional(), empty: text(200).optional() })
    .strict()),
  button: lazySchema(() => z.object({ type: z.literal('button'), ...base, label: text(60), action: WidgetActionSchema }).strict()),
  input: lazySchema(() => z.object({ type: z.literal('input'), ...base, label: text(60), placeholder: text(120).optional(), action: WidgetActionSchema }).strict()),
  select: lazySchema(() => z
    .object({ type: z.literal('select'), ...base, label: text(60), options: z.array(z.object({ label: text(60), value: text(200) }).strict()).min(1).max(64), action: WidgetActionSchema })
    .strict()),
  progress: lazySchema(() => z.object({ type: z.literal('progress'), ...base, bind: BindingSchema, max: z.number().positive().default(100), unit }).strict()),
  sparkline: lazySchema(() => z.object({ type: z.literal('sparkline'), ...base, bind: BindingSchema, points: z.number().int().min(2).max(MAX_SPARK_POINTS).default(60), unit }).strict()),
  chart: lazySchema(() => z.object({ type: z.literal('chart'), ...base, bind: BindingSchema, points: z.number().int().min(2).max(MAX_SPARK_POINTS).default(120), unit }).strict()),
  log: lazySchema(() => z.object({ type: z.literal('log'), ...base, bind: BindingSchema, lines: z.number().int().min(1).max(MAX_WIDGET_ROWS).default(100) }).strict()),
  diff: lazySchema(() => z.object({ type: z.literal('diff'), ...bindable }).strict()),
  terminal: lazySchema(() => z
    .object({ type: z.literal('terminal'), ...base, pane: z.number().int().positive(), rows: z.number().int().min(1).max(200).default(12) })
    .strict()),
};

export interface WidgetContainer {
  type: 'row' | 'column' | 'grid';
  id?: string | undefined;
  label?: string | undefined;
  columns?: number | undefined;
  children: WidgetNode[];
}
export type WidgetLeaf = z.infer<(typeof Leaf)[keyof typeof Leaf]>;
export type WidgetNode = WidgetLeaf | WidgetContainer;
export type WidgetType = WidgetNode['type'];

export const WidgetNodeSchema: z.ZodType<WidgetNode> = lazySchema(() => z.lazy(() =>
  z.discriminatedUnion('type', [
    z.object({ type: z.literal('row'), ...base, children: z.array(WidgetNodeSchema).max(MAX_WIDGET_CHILDREN) }).strict(),
    z.object({ type: z.literal('column'), ...base, children: z.array(WidgetNodeSchema).max(MAX_WIDGET_CHILDREN) }).strict(),
    z.object({ type: z.literal('grid'), ...base, columns: z.number().int().min(1).max(12).default(2), children: z.array(WidgetNodeSchema).max(MAX_WIDGET_CHILDREN) }).strict(),
    ...Object.values(Leaf),
  ]),
)) as z.ZodType<WidgetNode>;

/** The catalogue's names, for messages and the JSON Schema's docs. */
export const WIDGET_TYPES = ['row', 'column', 'grid', ...Object.keys(Leaf)] as const;

/** Every node of a tree, depth first, with its depth. */
export function* walkWidget(node: WidgetNode, depth = 0, at = 'widget'): Generator<{ node: WidgetNode; depth: number; at: string }> {
  yield { node, depth, at };
  if ('children' in node) for (const [i, c] of node.children.entries()) yield* walkWidget(c, depth + 1, `${at}.children.${i}`);
}

/** The bindings a tree reads, each once. */
export function widgetBindings(node: WidgetNode): Binding[] {
  const seen = new Map<string, Binding>();
  for (const { node: n } of walkWidget(node)) if ('bind' in n && n.bind) seen.set(bindingKey(n.bind), n.bind);
  return [...seen.values()];
}

/** A binding's identity: two components binding the same file the same way share one value. */
export function bindingKey(b: Binding): string {
  return JSON.stringify([b.path, b.as, b.pick ?? null, b.fields ?? null, b.every ?? 0]);
}

/** The tree's bounds (node count, depth, bindings) as messages by field; empty when within them. */
export function widgetBoundsErrors(root: WidgetNode): { field: string; message: string }[] {
  const out: { field: string; message: string }[] = [];
  let count = 0;
  for (const { depth, at } of walkWidget(root)) {
    count++;
    if (depth > MAX_WIDGET_DEPTH) {
      out.push({ field: at, message: `nested ${depth} deep; at most ${MAX_WIDGET_DEPTH} (MAX_WIDGET_DEPTH)` });
      break;
    }
  }
  if (count > MAX_WIDGET_NODES) out.push({ field: 'widget', message: `${count} components; at most ${MAX_WIDGET_NODES} (MAX_WIDGET_NODES)` });
  const bound = new Set(widgetBindings(root).map((b) => b.path)).size;
  if (bound > MAX_WIDGET_BINDINGS) out.push({ field: 'widget', message: `binds ${bound} paths; at most ${MAX_WIDGET_BINDINGS} (MAX_WIDGET_BINDINGS)` });
  return out;
}
