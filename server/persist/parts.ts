// Other families' state that must survive the daemon (agents' live state and last
// prompts, hook sessions, the delivery queue): each registers a part here, saved into
// the snapshot's `extra` and journalled whenever an event of its families fires. The
// persistence service is handed its parts (PersistOptions.parts); nothing registers at import.
import type { Pane } from '../../kits/protocol/model';
import type { AgentService } from '../agents/service';
import type { ConfigService } from '../config/configService';
import type { PaneServer } from '../paneServer';

/**
 * What persistence and its parts use of the rest of the server: the state owner, and,
 * asked at each use because they attach or start later, the agents service and the
 * config (apps' resume forms).
 */
export interface PersistDeps {
  server: PaneServer;
  agents: () => AgentService | undefined;
  config: () => ConfigService;
}

export interface PersistPart {
  /** Key in the state file's `extra`. */
  family: string;
  /** Event families whose events change this part's state (e.g. 'agent'). */
  families: string[];
  save(deps: PersistDeps): unknown;
  /** Called at start-up, before resurrection, with what was saved (validate it: it came from disk). */
  load(deps: PersistDeps, saved: unknown): void;
  /** The conversation a pane's agent would resume, if this part knows one. */
  resumeOf?(deps: PersistDeps, pane: Pane): { agent: string; session: string } | undefined;
}

