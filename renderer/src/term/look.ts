// How terminals look: the font, its size (the settings' size plus this window's zoom
// steps) and the colour theme, from settings.json as the server publishes it. The
// built-in palettes live here; the settings file names one and may override colours.
import type { ITheme } from '@xterm/xterm';
import { FONT_SIZE_MAX, FONT_SIZE_MIN, type Settings } from '../../../kits/protocol/settings';

export const THEMES: Record<Settings['theme'], ITheme & { chrome: Record<string, string> }> = {
  dark: {
    background: '#16181d', foreground: '#d7dae0', cursor: '#e5c07b', selectionBackground: '#3e4451',
    black: '#282c34', red: '#e06c75', green: '#98c379', yellow: '#e5c07b', blue: '#61afef', magenta: '#c678dd', cyan: '#56b6c2', white: '#d7dae0',
    brightBlack: '#5c6370', brightRed: '#ef8189', brightGreen: '#a9d68b', brightYellow: '#f0d08f', brightBlue: '#7cc0f5', brightMagenta: '#d58fe6', brightCyan: '#6fcad5', brightWhite: '#ffffff',
    chrome: { '--bg': '#0f1115', '--pane-bg': '#16181d', '--tag-bg': '#20232a', '--tag-bg-focused': '#2c3340', '--fg': '#d7dae0', '--dim': '#9aa1ad', '--divider': '#2a2e36', '--accent': '#e5c07b', '--chip-bg': '#262a33', '--status-bg': '#1a1d23' },
  },
  light: {
    background: '#fafafa', foreground: '#383a42', cursor: '#526fff', selectionBackground: '#cfd6e6',
    black: '#383a42', red: '#e45649', green: '#50a14f', yellow: '#986801', blue: '#4078f2', magenta: '#a626a4', cyan: '#0184bc', white: '#a0a1a7',
    brightBlack: '#696c77', brightRed: '#e06c75', brightGreen: '#62b35f', brightYellow: '#c18401', brightBlue: '#61afef', brightMagenta: '#c678dd', brightCyan: '#56b6c2', brightWhite: '#ffffff',
    chrome: { '--bg': '#e5e5e6', '--pane-bg': '#fafafa', '--tag-bg': '#eaeaeb', '--tag-bg-focused': '#d4dcef', '--fg': '#383a42', '--dim': '#585b66', '--divider': '#c8c8ca', '--accent': '#9a6700', '--chip-bg': '#dcdde2', '--status-bg': '#dedee0' },
  },
};

/** One zoom step, in CSS pixels (Ctrl+= / Ctrl+-). */
export const ZOOM_STEP_PX = 1;

export interface Look {
  fontFamily: string;
  fontSize: number;
  theme: ITheme;
  chrome: Record<string, string>;
}

/** The look from the settings and the window's zoom steps (the size stays within the settings' bounds). */
export function lookOf(s: Settings, zoom: number): Look {
  const base = THEMES[s.theme] ?? THEMES.dark;
  const { chrome, ...palette } = base;
  const theme: ITheme = { ...palette, ...s.colors };
  const fontSize = Math.min(FONT_SIZE_MAX, Math.max(FONT_SIZE_MIN, s.fontSize + zoom * ZOOM_STEP_PX));
  const bg = s.colors.background;
  return { fontFamily: s.fontFamily, fontSize, theme, chrome: bg ? { ...chrome, '--pane-bg': bg } : chrome };
}
