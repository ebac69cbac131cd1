import { describe, expect, it } from 'vitest';
import { configNotices } from './configNotices';

describe('configNotices', () => {
  it('says each file once, by its name first, with its first error and how many more', () => {
    const e = (field: string) => ({ file: '/home/u/.config/pane/apps/monitor.json', field, message: `Unrecognized key: "unit"` });
    const notices = configNotices('apps', [e('widget.children.1.columns.4'), e('widget.children.1.columns.5'), e('widget.children.2.columns.3'), { file: '/home/u/.config/pane/apps/x.json', field: 'name', message: 'Required' }], '');
    expect(notices).toEqual([
      { key: 'config:apps:/home/u/.config/pane/apps/monitor.json', text: 'monitor.json: widget.children.1.columns.4: Unrecognized key: "unit" (and 2 more errors in this file) — in /home/u/.config/pane/apps' },
      { key: 'config:apps:/home/u/.config/pane/apps/x.json', text: 'x.json: name: Required — in /home/u/.config/pane/apps' },
    ]);
  });

  it('says what is kept instead, and one more error in the singular', () => {
    const e = (field: string) => ({ file: '/c/keymap.json', field, message: 'unknown action' });
    expect(configNotices('keymap', [e('a'), e('b')], ' (previous keymap kept)')[0]!.text).toBe('keymap.json: a: unknown action (and 1 more error in this file) (previous keymap kept) — in /c');
    expect(configNotices('settings', [], '')).toEqual([]);
  });
});
