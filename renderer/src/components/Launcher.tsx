// The launcher (Ctrl+Shift+K): the app files the server found in apps/ and the
// user's config dir, ranked by name and keywords first (ui/appMatch.ts); Enter
// launches one beside the focused pane. Apps whose program is missing say how to get it.
import { useEffect } from 'react';
import { installHint, type AppEntry } from '../../../kits/protocol/app';
import { client } from '../net/client';
import { selectSession, store, useApp } from '../store';
import { appKeys, appText } from '../ui/appMatch';
import { Highlight, Picker } from './Picker';

export async function launch(app: AppEntry): Promise<void> {
  const st = store.getState();
  if (app.installed === false) return st.notify('warn', `${app.name} is not installed (${app.launch?.program} is not on PATH): ${installHint(app)}`);
  const s = selectSession(st);
  const r = await client.act('apps/launch', { app: app.id, ...(s?.focused != null ? { pane: s.focused } : {}), ...(s ? { session: s.id } : {}) });
  if (r) st.notify('info', `launched ${app.name}`);
}

export function Launcher() {
  const apps = useApp((s) => s.apps.apps);
  // PATH may have changed since the list was loaded (someone installed claude): ask again on open.
  useEffect(() => {
    // A refusal (too-large: app files past a frame) is shown; the list already loaded stays.
    void client.act('apps/list', {}).then((l) => l && store.getState().setApps(l));
  }, []);
  return (
    <Picker<AppEntry>
      id="launcher"
      title="launcher"
      placeholder="launch an app"
      items={apps}
      fields={appText}
      keys={appKeys}
      keyOf={(a) => a.id}
      empty={apps.length === 0 ? 'no app files found (apps/ or ~/.config/pane/apps/)' : 'no app matches'}
      onPick={(a) => void launch(a)}
      render={(a, hit) => (
        <>
          <span className="pk-kind">{a.source === 'user' ? 'user app' : 'app'}</span>
          <span className="pk-label">
            <Highlight text={a.name} hit={hit} />
            {a.installed === false ? <span className="pk-missing"> not installed</span> : null}
          </span>
          <span className="pk-doc">{a.installed === false ? `${a.launch?.program} is not on PATH — ${installHint(a)}` : (a.description ?? a.signature)}</span>
        </>
      )}
    />
  );
}
