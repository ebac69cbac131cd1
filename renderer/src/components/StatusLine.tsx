// One line at the bottom: the session, the prefix mode, zoom (pane and font), a
// config error if a user's file is broken (the previous one stays), the agents that
// want the person (waiting, working, unread mail — always shown), the connection,
// key hints.
import { shown } from '../../../kits/protocol/shown';
import { bindingFor } from '../keys/bindingFor';
import { agentCounts } from '../notices';
import { client } from '../net/client';
import { LINK_DEAD_MS } from '../net/link';
import { selectSession, useApp } from '../store';
import { useShallow } from 'zustand/react/shallow';

export function StatusLine() {
  const session = useApp(selectSession);
  const count = useApp((s) => Object.values(s.panes).filter((p) => p.session === s.sessionId).length);
  const prefix = useApp((s) => s.prefixArmed);
  const synced = useApp((s) => (s.sessionId !== null && s.synced[s.sessionId] === true));
  const syncKey = useApp((s) => bindingFor(s.keymap, 'input.sync'));
  const keymap = useApp((s) => s.keymap);
  const settings = useApp((s) => s.settings);
  const zoom = useApp((s) => s.fontZoom);
  const conn = useApp((s) => s.conn);
  const viewer = useApp((s) => s.viewer);
  const context = useApp((s) => (s.context && s.context.session === s.sessionId ? s.context.name : null));
  const sr = useApp((s) => s.screenReader);
  const agents = useApp(useShallow((s) => agentCounts(s.panes)));
  const err = keymap.errors[0];
  const serr = settings.errors[0];
  const zoomedName = useApp((s) => {
    const z = selectSession(s)?.zoomed;
    return z != null ? (s.panes[z]?.tag.name || `pane ${z}`) : null;
  });
  const waitKey = bindingFor(keymap, 'agent.nextWaiting');
  // The dock's strip: hidden panes, each a button that shows it again (the dock key lists every pane).
  const hidden = useApp(useShallow((s) => (selectSession(s)?.floating ?? []).filter((f) => !f.visible).map((f) => f.pane)));
  const names = useApp((s) => s.panes);
  const dockKey = bindingFor(keymap, 'dock.open');
  return (
    <footer className="statusline" aria-label="status">
      <span className="sl-session" title={[session ? shown(session.name) : '', bindingFor(keymap, 'session.switcher') ? `sessions: ${bindingFor(keymap, 'session.switcher')}` : ''].filter((x) => x !== '').join(' — ') || undefined}>
        {session ? `${shown(session.name)} · ${count} pane${count === 1 ? '' : 's'}` : 'no session'}
      </span>
      {context !== null ? (
        <span className="sl-context" role="status" title="this window's own focus and zoom (session/context); the session's other windows keep theirs">
          context {shown(context)}
        </span>
      ) : null}
      {zoomedName !== null ? <span className="sl-zoom" role="status">ZOOM {zoomedName}</span> : null}
      {zoom !== 0 ? <span className="sl-font" role="status">font {settings.settings.fontSize + zoom}px</span> : null}
      {prefix ? <span className="sl-prefix" role="status">PREFIX</span> : null}
      {synced ? (
        <span className="sl-sync" role="status" title={`typing goes to every terminal pane on screen (the marked ones)${syncKey ? `; ${syncKey} stops it` : ''}`}>
          SYNC
        </span>
      ) : null}
      {viewer && conn.state === 'open' ? (
        <span className="sl-viewer" role="status" title={`attach grant ${viewer.id}`}>
          {viewer.mode === 'ro' ? 'READ-ONLY' : 'GUEST'} · until {new Date(viewer.expiresAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}
        </span>
      ) : null}
      {conn.state === 'open' && conn.link?.slow ? (
        <span className="sl-link" role="status" title={`round trip ${conn.link.rttMs} ms: each pane shows its screen first, without its older history (?link=fast in the address pulls it)`}>
          slow link · {conn.link.rttMs} ms
        </span>
      ) : null}
      {sr ? <span className="sl-sr">screen reader</span> : null}
      {err ? (
        <span className="sl-error" role="alert">
          keymap error: {err.file}: {err.field}: {err.message} — previous keymap kept
        </span>
      ) : null}
      {serr ? (
        <span className="sl-error" role="alert">
          settings error: {serr.file}: {serr.field}: {serr.message} — previous settings kept
        </span>
      ) : null}
      {hidden.length > 0 ? (
        <span className="sl-hidden" role="group" aria-label="hidden panes" title={dockKey ? `dock: ${dockKey}` : undefined}>
          hidden:
          {hidden.map((n) => (
            <button key={n} type="button" className="sl-chip" onClick={() => void client.act('pane/hide', { pane: n, hidden: false })}>
              {shown(names[n]?.tag.name || `pane ${n}`)}
            </button>
          ))}
        </span>
      ) : null}
      <span className="sl-fill" />
      {/* A grant's guest sees one session's panes and no agents: counts of none told it nothing. */}
      {viewer ? null : (
        <span
          className="sl-agents"
          role="status"
          aria-label={`agents: ${agents.waiting} need you, ${agents.working} working, ${agents.done} done, ${agents.ready > 0 ? `${agents.ready} ready, ` : ''}${agents.unread} with unread mail`}
          title={waitKey ? `${waitKey} focuses the next agent waiting` : undefined}
        >
          <span className={agents.waiting > 0 ? 'sl-waiting' : ''}>{agents.waiting} need you</span> · {agents.working} working · {agents.done} done{agents.ready > 0 ? ` · ${agents.ready} ready` : ''} · ✉ {agents.unread}
        </span>
      )}
      <span className="sl-hints">
        {bindingFor(keymap, 'palette.open') ?? ''} palette · {bindingFor(keymap, 'launcher.open') ?? ''} launcher
      </span>
      {conn.state === 'open' && conn.silentMs !== undefined ? (
        <span className="sl-conn sl-silent" role="status" title={`the server has not answered for ${Math.floor(conn.silentMs / 1000)} s: the link may be down; the window connects again after ${LINK_DEAD_MS / 1000} s`}>
          no answer · {Math.floor(conn.silentMs / 1000)} s
        </span>
      ) : (
        <span className={`sl-conn sl-${conn.state}`} role="status" title={conn.state !== 'open' && conn.detail ? conn.detail : undefined}>
          {conn.state === 'open' ? 'connected' : conn.state === 'connecting' ? 'connecting…' : conn.state === 'ended' ? 'disconnected' : 'reconnecting…'}
        </span>
      )}
    </footer>
  );
}
