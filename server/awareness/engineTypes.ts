// The engine's contract with its host: the events it emits, the state it is
// built from and hands back (one part per state file), and the options that
// inject time, ids and what the server knows about agents.
import type { AgentState } from '../../kits/protocol/agent';
import type { AgentAwareness, Message, Prediction, PredictionState, Resolution } from '../../kits/protocol/awareness';
import type { ClaimChanges, ClaimsState } from './claims';
import type { Clock } from './clock';
import type { AwarenessConfig } from './config';
import type { LearnedState } from './domainBook';
import type { DomainMap } from './domains';
import type { Calibration } from './predictions';

export type AwarenessEvent =
  | { kind: 'agent'; agent: AgentAwareness }
  | { kind: 'predicted'; prediction: Prediction }
  | { kind: 'resolved'; resolution: Resolution }
  | { kind: 'calibrated'; calibration: Calibration }
  | { kind: 'claims'; changes: ClaimChanges }
  | { kind: 'message'; message: Message }
  | { kind: 'delivered'; agent: string; messages: Message[] }
  | { kind: 'collision'; a: string; b: string; file: string }
  | { kind: 'learned'; topic: string; domain: string };

/** The parts of the state that live in separate files. */
export type Part = 'registry' | 'claims' | 'predictions' | 'learned';

export interface AwarenessState {
  agents: AgentAwareness[];
  messages: Message[];
  claims: ClaimsState;
  predictions: PredictionState;
  learned: LearnedState;
}

export interface AwarenessOptions {
  config?: Partial<AwarenessConfig>;
  clock?: Clock;
  /** The configured domain map (default: a small built-in one). */
  domains?: DomainMap;
  ids?: () => string;
  /** The server knows more: e.g. the agent's pane has exited. */
  externalStale?: (name: string) => boolean;
  /** The agents' status machine, where it has one: waiting or idle means free for work. */
  externalIdle?: (name: string) => boolean | undefined;
  /** The agent's state as finger shows it (done, needs you, ...), where the agents service knows it. */
  externalState?: (name: string) => AgentState | undefined;
  /** The repository a directory belongs to (its git top level), or null; convergence weighs one repository over two. */
  repoOf?: (cwd: string) => string | null;
  onEvent?: (e: AwarenessEvent) => void;
  onChange?: (parts: Part[]) => void;
  state?: AwarenessState;
}
