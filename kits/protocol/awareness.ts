// The awareness family: what agents are on (topics, trajectories), what they say
// to each other (messages), what they hold (claims) and where they are heading
// (convergence predictions). The server's state files are these same shapes.
import { z } from 'zod';
import { AgentStateSchema } from './agent';
import { method } from './method';
import { lazySchema } from './lazySchema';

const name = lazySchema(() => z.string().min(1).max(100));
const ms = lazySchema(() => z.number());

/** The eight message types: what a message asks of its reader. */
export const MessageTypeSchema = lazySchema(() => z.enum([
  /** Facts for the reader's context; no answer expected. */
  'info',
  /** Asks the reader something; an `answer` is expected. */
  'question',
  /** Replies to a `question`. */
  'answer',
  /** Asks the reader to do something (or to stop doing it). */
  'request',
  /** Passes work over, with the sender's context (what `awareness/handoff` sends). */
  'handoff',
  /** A hazard: a collision, a claim conflict, a broken build. */
  'warning',
  /** The sender finished something the reader may wait on. */
  'done',
  /** Receipt of a message; closes a `request` or `handoff`. */
  'ack',
]));
export type MessageType = z.infer<typeof MessageTypeSchema>;

export const PrioritySchema = lazySchema(() => z.enum(['low', 'normal', 'high', 'urgent']));
export type Priority = z.infer<typeof PrioritySchema>;

/** Who a message is for: one agent, whoever is in a pane, whoever sits in a quadrant, or everyone. */
export const TargetSchema = lazySchema(() => z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('agent'), name }),
  z.object({ kind: z.literal('pane'), pane: z.number().int().positive() }),
  z.object({ kind: z.literal('quadrant'), quadrant: z.string().min(1).max(32) }),
  z.object({ kind: z.literal('all') }),
]));
export type Target = z.infer<typeof TargetSchema>;

export const MessageSchema = lazySchema(() => z.object({
  id: z.string(),
  from: name,
  target: TargetSchema,
  type: MessageTypeSchema,
  priority: PrioritySchema,
  text: z.string().max(8000),
  at: ms,
  /** Agents it has been handed to (as hook context or through `awareness/inbox`). */
  deliveredTo: z.array(z.string()),
}));
export type Message = z.infer<typeof MessageSchema>;

/** A claim covers one file, a directory (everything under it), or a glob (`*`, `**`, `?`). */
export const ResourceKindSchema = lazySchema(() => z.enum(['file', 'dir', 'glob']));
export type ResourceKind = z.infer<typeof ResourceKindSchema>;
export const ClaimScopeSchema = lazySchema(() => z.enum(['exclusive', 'shared']));
export type ClaimScope = z.infer<typeof ClaimScopeSchema>;

export const ClaimSchema = lazySchema(() => z.object({
  id: z.string(),
  kind: ResourceKindSchema,
  /** Absolute path (or absolute glob), normalized. */
  path: z.string(),
  holder: name,
  scope: ClaimScopeSchema,
  reason: z.string().max(500),
  claimedAt: ms,
  /** When a TTL was given, the claim lapses at this time. */
  expiresAt: ms.nullable(),
  contestedBy: z.string().nullable(),
  contestedAt: ms.nullable(),
  /** What the contester asked for: exactly that is its claim when the contest times out (not the holder's, maybe broader, one). */
  contestFor: z.object({ kind: ResourceKindSchema, path: z.string(), scope: ClaimScopeSchema }).nullable().optional(),
}));
export type Claim = z.infer<typeof ClaimSchema>;

export const ClaimLogEntrySchema = lazySchema(() => z.object({
  at: ms,
  /** `kept`: the holder answered the contester with a message, so the contest is dropped and the claim stays. */
  action: z.enum(['claimed', 'released', 'contested', 'kept', 'force-released', 'transferred', 'expired', 'holder-stale']),
  kind: ResourceKindSchema,
  path: z.string(),
  holder: z.string(),
  /** Who caused it, when not the holder (the contester, the cleaner). */
  by: z.string().nullable(),
}));
export type ClaimLogEntry = z.infer<typeof ClaimLogEntrySchema>;

export const TrajectorySchema = lazySchema(() => z.object({
  deepening: z.array(z.string()),
  emerging: z.array(z.string()),
  fading: z.array(z.string()),
  stable: z.array(z.string()),
}));
export type Trajectory = z.infer<typeof TrajectorySchema>;

/** One turn of an agent: the topics of its prompt plus what its tools touched. */
export const SnapshotSchema = lazySchema(() => z.object({
  at: ms,
  hash: z.string(),
  topics: z.array(z.string()),
  /** Files its tools touched in that turn. */
  files: z.array(z.string()),
  /** Files its prompt named (`src/auth/token.ts:42`), resolved against its cwd: two agents asked about one file converge, whatever their words (state from before this field reads as none). */
  mentions: z.array(z.string()).max(16).default([]),
}));
export type Snapshot = z.infer<typeof SnapshotSchema>;

export const AgentAwarenessSchema = lazySchema(() => z.object({
  name,
  pane: z.number().int().positive().nullable(),
  quadrant: z.string().nullable(),
  cwd: z.string().nullable(),
  lastPrompt: z.string().max(2000).nullable(),
  promptCount: z.number().int().min(0),
  keyTopics: z.array(z.string()),
  window: z.array(SnapshotSchema),
  trajectory: TrajectorySchema,
  createdAt: ms,
  lastActive: ms,
  /** Set when its session ended: it leaves predictions and its claims are released. */
  endedAt: ms.nullable(),
}));
export type AgentAwareness = z.infer<typeof AgentAwarenessSchema>;

export const PredictionTypeSchema = lazySchema(() => z.enum(['mutual-deepening', 'approaching', 'cross-approach', 'domain-proximity']));
export type PredictionType = z.infer<typeof PredictionTypeSchema>;
export const OutcomeSchema = lazySchema(() => z.enum(['prevented', 'occurred', 'false-positive', 'expired']));
export type Outcome = z.infer<typeof OutcomeSchema>;

export const PredictionSchema = lazySchema(() => z.object({
  id: z.string(),
  type: PredictionTypeSchema,
  /** For cross-approach, `a` is the one moving onto `b`'s ground. */
  a: name,
  b: name,
  topics: z.array(z.string()),
  domain: z.string().nullable(),
  confidence: z.number().min(0).max(1),
  /** Approaching only: prompts until the two likely collide. */
  distance: z.number().int().min(0).nullable(),
  recommendation: z.string(),
  createdAt: ms,
  updatedAt: ms,
  /** Passes in a row that no longer found it (resolution waits for two). */
  misses: z.number().int().min(0),
}));
export type Prediction = z.infer<typeof PredictionSchema>;

export const ResolutionSchema = lazySchema(() => PredictionSchema.extend({ outcome: OutcomeSchema, resolvedAt: ms }));
export type Resolution = z.infer<typeof ResolutionSchema>;

export const AccuracySchema = lazySchema(() => z.object({
  prevented: z.number().int().min(0),
  occurred: z.number().int().min(0),
  falsePositive: z.number().int().min(0),
  expired: z.number().int().min(0),
  /** Collisions nobody predicted (counted as occurred for calibration). */
  missed: z.number().int().min(0),
  thresholdAdjustments: z.number().int().min(0),
}));
export type Accuracy = z.infer<typeof AccuracySchema>;

/** Outcomes since the last calibration; every `calibrateEvery` of them the threshold may move. */
export const BatchSchema = lazySchema(() => z.object({
  prevented: z.number().int().min(0),
  occurred: z.number().int().min(0),
  falsePositive: z.number().int().min(0),
  expired: z.number().int().min(0),
}));
export type Batch = z.infer<typeof BatchSchema>;

/**
 * What a window shows of convergence: one notice per pair of agents, whatever the
 * number or kind of predictions about them. Updated in place (same id) as topics,
 * places or predictions change; withdrawn when none of the pair's predictions is open.
 */
export const AwarenessNoticeSchema = lazySchema(() => z.object({
  /** "ada+bob": the pair, names sorted, so either order is the same notice. */
  id: z.string(),
  agents: z.tuple([name, name]),
  /** The union of the pair's open predictions' topics, strongest first. */
  topics: z.array(z.string()),
  /** "ada (top-left) and bob (bottom-right) converge on auth, jwt". */
  message: z.string(),
  panes: z.array(z.number().int().positive()),
  /** Ids of the open predictions it stands for. */
  predictions: z.array(z.string()),
  since: ms,
  updatedAt: ms,
  /** How many times it was updated in place (0 when new). */
  updates: z.number().int().min(0),
}));
export type AwarenessNotice = z.infer<typeof AwarenessNoticeSchema>;

export const PredictionStateSchema = lazySchema(() => z.object({
  active: z.array(PredictionSchema),
  resolved: z.array(ResolutionSchema),
  accuracy: AccuracySchema,
  batch: BatchSchema,
  /** The dynamic Jaccard threshold for approaching (and domain proximity), self-calibrated. */
  threshold: z.number().min(0).max(1),
}));
export type PredictionState = z.infer<typeof PredictionStateSchema>;

// ---- requests and events ---------------------------------------------------

/** An agent with its label ("ada (top-left)") as every view names it. */
/** `idle`: free for work (delegation's sense: not working); `state`: the agent's state as finger shows it, where the server's agents know it. */
export const AgentViewSchema = lazySchema(() => AgentAwarenessSchema.extend({ label: z.string(), stale: z.boolean(), idle: z.boolean(), state: AgentStateSchema.optional() }));
export type AgentView = z.infer<typeof AgentViewSchema>;

/**
 * The agent a request speaks for: an agent's own connection may omit it (and may
 * name only itself); a person names the agent.
 */
const who = { agent: lazySchema(() => name.optional()) };
/** A file, directory (trailing "/") or glob; relative ones resolve against `cwd`, else the agent's cwd. */
const resource = lazySchema(() => z.string().min(1).max(4096));
const cwd = lazySchema(() => z.string().max(4096).optional());

export const ClaimResultSchema = lazySchema(() => z.object({
  status: z.enum(['granted', 'conflict']),
  claim: ClaimSchema.nullable(),
  /** On conflict: the claims in the way (holder, quadrant via `labels`, reason). */
  conflicts: z.array(ClaimSchema),
  /** On conflict with `contest`: the claims now contested (force-released after the timeout). */
  contested: z.array(ClaimSchema),
  labels: z.record(z.string(), z.string()),
  contestTimeoutMs: z.number(),
}));

export const HandoffSchema = lazySchema(() => z.object({
  from: name,
  to: name,
  summary: z.string(),
  trajectory: z.array(z.string()),
  detail: z.array(z.string()),
  text: z.string(),
  /** The handoff message sent to `to`, unless send was false. */
  message: MessageSchema.nullable(),
}));

export const SuggestionSchema = lazySchema(() => z.object({ agent: name, label: z.string(), score: z.number(), matched: z.array(z.string()), reason: z.string() }));

export const awarenessMethods = {
  'awareness/prompt': method({
    params: lazySchema(() => z.object({ ...who, text: z.string().max(100_000), cwd })),
    result: lazySchema(() => z.object({ agent: AgentViewSchema, topics: z.array(z.string()), predicted: z.array(PredictionSchema) })),
    cap: 'write',
    doc: 'Records a prompt of an agent: its topics join the trajectory and a convergence pass runs.',
  }),
  'awareness/tool': method({
    params: lazySchema(() => z.object({ ...who, tool: z.string().max(100).default(''), files: z.array(z.string().max(4096)).max(1000), write: z.boolean().default(false), cwd })),
    result: lazySchema(() => z.object({ agent: name, collisions: z.array(z.string()), claimed: z.array(ClaimSchema), warning: z.string() })),
    cap: 'write',
    doc: 'Records tool activity (files touched; write for edits): joins the trajectory; a write into another agent’s claim or recent write is a collision.',
  }),
  'awareness/agents': method({
    params: lazySchema(() => z.object({ all: z.boolean().default(false) })),
    result: lazySchema(() => z.object({ agents: z.array(AgentViewSchema) })),
    cap: 'read',
    doc: 'Every live agent (all: stale ones too) with key topics, trajectory and quadrant.',
  }),
  'awareness/claim': method({
    params: lazySchema(() => z.object({
      ...who,
      resource,
      kind: ResourceKindSchema.optional(),
      scope: ClaimScopeSchema.default('exclusive'),
      reason: z.string().max(500).default(''),
      ttlSeconds: z.number().positive().max(7 * 24 * 3600).optional(),
      contest: z.boolean().default(false),
      cwd,
    })),
    result: ClaimResultSchema,
    cap: 'write',
    doc: 'Claims a file, directory or glob (advisory); on conflict names the holders, and with contest starts the contest timeout.',
  }),
  'awareness/release': method({
    params: lazySchema(() => z.object({ ...who, resource, kind: ResourceKindSchema.optional(), force: z.boolean().default(false), cwd })),
    result: lazySchema(() => z.object({ released: z.array(ClaimSchema) })),
    cap: 'write',
    doc: 'Releases the caller’s claim on a resource (force: anyone’s, for a person clearing up).',
  }),
  'awareness/claims': method({
    params: lazySchema(() => z.object({ log: z.boolean().default(false) })),
    result: lazySchema(() => z.object({ claims: z.array(ClaimSchema), labels: z.record(z.string(), z.string()), log: z.array(ClaimLogEntrySchema) })),
    cap: 'read',
    doc: 'Live claims (stale and lapsed ones are cleaned first); log: the claim history too.',
  }),
  'awareness/check': method({
    params: lazySchema(() => z.object({ ...who, resource, cwd })),
    result: lazySchema(() => z.object({ path: z.string(), claims: z.array(ClaimSchema), warning: z.string() })),
    cap: 'read',
    doc: 'Who else holds a claim covering this file, with the warning an agent would be given.',
  }),
  'awareness/message': method({
    params: lazySchema(() => z.object({ ...who, to: TargetSchema, type: MessageTypeSchema.default('info'), priority: PrioritySchema.default('normal'), text: z.string().min(1).max(8000) })),
    result: MessageSchema,
    cap: 'write',
    doc: 'Posts a message to an agent, a pane, a quadrant or all; it reaches them as hook context at their next turn.',
  }),
  'awareness/inbox': method({
    params: lazySchema(() => z.object({ ...who, markRead: z.boolean().default(true) })),
    result: lazySchema(() => z.object({ agent: name, messages: z.array(MessageSchema) })),
    cap: 'read',
    doc: 'Messages waiting for an agent, most urgent first (markRead: hand them over).',
  }),
  'awareness/messages': method({
    params: lazySchema(() => z.object({ limit: z.number().int().positive().max(1000).default(50) })),
    result: lazySchema(() => z.object({ messages: z.array(MessageSchema) })),
    cap: 'read',
    doc: 'The message log, newest last.',
  }),
  'awareness/predictions': method({
    params: lazySchema(() => z.object({ resolved: z.number().int().min(0).max(1000).default(0) })),
    result: lazySchema(() => z.object({ active: z.array(PredictionSchema), resolved: z.array(ResolutionSchema), accuracy: AccuracySchema, threshold: z.number() })),
    cap: 'read',
    doc: 'Open convergence predictions, the last `resolved` verdicts, accuracy and the calibrated threshold.',
  }),
  'awareness/notices': method({
    params: lazySchema(() => z.object({})),
    result: lazySchema(() => z.object({ notices: z.array(AwarenessNoticeSchema) })),
    cap: 'read',
    doc: 'The convergence notices in force: one per pair of agents with an open prediction.',
  }),
  'awareness/resolve': method({
    params: lazySchema(() => z.object({ id: z.string().min(1), outcome: OutcomeSchema })),
    result: ResolutionSchema,
    cap: 'write',
    doc: 'Records a verdict on a prediction (it counts toward calibration).',
  }),
  'awareness/handoff': method({
    params: lazySchema(() => z.object({ from: name, to: name, send: z.boolean().default(true) })),
    result: HandoffSchema,
    cap: 'write',
    doc: 'A tiered summary of one agent’s state for another; sent as a handoff message unless send is false.',
  }),
  'awareness/delegate': method({
    params: lazySchema(() => z.object({ task: z.string().min(1).max(8000), max: z.number().int().positive().max(20).default(3) })),
    result: lazySchema(() => z.object({ topics: z.array(z.string()), suggestions: z.array(SuggestionSchema) })),
    cap: 'read',
    doc: 'Which idle agents’ trajectories fit a task, best first.',
  }),
  'awareness/context': method({
    params: lazySchema(() => z.object({ ...who })),
    result: lazySchema(() => z.object({ agent: name, text: z.string() })),
    cap: 'read',
    doc: 'The context an agent would be handed at its next turn (messages stay unread).',
  }),
};

const paneNumbers = lazySchema(() => z.array(z.number().int().positive()));

export const awarenessEventSchemas = {
  /** A new convergence prediction; `message` names both agents by quadrant (what a notification shows). */
  'awareness/predicted': lazySchema(() => z.object({ prediction: PredictionSchema, message: z.string(), panes: paneNumbers })),
  'awareness/resolved': lazySchema(() => z.object({ resolution: ResolutionSchema })),
  'awareness/calibrated': lazySchema(() => z.object({ from: z.number(), to: z.number(), falsePositiveRate: z.number(), occurredRate: z.number() })),
  /** Claims were added, released, expired or transferred: the live list after the change. */
  'awareness/claims-changed': lazySchema(() => z.object({ claims: z.array(ClaimSchema) })),
  'awareness/claim-contested': lazySchema(() => z.object({ claim: ClaimSchema, by: name, message: z.string(), timeoutMs: z.number(), panes: paneNumbers })),
  /** Two agents wrote the same file, or one wrote into the other's claim. */
  'awareness/collided': lazySchema(() => z.object({ a: name, b: name, file: z.string(), message: z.string(), panes: paneNumbers })),
  'awareness/messaged': lazySchema(() => z.object({ message: MessageSchema })),
  /** A convergence notice appeared or changed (same id: replace it in place). */
  'awareness/notice': lazySchema(() => z.object({ notice: AwarenessNoticeSchema })),
  /** The pair's predictions all resolved or went stale: take the notice down. */
  'awareness/notice-withdrawn': lazySchema(() => z.object({ id: z.string(), outcome: OutcomeSchema, message: z.string() })),
  /** An agent's topics, trajectory or place changed (the peers view). */
  'awareness/agent-changed': lazySchema(() => z.object({ agent: AgentViewSchema })),
} as const;
