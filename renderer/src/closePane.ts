// Closing a pane from the window: the server refuses (busy) when something other
// than an idle shell would end, naming it, and the window then asks the person.
// Scripts (the CLI, ctl files) never ask: they call pane/close without unlessBusy.
import { PaneFault } from '../../kits/protocol/error';
import { client } from './net/client';
import { store } from './store';

export async function closePane(pane: number): Promise<void> {
  try {
    await client.call('pane/close', { pane, unlessBusy: true });
  } catch (e) {
    const st = store.getState();
    if (e instanceof PaneFault && e.code === 'busy') return st.setOverlay({ kind: 'confirm-close', pane, program: e.reason ?? 'a program' });
    st.notify('error', `pane/close: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** The person said yes: close without asking again. */
export async function closePaneNow(pane: number): Promise<void> {
  await client.act('pane/close', { pane });
}
