// How a widget's bound file becomes a value, and how an action's {field} templates
// are filled: zod-free, so the window and the server's /N/body text judge a file and
// a template the same way. A value is data: it is parsed, picked and shown as text,
// never evaluated; a template fills one argument or one path segment and refuses a
// value that would make it two (a blank, a newline) or an option (`-x`).
import type { Binding, WidgetAction } from './widget';

/** One row of a table or list: a record of fields (JSON objects, lines split into fields, kv pairs). */
export type Row = Record<string, unknown>;

/** What a binding read: the parsed value, or why there is none (shown in the widget where the value would be). */
export type Bound = { ok: true; value: unknown } | { ok: false; error: string };

/** A dotted field of a JSON value ("panes.0.n"); undefined when any step is missing. */
export function pickField(v: unknown, field: string | undefined): unknown {
  if (field === undefined) return v;
  // A key that holds dots itself (a pane attribute: review.pane) is taken whole first.
  if (v !== null && typeof v === 'object' && field.includes('.') && Object.hasOwn(v, field)) return (v as Record<string, unknown>)[field];
  let at: unknown = v;
  for (const k of field.split('.')) {
    if (at === null || typeof at !== 'object') return undefined;
    if (!Object.hasOwn(at, k)) return undefined;
    at = (at as Record<string, unknown>)[k];
  }
  return at;
}

/** "name value" lines (the shape of /server/stats) as an object; a line of one word maps to "". */
function kvOf(text: string): Record<string, string> {
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const line of text.split('\n')) {
    const m = /^\s*(\S+)\s*(.*?)\s*$/.exec(line);
    if (m && m[1] && !m[1].startsWith('#')) out[m[1]] = m[2] ?? '';
  }
  return out;
}

/** A line split into named fields by runs of blanks, the last field taking the rest. */
function fieldsOf(line: string, names: readonly string[]): Row {
  const row: Row = { line };
  let rest = line.trim();
  names.forEach((name, i) => {
    if (i === names.length - 1) {
      row[name] = rest;
      rest = '';
      return;
    }
    const m = /^(\S*)\s*(.*)$/s.exec(rest)!;
    row[name] = m[1];
    rest = m[2] ?? '';
  });
  return row;
}

/** The bytes of a bound file parsed as its binding says; a file that is not what it says is an error naming the path. */
export function parseBound(b: Binding, text: string): Bound {
  try {
    switch (b.as) {
      case 'text':
        // A file's one line ends with a newline that is no part of its value.
        return { ok: true, value: text.endsWith('\n') && text.indexOf('\n') === text.length - 1 ? text.slice(0, -1) : text };
      case 'number': {
        const m = /-?\d+(\.\d+)?([eE][-+]?\d+)?/.exec(b.pick ? String(kvOf(text)[b.pick] ?? '') : text);
        return m ? { ok: true, value: Number(m[0]) } : { ok: false, error: `${b.path}: no number${b.pick ? ` for ${b.pick}` : ''}` };
      }
      case 'kv': {
        const o = kvOf(text);
        return { ok: true, value: b.pick ? o[b.pick] : o };
      }
      case 'lines': {
        const lines = text.split('\n').filter((l) => l.trim() !== '');
        const rows = lines.map((l) => (b.fields && b.fields.length > 0 ? fieldsOf(l, b.fields) : { line: l }));
        // `pick` takes one field of one row (`0.name`: the first line's first field).
        return { ok: true, value: b.pick ? pickField(rows, b.pick) : rows };
      }
      case 'json':
        return { ok: true, value: pickField(JSON.parse(text) as unknown, b.pick) };
      case 'jsonl':
        return {
          ok: true,
          value: text
            .split('\n')
            .filter((l) => l.trim() !== '')
            .map((l) => JSON.parse(l) as unknown),
        };
    }
  } catch (e) {
    return { ok: false, error: `${b.path}: not ${b.as} (${e instanceof Error ? e.message : String(e)})` };
  }
}

/** Rows of a table or list from a bound value: an array's items, an object's {name, value} pairs. */
export function rowsOf(v: unknown): Row[] {
  if (Array.isArray(v)) return v.map((x) => (x !== null && typeof x === 'object' ? (x as Row) : { value: x }));
  if (v !== null && typeof v === 'object') return Object.entries(v).map(([name, value]) => ({ name, value }));
  return v === undefined ? [] : [{ value: v }];
}

/** A value as one line of text: strings as they are, arrays joined by ", ", objects as JSON. */
export function shownValue(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v) && v.every((x) => typeof x !== 'object' || x === null)) return v.map((x) => String(x)).join(', ');
  return JSON.stringify(v);
}

/** A list item's template with the row's fields, for display (no checks: this is shown, not run). */
export function itemText(template: string, row: Row): string {
  return template.replace(/\{([A-Za-z][A-Za-z0-9_.$-]*)\}/g, (_all, f: string) => shownValue(pickField(row, f)));
}

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** `{field}` in `template` filled from the row; every value checked by `check` (a refusal names the field). */
function fill(template: string, row: Row, check: (field: string, value: string) => string | undefined): { ok: true; text: string } | { ok: false; error: string } {
  let error: string | undefined;
  const text = template.replace(/\{([A-Za-z][A-Za-z0-9_.$-]*)\}/g, (_all, field: string) => {
    const v = shownValue(pickField(row, field));
    error ??= CONTROL.test(v) ? `${field} holds a control character; a value is text, never keys or lines` : check(field, v);
    return v;
  });
  return error === undefined ? { ok: true, text } : { ok: false, error };
}

/** A value that must stay one word: in a path segment, or an argument before the last. */
function oneWord(field: string, v: string): string | undefined {
  if (v === '') return `${field} is empty`;
  if (/\s/.test(v)) return `${field} ("${v}") has a blank where one word belongs`;
  if (v.startsWith('-')) return `${field} ("${v}") starts with "-"`;
  return undefined;
}

/** A path segment a value may be: one word, not `.` or `..`, no `/`. */
function segment(field: string, v: string): string | undefined {
  return oneWord(field, v) ?? (v === '..' || v === '.' || v.includes('/') ? `${field} ("${v}") is not one path segment` : undefined);
}

/** A binding's path with `{ATTR}` taken from the widget pane's own attributes (each one path segment), or why not. */
export function boundPath(path: string, attrs: Readonly<Record<string, string>>): { ok: true; path: string } | { ok: false; error: string } {
  let error: string | undefined;
  const text = path.replace(/\{([A-Za-z][A-Za-z0-9_.$-]*)\}/g, (_all, k: string) => {
    const v = Object.hasOwn(attrs, k) ? attrs[k]! : undefined;
    if (v === undefined) error ??= `this pane has no attribute ${k}`;
    else error ??= CONTROL.test(v) ? `${k} holds a control character` : segment(k, v);
    return v ?? '';
  });
  return error === undefined ? { ok: true, path: text } : { ok: false, error: `${path}: ${error}` };
}

/** What an action asks of the server once its templates are filled, or why it cannot run. */
export type ActionRequest =
  | { ok: true; method: 'pane/exec'; pane: number | undefined; line: string }
  | { ok: true; method: 'ns/write'; path: string; data: string }
  | { ok: false; error: string };

/**
 * An action with `row`'s fields (and an input's `value`) filled in. `run`: the word
 * and its arguments as one command line of the target pane (each argument one word,
 * the last may hold blanks, as the pane's words parse them); `write`: a path whose
 * filled segments are single safe words (never `..`) and data of one line.
 */
export function actionRequest(a: WidgetAction, row: Row): ActionRequest {
  if ('run' in a) {
    const args: string[] = [];
    for (const [i, t] of a.args.entries()) {
      const last = i === a.args.length - 1;
      const f = fill(t, row, (field, v) => (last ? (v.startsWith('-') ? `${field} ("${v}") starts with "-"` : undefined) : oneWord(field, v)));
      if (!f.ok) return f;
      args.push(f.text);
    }
    let pane: number | undefined;
    if (a.pane !== undefined) {
      const f = fill(a.pane, row, oneWord);
      if (!f.ok) return f;
      if (!/^\d+$/.test(f.text)) return { ok: false, error: `pane "${f.text}" is not a pane number` };
      pane = Number(f.text);
    }
    return { ok: true, method: 'pane/exec', pane, line: [a.run, ...args].join(' ') };
  }
  const p = fill(a.write, row, segment);
  if (!p.ok) return p;
  const d = fill(a.data, row, () => undefined);
  if (!d.ok) return d;
  return { ok: true, method: 'ns/write', path: p.text, data: d.text };
}
