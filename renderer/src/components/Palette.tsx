// The command palette (Ctrl+Shift+P): the focused pane's vocabulary — the same list
// the server publishes for it, not a second one — and the global actions, each with
// its key binding. "word args" typed in full shows the word's usage and runs only
// when the args check (kits/protocol/commandArgs.ts, the server's own rules).
import { useCallback, useMemo } from 'react';
import { parseArgs, usage } from '../../../kits/protocol/commandArgs';
import { ACTION_IDS, ACTIONS, VIEW_ONLY_ACTIONS, type Action } from '../../../kits/protocol/keymap';
import type { PaneCommand } from '../../../kits/protocol/model';
import { runAction } from '../actions';
import { bindingFor } from '../keys/bindingFor';
import { selectSession, useApp } from '../store';
import { Highlight, Picker } from './Picker';
import { execWord } from './UserText';

type Item = { kind: 'command'; cmd: PaneCommand; pane: number } | { kind: 'action'; action: Action; title: string };

const NO_COMMANDS: PaneCommand[] = [];

/** Vocabulary words that do what a global action does, so they show its chord too. */
const SAME_AS: Record<string, Action> = { zoom: 'pane.zoom', close: 'pane.close', float: 'pane.float', tile: 'pane.float', split: 'pane.split.horizontal' };

export function Palette() {
  const focused = useApp((s) => selectSession(s)?.focused ?? null);
  const vocabulary = useApp((s) => (focused !== null ? s.panes[focused]?.vocabulary : undefined) ?? NO_COMMANDS);
  const paneName = useApp((s) => (focused !== null ? s.panes[focused]?.tag.name : undefined));
  const keymap = useApp((s) => s.keymap);
  // A read-only viewer is offered what it can do: no word of the pane (its tag shows none), only actions that change nothing.
  const readOnly = useApp((s) => s.viewer?.mode === 'ro');

  const items = useMemo<Item[]>(() => {
    const cmds: Item[] = focused === null || readOnly ? [] : vocabulary.map((cmd) => ({ kind: 'command', cmd, pane: focused }));
    const acts: Item[] = ACTION_IDS.filter((a) => !readOnly || VIEW_ONLY_ACTIONS.has(a)).map((a) => ({ kind: 'action', action: a, title: ACTIONS[a] }));
    return [...cmds, ...acts];
  }, [vocabulary, focused, readOnly]);

  const fields = useMemo(() => (it: Item) => (it.kind === 'command' ? [it.cmd.name, `${it.cmd.name} ${it.cmd.doc}`] : [it.title, it.action]), []);

  // "split v 50": the word of the focused pane's vocabulary, with its args checked.
  const withArgs = useCallback(
    (q: string) => {
      const m = /^\s*(\S+)\s+(.*)$/s.exec(q);
      const cmd = m && !readOnly ? vocabulary.find((c) => c.name === m[1]) : undefined;
      if (!m || !cmd || focused === null) return null;
      const args = cmd.args.length === 0 ? (m[2]!.trim() === '' ? {} : `${cmd.name} takes no arguments`) : parseArgs(cmd, m[2]!.trim());
      return { item: { kind: 'command', cmd, pane: focused } as Item, usage: usage(cmd), error: typeof args === 'string' ? args : null };
    },
    [vocabulary, focused, readOnly],
  );
  // A word that cannot run bare ("resize", "name") is typed out for its arguments instead.
  const argsFirst = useCallback((it: Item) => (it.kind === 'command' && it.cmd.args.some((a) => !a.optional) ? `${it.cmd.name} ` : null), []);

  return (
    <Picker<Item>
      id="palette"
      title="command palette"
      placeholder={paneName ? `commands for ${paneName}, and global actions` : 'global actions'}
      items={items}
      fields={fields}
      keyOf={(it) => (it.kind === 'command' ? `c:${it.cmd.name}` : `a:${it.action}`)}
      withArgs={withArgs}
      argsFirst={argsFirst}
      onPick={(it, q) => {
        if (it.kind === 'command') void execWord(it.pane, q.startsWith(`${it.cmd.name} `) ? q : it.cmd.name, 'palette');
        else void runAction(it.action);
      }}
      render={(it, hit) => {
        const chord =
          it.kind === 'command'
            ? (bindingFor(keymap, `exec ${it.cmd.name}`) ?? (SAME_AS[it.cmd.name] ? bindingFor(keymap, SAME_AS[it.cmd.name]!) : undefined))
            : bindingFor(keymap, it.action);
        return (
          <>
            <span className="pk-kind">{it.kind === 'command' ? 'pane' : 'global'}</span>
            <span className="pk-label">
              {it.kind === 'command' ? <Highlight text={it.cmd.name} hit={hit} /> : it.title}
              {it.kind === 'command' && it.cmd.args.length > 0 ? <span className="pk-args"> {usage(it.cmd).slice(it.cmd.name.length + 1)}</span> : null}
            </span>
            <span className="pk-doc">{it.kind === 'command' ? it.cmd.doc : it.action}</span>
            {chord ? <kbd className="pk-key">{chord}</kbd> : null}
          </>
        );
      }}
    />
  );
}
