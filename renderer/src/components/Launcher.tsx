// The launcher (Ctrl+Shift+K): the app files the server found in apps/ and the
// user's config dir, ranked by name and keywords first (ui/appMatch.ts); Enter
// launches one beside the focused pane. Apps whose program is missing say how to get it.
import { shown } from '../../../kits/protocol/shown';
import { useEffect, useMemo, useState } from 'react';
import { installHint, type AppEntry } from '../../../kits/protocol/app';
import type { Pane } from '../../../kits/protocol/model';
import { client } from '../net/client';
import { selectSession, store, useApp } from '../store';
import { appKeys, appText, launcherOrder } from '../ui/appMatch';
import { Highlight, Picker } from './Picker';

export async function launch(app: AppEntry): Promise<void> {
  const st = store.getState();
  if (app.installed === false) return st.notify('warn', `${app.name} is not installed (${app.launch?.program} is not on PATH): ${installHint(app)}`);
  const s = selectSession(st);
  const r = await client.act('apps/launch', { app: app.id, ...(s?.focused != null ? { pane: s.focused } : {}), ...(s ? { session: s.id } : {}) });
  if (r) st.notify('info', `launched ${app.name}`);
}

/** Tiles a joined host's pane beside the focused pane (host/show: a local stand-in, decision 037). */
export async function showRemote(p: Pane): Promise<void> {
  const st = store.getState();
  const s = selectSession(st);
  const r = await client.act('host/show', { remote: `${p.host}:${p.n}`, ...(s?.focused != null ? { pane: s.focused } : {}), ...(s ? { session: s.id } : {}) });
  if (r) st.notify('info', `showing ${p.host}:${p.n} as pane ${r.pane}`);
}

/** A launcher row: an app file, or a joined host's pane to tile here. */
type Item = AppEntry | { remote: Pane };
const isRemote = (i: Item): i is { remote: Pane } => 'remote' in i;
const remoteName = (p: Pane) => shown(`${p.host}:${p.n} ${p.tag.name}`);

export function Launcher() {
  const apps = useApp((s) => s.apps.apps);
  const [remotes, setRemotes] = useState<Pane[]>([]);
  // PATH may have changed since the list was loaded (someone installed claude): ask again on open.
  useEffect(() => {
    // A refusal (too-large: app files past a frame) is shown; the list already loaded stays.
    void client.act('apps/list', {}).then((l) => l && store.getState().setApps(l));
    // The joined hosts' panes, as each answered its last heartbeat (none when no host is joined).
    void client.call('host/list', { panes: true }).then((l) => setRemotes(l.panes ?? []), () => undefined);
  }, []);
  // What runs here first, then joined hosts' panes, then what is to install (ties in a search keep this order too).
  const items = useMemo<Item[]>(() => {
    const { runs, toInstall } = launcherOrder(apps);
    return [...runs, ...remotes.map((remote) => ({ remote })), ...toInstall];
  }, [apps, remotes]);
  return (
    <Picker<Item>
      id="launcher"
      title="launcher"
      placeholder="launch an app, or show a remote pane"
      items={items}
      fields={(i) => (isRemote(i) ? [remoteName(i.remote), i.remote.cwd] : appText(i))}
      keys={(i) => (isRemote(i) ? [remoteName(i.remote), `${i.remote.host}:${i.remote.n}`, i.remote.host] : appKeys(i))}
      keyOf={(i) => (isRemote(i) ? `remote:${i.remote.host}:${i.remote.n}` : i.id)}
      empty={items.length === 0 ? 'no app files found (apps/ or ~/.config/pane/apps/)' : 'no app matches'}
      onPick={(i) => void (isRemote(i) ? showRemote(i.remote) : launch(i))}
      render={(i, hit) => (isRemote(i) ? (
        <>
          <span className="pk-kind">remote</span>
          <span className="pk-label">
            <Highlight text={remoteName(i.remote)} hit={hit} />
          </span>
          <span className="pk-doc">{shown(`tile pane ${i.remote.n} of host ${i.remote.host} here (${i.remote.cwd})`)}</span>
        </>
      ) : (
        <>
          <span className={`pk-kind${i.installed === false ? ' pk-missing' : ''}`}>{i.installed === false ? 'to install' : i.source === 'user' ? 'user app' : 'app'}</span>
          <span className="pk-label">
            <Highlight text={i.name} hit={hit} />
          </span>
          <span className="pk-doc">{i.installed === false ? `${i.launch?.program} is not on PATH — ${installHint(i)}` : (i.description ?? i.signature)}</span>
        </>
      ))}
    />
  );
}
