// The keymap: the actions a person can bind, the default chords (chosen so none
// steals a key that shells, readline, vim or agents use), the keymap file's schema,
// and `keymap/get` + `keymap/changed`. The server resolves; the renderer matches.
import { z } from 'zod';
import { parseChord } from './chord';
import { boundedRecord, boundedString, MAX_ACTION_LENGTH, MAX_CHORD_LENGTH, MAX_KEY_BINDINGS } from './limits';
import { method } from './method';
import { lazySchema } from './lazySchema';

/** A problem in a config file, named by file and field so a person can fix it. */
export const ConfigErrorSchema = lazySchema(() => z.object({ file: z.string(), field: z.string(), message: z.string() }));
export type ConfigError = z.infer<typeof ConfigErrorSchema>;

/** Every bindable action: id → what the palette shows. */
export const ACTIONS = {
  'pane.new': 'New pane beside the focused one',
  'pane.split.horizontal': 'Split side by side',
  'pane.split.vertical': 'Split stacked',
  'focus.left': 'Focus the pane to the left',
  'focus.right': 'Focus the pane to the right',
  'focus.up': 'Focus the pane above',
  'focus.down': 'Focus the pane below',
  'focus.next': 'Focus the next pane',
  'focus.prev': 'Focus the previous pane',
  'focus.last': 'Focus the pane focused before this one (tmux\'s last pane)',
  'layout.next': "Lay the tiles out in the next preset (tmux's next-layout: even-horizontal, even-vertical, main-horizontal, main-vertical, tiled)",
  'layout.spread': 'Give the tiles even shares, keeping their arrangement',
  'layout.even-horizontal': 'Lay the tiles out side by side, evenly',
  'layout.even-vertical': 'Lay the tiles out stacked, evenly',
  'layout.main-horizontal': 'Lay the focused tile out large on top, the others side by side under it',
  'layout.main-vertical': 'Lay the focused tile out large on the left, the others stacked on the right',
  'layout.tiled': 'Lay the tiles out in a grid',
  'swap.left': 'Swap with the pane to the left (a float moves left)',
  'swap.right': 'Swap with the pane to the right (a float moves right)',
  'swap.up': 'Swap with the pane above (a float moves up)',
  'swap.down': 'Swap with the pane below (a float moves down)',
  'swap.next': 'Swap with the next pane',
  'swap.prev': 'Swap with the previous pane',
  'resize.left': 'Grow the pane to the left (a float narrows)',
  'resize.right': 'Grow the pane to the right (a float widens)',
  'resize.up': 'Grow the pane upwards (a float gets shorter)',
  'resize.down': 'Grow the pane downwards (a float gets taller)',
  'pane.zoom': 'Zoom or unzoom the focused pane',
  'pane.close': 'Close the focused pane (asks first when a program other than an idle shell would end)',
  'pane.close.now': 'Close the focused pane without asking',
  'pane.float': 'Float or tile the focused pane',
  'switcher.next': 'Cycle panes (switcher)',
  'switcher.prev': 'Cycle panes backwards (switcher)',
  'launcher.open': 'Launch an app',
  'palette.open': 'Command palette',
  'find.open': 'Find in scrollback',
  'terminal.copy': 'Copy the selection',
  'terminal.plumb': 'Open the selection as a click on it would (plumbing: file:line in an editor, a URL, a commit)',
  'terminal.screenReader': 'Toggle screen-reader mode',
  'copy.mode': 'Copy mode: move through scrollback, search, select and copy by keyboard',
  'input.sync': "Type into every terminal pane of the session on screen at once (tmux's synchronize-panes); again to stop",
  'tag.focus': "Move the keyboard to the focused pane's tag toolbar (and back)",
  'notices.history': 'Notices history',
  'agent.nextWaiting': 'Focus the next agent that needs you',
  'session.switcher': 'Sessions: switch, create, rename, close',
  'font.zoomIn': 'Bigger terminal font',
  'font.zoomOut': 'Smaller terminal font',
  'font.zoomReset': 'Terminal font size from the settings',
  'server.stop': 'Stop the pane daemon (every pane and program ends; asks first)',
  'pane.hide': 'Hide (minimise) the focused pane, tile or float; the dock and the status line show it again',
  'pane.notify': 'Tell me when what runs in the focused pane finishes (its shell back at its prompt, or its program ended), as pane wait does',
  'dock.open': 'Dock: every pane, agent and hidden pane of the session; Enter shows and focuses one',
  'layer.scratch': 'Show or hide the scratch layer (its floats as one; the first press opens a scratch shell there)',
  'snap.top-left': 'Snap the focused pane to the top-left quarter (floating it)',
  'snap.top': 'Snap the focused pane to the top half (floating it)',
  'snap.top-right': 'Snap the focused pane to the top-right quarter (floating it)',
  'snap.left': 'Snap the focused pane to the left half (floating it)',
  'snap.full': 'Snap the focused pane to the whole view (floating it)',
  'snap.right': 'Snap the focused pane to the right half (floating it)',
  'snap.bottom-left': 'Snap the focused pane to the bottom-left quarter (floating it)',
  'snap.bottom': 'Snap the focused pane to the bottom half (floating it)',
  'snap.bottom-right': 'Snap the focused pane to the bottom-right quarter (floating it)',
} as const;
export type ActionId = keyof typeof ACTIONS;
export const ACTION_IDS = Object.keys(ACTIONS) as ActionId[];

/**
 * The actions that change nothing in the server's state, only what this window shows
 * or copies: what a read-only viewer (a grant's guest) can do, so its palette lists
 * these and no word of a pane's vocabulary (its tag shows none either). Every other
 * action asks the server for a change the grant refuses (focus and zoom too: a
 * read-only guest's context follows the session's).
 */
export const VIEW_ONLY_ACTIONS: ReadonlySet<ActionId> = new Set<ActionId>([
  'palette.open',
  'find.open',
  'terminal.copy',
  'terminal.screenReader',
  'copy.mode',
  'notices.history',
  'font.zoomIn',
  'font.zoomOut',
  'font.zoomReset',
]);

/** A binding's target: a global action, or `exec WORD ARGS` run in the focused pane. */
export const ActionSchema = lazySchema(() => z.union([
  z.enum(ACTION_IDS as [ActionId, ...ActionId[]]),
  z.string().regex(/^exec [A-Za-z][A-Za-z0-9_-]*( .*)?$/, 'an action is one of the listed ids or "exec WORD [ARGS]"'),
]));
export type Action = z.infer<typeof ActionSchema>;

/** Defaults: Ctrl+Shift+letter (terminals cannot tell it from Ctrl+letter, so no program
 * relies on it) and Alt+Shift / Ctrl+Shift arrows. Avoided: Ctrl+Shift+C/V (copy/paste),
 * W/Q/N/T/I/J (the browser's own), U (GTK unicode input), R (reload). */
export const DEFAULT_BINDINGS: Record<string, Action> = {
  'Ctrl+Shift+Enter': 'pane.new',
  'Ctrl+Shift+E': 'pane.split.horizontal',
  'Ctrl+Shift+O': 'pane.split.vertical',
  'Alt+Shift+Left': 'focus.left',
  'Alt+Shift+Right': 'focus.right',
  'Alt+Shift+Up': 'focus.up',
  'Alt+Shift+Down': 'focus.down',
  'Ctrl+Shift+]': 'focus.next',
  'Ctrl+Shift+[': 'focus.prev',
  'Ctrl+Alt+Shift+Left': 'swap.left',
  'Ctrl+Alt+Shift+Right': 'swap.right',
  'Ctrl+Alt+Shift+Up': 'swap.up',
  'Ctrl+Alt+Shift+Down': 'swap.down',
  'Ctrl+Shift+Left': 'resize.left',
  'Ctrl+Shift+Right': 'resize.right',
  'Ctrl+Shift+Up': 'resize.up',
  'Ctrl+Shift+Down': 'resize.down',
  'Ctrl+Shift+Z': 'pane.zoom',
  'Ctrl+Shift+X': 'pane.close',
  'Ctrl+Shift+L': 'pane.float',
  'Ctrl+Shift+S': 'switcher.next',
  'Ctrl+Shift+K': 'launcher.open',
  'Ctrl+Shift+P': 'palette.open',
  'Ctrl+Shift+F': 'find.open',
  'Ctrl+Shift+C': 'terminal.copy',
  'Ctrl+Shift+B': 'terminal.plumb',
  'Ctrl+Shift+Y': 'copy.mode',
  'Ctrl+Shift+G': 'tag.focus',
  'Ctrl+Shift+H': 'notices.history',
  'Ctrl+Shift+A': 'agent.nextWaiting',
  'Ctrl+Shift+D': 'session.switcher',
  'Ctrl+Shift+M': 'pane.hide',
  'Alt+Shift+M': 'dock.open',
  'Alt+Shift+S': 'layer.scratch',
  // The browser's and WezTerm's zoom keys; Ctrl+Shift+= is Ctrl++ on a US keyboard.
  'Ctrl+=': 'font.zoomIn',
  'Ctrl+Shift+=': 'font.zoomIn',
  'Ctrl+-': 'font.zoomOut',
  'Ctrl+0': 'font.zoomReset',
};

/** The tmux-style alternative: press the prefix, then one key. */
export const DEFAULT_PREFIX = 'Ctrl+Shift+Space';
export const DEFAULT_PREFIX_BINDINGS: Record<string, Action> = {
  c: 'pane.new', '%': 'pane.split.horizontal', '"': 'pane.split.vertical',
  Left: 'focus.left', Right: 'focus.right', Up: 'focus.up', Down: 'focus.down', o: 'focus.next', ';': 'focus.last',
  '{': 'swap.prev', '}': 'swap.next',
  'Ctrl+Left': 'resize.left', 'Ctrl+Right': 'resize.right', 'Ctrl+Up': 'resize.up', 'Ctrl+Down': 'resize.down',
  z: 'pane.zoom', x: 'pane.close', '!': 'pane.float', w: 'switcher.next', k: 'launcher.open', ':': 'palette.open',
  '/': 'find.open', '[': 'copy.mode', y: 'terminal.copy', p: 'terminal.plumb',
  g: 'tag.focus', h: 'notices.history', a: 'agent.nextWaiting', s: 'session.switcher',
  m: 'pane.hide', d: 'dock.open', '`': 'layer.scratch', 'Shift+S': 'input.sync', 'Shift+A': 'pane.notify',
  // tmux's own: Space cycles the preset layouts, E spreads the panes evenly.
  Space: 'layout.next', 'Shift+E': 'layout.spread',
  // The nine snap zones laid out as a numeric keypad: 7 8 9 the top row, 5 the whole view.
  '7': 'snap.top-left', '8': 'snap.top', '9': 'snap.top-right', '4': 'snap.left', '5': 'snap.full', '6': 'snap.right', '1': 'snap.bottom-left', '2': 'snap.bottom', '3': 'snap.bottom-right',
};

/** A table of chord → action; null unbinds. Bounded in count, chord and action length (limits.ts). */
const BindingTable = lazySchema(() => boundedRecord(
  z.union([ActionSchema, z.null()]).refine((a) => a === null || a.length <= MAX_ACTION_LENGTH, { error: (iss) => `an action of at most ${MAX_ACTION_LENGTH} characters (MAX_ACTION_LENGTH); this is ${String(iss.input).length}` }),
  MAX_KEY_BINDINGS,
  'MAX_KEY_BINDINGS',
  'bindings',
  MAX_CHORD_LENGTH,
  'MAX_CHORD_LENGTH',
));

/** ~/.config/pane/keymap.json. Bindings merge over the defaults; `null` unbinds a chord. */
export const KeymapFileSchema = lazySchema(() => z
  .object({
    $schema: z.string().max(500).optional(),
    version: z.literal(1).optional(),
    /** Drop the default chords instead of merging over them. */
    replaceDefaults: z.boolean().optional(),
    /** The prefix chord, or null for no prefix mode. */
    prefix: boundedString(MAX_CHORD_LENGTH, 'MAX_CHORD_LENGTH').nullable().optional(),
    bindings: BindingTable.optional(),
    prefixBindings: BindingTable.optional(),
  })
  .strict()
  .superRefine((file, ctx) => {
    if (typeof file.prefix === 'string') {
      const p = parseChord(file.prefix);
      if (!p.ok) ctx.addIssue({ code: 'custom', path: ['prefix'], message: p.error });
    }
    for (const table of ['bindings', 'prefixBindings'] as const) {
      for (const chord of Object.keys(file[table] ?? {})) {
        const p = parseChord(chord);
        if (!p.ok) ctx.addIssue({ code: 'custom', path: [table, chord], message: p.error });
      }
    }
  }));
export type KeymapFile = z.infer<typeof KeymapFileSchema>;

export const BindingSchema = lazySchema(() => z.object({ chord: z.string(), action: ActionSchema }));
export type Binding = z.infer<typeof BindingSchema>;

/** The keymap in force: what `keymap/get` answers and `keymap/changed` carries. */
export const KeymapStateSchema = lazySchema(() => z.object({
  prefix: z.string().nullable(),
  bindings: z.array(BindingSchema),
  prefixBindings: z.array(BindingSchema),
  /** Files that contributed, in order (empty: defaults only). */
  sources: z.array(z.string()),
  /** Why the last edit was not applied; the previous keymap stays in force. */
  errors: z.array(ConfigErrorSchema),
}));
export type KeymapState = z.infer<typeof KeymapStateSchema>;

function table(defaults: Record<string, Action>, user: Record<string, Action | null> | undefined, replace: boolean): Binding[] {
  const out = new Map<string, Action>();
  const add = (src: Record<string, Action | null>) => {
    for (const [raw, action] of Object.entries(src)) {
      const p = parseChord(raw);
      if (!p.ok) continue; // the schema has already reported it
      if (action === null) out.delete(p.chord);
      else out.set(p.chord, action);
    }
  };
  if (!replace) add(defaults);
  if (user) add(user);
  return [...out].map(([chord, action]) => ({ chord, action }));
}

/** The keymap from the defaults and an (already validated) user file. */
export function resolveKeymap(file: KeymapFile | undefined, sources: string[] = []): KeymapState {
  const replace = file?.replaceDefaults === true;
  const prefixRaw = file?.prefix === undefined ? (replace ? null : DEFAULT_PREFIX) : file.prefix;
  const prefix = prefixRaw === null ? null : parseChord(prefixRaw);
  return {
    prefix: prefix && prefix.ok ? prefix.chord : null,
    bindings: table(DEFAULT_BINDINGS, file?.bindings, replace),
    prefixBindings: table(DEFAULT_PREFIX_BINDINGS, file?.prefixBindings, replace),
    sources,
    errors: [],
  };
}

/** Names a zod issue path the way a person reads the file: bindings["Ctrl+Shfit+E"]. */
export function fieldOf(path: readonly PropertyKey[]): string {
  let s = '';
  for (const p of path) {
    if (typeof p === 'number') s += `[${p}]`;
    else if (typeof p === 'string' && /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(p)) s += s === '' ? p : `.${p}`;
    else s += `[${JSON.stringify(String(p))}]`;
  }
  return s === '' ? '(top level)' : s;
}

/** Parses keymap file text; errors name the file and the field. */
export function parseKeymapText(file: string, text: string): { ok: true; keymap: KeymapFile } | { ok: false; errors: ConfigError[] } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { ok: false, errors: [{ file, field: '(json)', message: `not valid JSON: ${(e as Error).message}` }] };
  }
  const r = KeymapFileSchema.safeParse(json);
  if (r.success) return { ok: true, keymap: r.data };
  return { ok: false, errors: r.error.issues.map((i) => ({ file, field: fieldOf(i.path), message: i.message })) };
}

export const keymapEventSchemas = {
  'keymap/changed': KeymapStateSchema,
} as const;

export const keymapMethods = {
  'keymap/get': method({
    params: lazySchema(() => z.object({})),
    result: KeymapStateSchema,
    cap: 'read',
    doc: 'The keymap in force (defaults merged with the user’s keymap.json) and any error in that file.',
  }),
};
