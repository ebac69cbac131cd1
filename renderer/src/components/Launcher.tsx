// The launcher (Ctrl+Shift+K): the app files the server found in apps/ and the
// user's config dir, fuzzy-searched; Enter launches one beside the focused pane.
import { useMemo } from 'react';
import type { AppEntry } from '../../../kits/protocol/app';
import { client } from '../net/client';
import { selectSession, store, useApp } from '../store';
import { Highlight, Picker } from './Picker';

export async function launch(app: AppEntry): Promise<void> {
  const st = store.getState();
  const s = selectSession(st);
  const r = await client.act('apps/launch', { app: app.id, ...(s?.focused != null ? { pane: s.focused } : {}), ...(s ? { session: s.id } : {}) });
  if (r) st.notify('info', `launched ${app.name}`);
}

export function Launcher() {
  const apps = useApp((s) => s.apps.apps);
  const fields = useMemo(() => (a: AppEntry) => [a.name, [a.name, a.description ?? '', ...(a.keywords ?? []), a.signature].join(' ')], []);
  return (
    <Picker<AppEntry>
      id="launcher"
      title="launcher"
      placeholder="launch an app"
      items={apps}
      fields={fields}
      keyOf={(a) => a.id}
      empty={apps.length === 0 ? 'no app files found (apps/ or ~/.config/pane/apps/)' : 'no app matches'}
      onPick={(a) => void launch(a)}
      render={(a, hit) => (
        <>
          <span className="pk-kind">{a.source === 'user' ? 'user app' : 'app'}</span>
          <span className="pk-label">
            <Highlight text={a.name} hit={hit} />
          </span>
          <span className="pk-doc">{a.description ?? a.signature}</span>
        </>
      )}
    />
  );
}
