// The settings file (~/.config/pane/settings.json): the terminal font, its size and
// the colour theme. Validated here, read and watched by the server like keymap.json,
// published as `settings/changed`; a bad file is reported by file and field and the
// previous settings stay in force.
import { z } from 'zod';
import { ConfigErrorSchema, fieldOf, type ConfigError } from './keymap';
import { method } from './method';
import { lazySchema } from './lazySchema';

/** Font sizes a person can set or zoom to, in CSS pixels: below 6 nothing is legible, above 72 a pane holds a few cells. */
export const FONT_SIZE_MIN = 6;
export const FONT_SIZE_MAX = 72;

/** How the window guesses echoes (renderer/src/term/predict.ts). */
export const PREDICTIVE_ECHO_MODES = ['off', 'auto', 'always'] as const;

/** The built-in themes (their palettes live with the renderer). */
export const THEME_NAMES = ['dark', 'light'] as const;

const colour = lazySchema(() => z.string().regex(/^#[0-9a-fA-F]{6}([0-9a-fA-F]{2})?$/, 'a colour is #rrggbb or #rrggbbaa'));
/** Colours that override the theme's, by xterm.js's names. */
export const COLOUR_KEYS = [
  'background', 'foreground', 'cursor', 'selectionBackground',
  'black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white',
  'brightBlack', 'brightRed', 'brightGreen', 'brightYellow', 'brightBlue', 'brightMagenta', 'brightCyan', 'brightWhite',
] as const;
const ColoursSchema = lazySchema(() => z.object(Object.fromEntries(COLOUR_KEYS.map((k) => [k, colour.optional()])) as Record<(typeof COLOUR_KEYS)[number], z.ZodOptional<typeof colour>>).strict());

/**
 * The default terminal font list. Emoji and CJK fall back to Noto Color Emoji and
 * Noto Sans CJK (Debian: fonts-noto-color-emoji, fonts-noto-cjk) before the generic family.
 */
export const DEFAULT_FONT_FAMILY = '"DejaVu Sans Mono", "Cascadia Mono", Menlo, Consolas, "Noto Color Emoji", "Noto Sans Mono CJK SC", "Noto Sans CJK SC", monospace';
export const DEFAULT_FONT_SIZE = 13;

/** How a session's size is chosen among the windows that show it (settings' windowSize). */
export const WINDOW_SIZE_POLICIES = ['latest', 'smallest', 'largest'] as const;

export const SettingsFileSchema = lazySchema(() => z
  .object({
    $schema: z.string().optional(),
    version: z.literal(1).optional(),
    /** A CSS font-family list; the emoji and CJK fallbacks are appended when missing. */
    fontFamily: z.string().min(1).max(500).optional(),
    fontSize: z.number().int().min(FONT_SIZE_MIN).max(FONT_SIZE_MAX).optional(),
    theme: z.enum(THEME_NAMES).optional(),
    /** Colours over the theme's. */
    colors: ColoursSchema.optional(),
    /**
     * A desktop notification when an agent needs you: `off` (the default: the tag, the
     * status line and the notices strip say it) or `when-hidden` (also a desktop
     * notification, while its pane is not on screen: another session, behind a zoom,
     * or the window hidden or unfocused).
     */
    agentNotifications: z.enum(['off', 'when-hidden']).optional(),
    /**
     * Predictive local echo, as Mosh does: typed characters drawn at once, underlined
     * until the program's echo confirms them, dropped when it does not. `off` (the
     * default), `auto` (only while a pane's echo is slow, or for a pane of another
     * host) or `always`. Never on the alternate screen (editors, pagers).
     */
    predictiveEcho: z.enum(PREDICTIVE_ECHO_MODES).optional(),
    /**
     * Which window's size a session is laid out in when several show it (tmux's
     * window-size): `latest` (the default: the window last resized or typed in),
     * `smallest` (every window sees it whole) or `largest`. A grant's guest never counts.
     */
    windowSize: z.enum(WINDOW_SIZE_POLICIES).optional(),
    /**
     * Serve GET /metrics (Prometheus text) on the daemon's HTTP front: off by default.
     * A scrape is answered only to the window's own cookie or to a metrics grant's
     * bearer token (`pane grant new --metrics`), never to anyone else on the machine.
     */
    metricsScrape: z.boolean().optional(),
  })
  .strict());
export type SettingsFile = z.infer<typeof SettingsFileSchema>;

export const SettingsSchema = lazySchema(() => z.object({
  fontFamily: z.string(),
  fontSize: z.number().int(),
  theme: z.enum(THEME_NAMES),
  colors: z.record(z.string(), z.string()),
  agentNotifications: z.enum(['off', 'when-hidden']).default('off'),
  predictiveEcho: z.enum(PREDICTIVE_ECHO_MODES).default('off'),
  windowSize: z.enum(WINDOW_SIZE_POLICIES).default('latest'),
  metricsScrape: z.boolean().default(false),
}));
export type Settings = z.infer<typeof SettingsSchema>;

/** The settings in force: what `settings/get` answers and `settings/changed` carries. */
export const SettingsStateSchema = lazySchema(() => z.object({
  settings: SettingsSchema,
  /** Files that contributed (empty: defaults only). */
  sources: z.array(z.string()),
  /** Why the last edit was not applied; the previous settings stay in force. */
  errors: z.array(ConfigErrorSchema),
}));
export type SettingsState = z.infer<typeof SettingsStateSchema>;

const FALLBACKS = ['"Noto Color Emoji"', '"Noto Sans Mono CJK SC"', '"Noto Sans CJK SC"', 'monospace'];

/** The user's font list with the emoji/CJK fallbacks after it (those it does not name already). */
export function withFallbacks(family: string): string {
  const low = family.toLowerCase();
  const missing = FALLBACKS.filter((f) => !low.includes(f.replace(/"/g, '').toLowerCase()));
  return [family, ...missing].join(', ');
}

/** The settings from the defaults and an (already validated) file. */
export function resolveSettings(file: SettingsFile | undefined, sources: string[] = []): SettingsState {
  return {
    settings: {
      fontFamily: file?.fontFamily ? withFallbacks(file.fontFamily) : DEFAULT_FONT_FAMILY,
      fontSize: file?.fontSize ?? DEFAULT_FONT_SIZE,
      theme: file?.theme ?? 'dark',
      colors: Object.fromEntries(Object.entries(file?.colors ?? {}).filter((e): e is [string, string] => typeof e[1] === 'string')),
      agentNotifications: file?.agentNotifications ?? 'off',
      predictiveEcho: file?.predictiveEcho ?? 'off',
      windowSize: file?.windowSize ?? 'latest',
      metricsScrape: file?.metricsScrape ?? false,
    },
    sources,
    errors: [],
  };
}

/** Parses settings file text; errors name the file and the field. */
export function parseSettingsText(file: string, text: string): { ok: true; settings: SettingsFile } | { ok: false; errors: ConfigError[] } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { ok: false, errors: [{ file, field: '(json)', message: `not valid JSON: ${(e as Error).message}` }] };
  }
  const r = SettingsFileSchema.safeParse(json);
  if (r.success) return { ok: true, settings: r.data };
  return { ok: false, errors: r.error.issues.map((i) => ({ file, field: fieldOf(i.path), message: i.message })) };
}

export const settingsEventSchemas = {
  'settings/changed': SettingsStateSchema,
} as const;

export const settingsMethods = {
  'settings/get': method({
    params: lazySchema(() => z.object({})),
    result: SettingsStateSchema,
    cap: 'read',
    doc: 'The settings in force (font, size, theme; defaults merged with the user’s settings.json) and any error in that file.',
  }),
};
