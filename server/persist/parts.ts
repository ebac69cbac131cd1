// Other families' state that must survive the daemon (agents' live state and last
// prompts, hook sessions, the delivery queue): each registers a part here, saved into
// the snapshot's `extra` and journalled whenever an event of its families fires.
import type { Pane } from '../../kits/protocol/model';
import type { PaneServer } from '../paneServer';

export interface PersistPart {
  /** Key in the state file's `extra`. */
  family: string;
  /** Event families whose events change this part's state (e.g. 'agent'). */
  families: string[];
  save(server: PaneServer): unknown;
  /** Called at start-up, before resurrection, with what was saved (validate it: it came from disk). */
  load(server: PaneServer, saved: unknown): void;
  /** The conversation a pane's agent would resume, if this part knows one. */
  resumeOf?(server: PaneServer, pane: Pane): { agent: string; session: string } | undefined;
}

export const persistParts: PersistPart[] = [];
