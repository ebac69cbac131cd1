// The awareness family: what agents are on (topics, trajectories), what they say
// to each other (messages), what they hold (claims) and where they are heading
// (convergence predictions). The server's state files are these same shapes.
import { z } from 'zod';
import { method } from './method';

const name = z.string().min(1).max(100);
const ms = z.number();

/** The eight message types: what a message asks of its reader. */
export const MessageTypeSchema = z.enum([
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
]);
export type MessageType = z.infer<typeof MessageTypeSchema>;

export const PrioritySchema = z.enum(['low', 'normal', 'high', 'urgent']);
export type Priority = z.infer<typeof PrioritySchema>;

/** Who a message is for: one agent, whoever is in a pane, whoever sits in a quadrant, or everyone. */
export const TargetSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('agent'), name }),
  z.object({ kind: z.literal('pane'), pane: z.number().int().positive() }),
  z.object({ kind: z.literal('quadrant'), quadrant: z.string().min(1).max(32) }),
  z.object({ kind: z.literal('all') }),
]);
export type Target = z.infer<typeof TargetSchema>;

export const MessageSchema = z.object({
  id: z.string(),
  from: name,
  target: TargetSchema,
  type: MessageTypeSchema,
  priority: PrioritySchema,
  text: z.string().max(8000),
  at: ms,
  /** Agents it has been handed to (as hook context or through `awareness/inbox`). */
  deliveredTo: z.array(z.string()),
});
export type Message = z.infer<typeof MessageSchema>;

/** A claim covers one file, a directory (everything under it), or a glob (`*`, `**`, `?`). */
export const ResourceKindSchema = z.enum(['file', 'dir', 'glob']);
export type ResourceKind = z.infer<typeof ResourceKindSchema>;
export const ClaimScopeSchema = z.enum(['exclusive', 'shared']);
export type ClaimScope = z.infer<typeof ClaimScopeSchema>;

export const ClaimSchema = z.object({
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
});
export type Claim = z.infer<typeof ClaimSchema>;

export const ClaimLogEntrySchema = z.object({
  at: ms,
  action: z.enum(['claimed', 'released', 'contested', 'force-released', 'transferred', 'expired', 'holder-stale']),
  kind: ResourceKindSchema,
  path: z.string(),
  holder: z.string(),
  /** Who caused it, when not the holder (the contester, the cleaner). */
  by: z.string().nullable(),
});
export type ClaimLogEntry = z.infer<typeof ClaimLogEntrySchema>;

export const TrajectorySchema = z.object({
  deepening: z.array(z.string()),
  emerging: z.array(z.string()),
  fading: z.array(z.string()),
  stable: z.array(z.string()),
});
export type Trajectory = z.infer<typeof TrajectorySchema>;

/** One turn of an agent: the topics of its prompt plus what its tools touched. */
export const SnapshotSchema = z.object({
  at: ms,
  hash: z.string(),
  topics: z.array(z.string()),
  files: z.array(z.string()),
});
export type Snapshot = z.infer<typeof SnapshotSchema>;

export const AgentAwarenessSchema = z.object({
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
});
export type AgentAwareness = z.infer<typeof AgentAwarenessSchema>;

export const PredictionTypeSchema = z.enum(['mutual-deepening', 'approaching', 'cross-approach', 'domain-proximity']);
export type PredictionType = z.infer<typeof PredictionTypeSchema>;
export const OutcomeSchema = z.enum(['prevented', 'occurred', 'false-positive', 'expired']);
export type Outcome = z.infer<typeof OutcomeSchema>;

export const PredictionSchema = z.object({
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
});
export type Prediction = z.infer<typeof PredictionSchema>;

export const ResolutionSchema = PredictionSchema.extend({ outcome: OutcomeSchema, resolvedAt: ms });
export type Resolution = z.infer<typeof ResolutionSchema>;

export const AccuracySchema = z.object({
  prevented: z.number().int().min(0),
  occurred: z.number().int().min(0),
  falsePositive: z.number().int().min(0),
  expired: z.number().int().min(0),
  /** Collisions nobody predicted (counted as occurred for calibration). */
  missed: z.number().int().min(0),
  thresholdAdjustments: z.number().int().min(0),
});
export type Accuracy = z.infer<typeof AccuracySchema>;

/** Outcomes since the last calibration; every `calibrateEvery` of them the threshold may move. */
export const BatchSchema = z.object({
  prevented: z.number().int().min(0),
  occurred: z.number().int().min(0),
  falsePositive: z.number().int().min(0),
  expired: z.number().int().min(0),
});
export type Batch = z.infer<typeof BatchSchema>;

export const PredictionStateSchema = z.object({
  active: z.array(PredictionSchema),
  resolved: z.array(ResolutionSchema),
  accuracy: AccuracySchema,
  batch: BatchSchema,
  /** The dynamic Jaccard threshold for approaching (and domain proximity), self-calibrated. */
  threshold: z.number().min(0).max(1),
});
export type PredictionState = z.infer<typeof PredictionStateSchema>;
