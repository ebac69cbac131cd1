// Every tunable of the awareness engine in one place, each with its reason, so a
// project's awareness.json can override any of them and tests can shrink them.

/** English function words (the seed's set of about 80, plus common pronouns and auxiliaries): they carry no topic. */
export const STOP_WORDS: readonly string[] = [
  'a', 'about', 'above', 'after', 'again', 'all', 'also', 'am', 'an', 'and', 'any', 'are', 'as', 'at',
  'be', 'because', 'been', 'before', 'being', 'below', 'between', 'both', 'but', 'by', 'can', 'could',
  'did', 'do', 'does', 'doing', 'down', 'during', 'each', 'few', 'for', 'from', 'further', 'had', 'has',
  'have', 'he', 'her', 'here', 'him', 'his', 'how', 'if', 'in', 'into', 'is', 'it', 'its', 'just', 'me',
  'more', 'most', 'my', 'no', 'nor', 'not', 'now', 'of', 'off', 'on', 'once', 'only', 'or', 'other',
  'our', 'out', 'over', 'own', 'same', 'she', 'should', 'so', 'some', 'such', 'than', 'that', 'the',
  'their', 'them', 'then', 'there', 'these', 'they', 'this', 'those', 'through', 'to', 'too', 'under',
  'until', 'up', 'very', 'was', 'we', 'were', 'what', 'when', 'where', 'which', 'while', 'who', 'whom',
  'why', 'will', 'with', 'would', 'you', 'your',
];

/**
 * Words every coding prompt uses whatever its subject ("fix the test", "please
 * update the file"): counting them as topics makes every pair of agents look
 * convergent, so they are dropped as well.
 */
export const CONVERGENCE_NOISE: readonly string[] = [
  'add', 'bug', 'change', 'check', 'code', 'create', 'done', 'error', 'file', 'fix', 'function', 'get',
  'help', 'implement', 'issue', 'let', 'like', 'look', 'make', 'need', 'new', 'okay', 'ok', 'please',
  'run', 'see', 'set', 'sure', 'test', 'thank', 'thanks', 'thing', 'try', 'update', 'use', 'want',
  'way', 'work', 'write', 'yes',
];

/** Path segments that say nothing about what a file is about. */
export const PATH_NOISE: readonly string[] = [
  'src', 'lib', 'dist', 'build', 'index', 'main', 'mod', 'util', 'utils', 'ts', 'tsx', 'js', 'jsx', 'mjs',
  'cjs', 'py', 'rs', 'go', 'json', 'md', 'home', 'usr', 'tmp', 'root', 'work', 'spec', 'node_modules',
];

export interface AwarenessConfig {
  stopWords: readonly string[];
  noiseWords: readonly string[];
  /** User name, host name and any configured extras: identity, not topic. */
  identityNoise: readonly string[];
  /** Topics kept per prompt and per agent: a prompt names a handful of subjects; more dilutes the Jaccard. */
  topN: number;
  /** Snapshots in the rolling window (the seed's 10). */
  window: number;
  /** The "recent" part of the window that decides emerging and fading (the seed's 3). */
  recent: number;
  /** Share of the window a topic must appear in to be deepening (the seed's 60%). */
  deepeningShare: number;
  /** An agent silent this long is stale: its claims lapse and it leaves predictions. 15 min, because a long tool run can keep a live agent quiet for minutes. */
  staleAfterMs: number;
  /** An agent with no prompt for this long counts as idle for delegation. */
  idleAfterMs: number;
  /** A contested claim is force-released after this (the seed's default 120 s). */
  contestTimeoutMs: number;
  /** Starting Jaccard threshold for "approaching" (the seed's 0.35). */
  threshold: number;
  thresholdMin: number;
  thresholdMax: number;
  /** Calibration step: small enough that one bad batch cannot swing it across the range. */
  thresholdStep: number;
  /** Resolved predictions per calibration batch (the seed's 10). */
  calibrateEvery: number;
  falsePositiveLimit: number;
  occurredLimit: number;
  /** A prediction still open after this is expired: its agents moved on without a verdict. */
  predictionTtlMs: number;
  /** Passes in a row without the signal before a prediction resolves, so one off-topic prompt does not close it. */
  resolveAfterMisses: number;
  /** Two writes to one file by different agents this close together are a collision. */
  collisionWindowMs: number;
  /** Co-occurrences with a domain's topics before a new topic is learned into it. */
  learnAfter: number;
  /** Bounded logs keep the state files small enough to rewrite on every change. */
  maxMessages: number;
  maxClaimLog: number;
  maxResolved: number;
  /** Files remembered per snapshot (a refactor can touch hundreds; the trajectory needs a sample). */
  maxFilesPerSnapshot: number;
}

export const DEFAULT_CONFIG: AwarenessConfig = {
  stopWords: STOP_WORDS,
  noiseWords: CONVERGENCE_NOISE,
  identityNoise: [],
  topN: 8,
  window: 10,
  recent: 3,
  deepeningShare: 0.6,
  staleAfterMs: 15 * 60_000,
  idleAfterMs: 2 * 60_000,
  contestTimeoutMs: 120_000,
  threshold: 0.35,
  thresholdMin: 0.15,
  thresholdMax: 0.7,
  thresholdStep: 0.05,
  calibrateEvery: 10,
  falsePositiveLimit: 0.3,
  occurredLimit: 0.1,
  predictionTtlMs: 30 * 60_000,
  resolveAfterMisses: 2,
  collisionWindowMs: 10 * 60_000,
  learnAfter: 3,
  maxMessages: 500,
  maxClaimLog: 500,
  maxResolved: 200,
  maxFilesPerSnapshot: 20,
};

export function makeConfig(over: Partial<AwarenessConfig> = {}): AwarenessConfig {
  return { ...DEFAULT_CONFIG, ...over };
}
