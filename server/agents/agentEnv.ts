// What of the person's environment an agent's pane starts with. The daemon's
// environment is the person's: their tokens (GITHUB_TOKEN, AWS_SECRET_ACCESS_KEY,
// NPM_TOKEN), their agents' sockets (SSH_AUTH_SOCK, GPG_AGENT_INFO), their session
// bus, display and runtime dir. A sandbox starts empty, and so does this: a pane that
// carries an agent's identity gets only what a terminal program needs to run and
// draw, the login variables its app file names (as its .access `sandbox.credentials`
// allows), and what its launch asked for and pane sets itself (HOME, PANE_*, TMPDIR,
// the proxies inside the sandbox).

/**
 * Names kept from the person's environment: the program search path, locale and
 * time zone, the terminal, who and where (USER, SHELL: names, not keys), the
 * editor and pager a CLI opens, colour switches, and the CA bundles a TLS client
 * needs behind a corporate proxy (public certificates, no secret).
 */
export const AGENT_ENV_KEEP: ReadonlySet<string> = new Set([
  'PATH',
  'LANG',
  'LANGUAGE',
  'TZ',
  'TERM',
  'COLORTERM',
  'TERM_PROGRAM',
  'TERM_PROGRAM_VERSION',
  'USER',
  'LOGNAME',
  'SHELL',
  'HOSTNAME',
  'EDITOR',
  'VISUAL',
  'PAGER',
  'LESS',
  'NO_COLOR',
  'FORCE_COLOR',
  'CLICOLOR',
  'CLICOLOR_FORCE',
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'REQUESTS_CA_BUNDLE',
  'CURL_CA_BUNDLE',
  // pane's own settings of where its apps are, and the suites' fault injection: no authority.
  'PANE_APPS_DIR',
  'PANE_TEST_FAULT',
]);

/** Prefixes kept: the locale's categories (LC_ALL, LC_CTYPE, …). */
export const AGENT_ENV_KEEP_PREFIXES: readonly string[] = ['LC_'];

/** Whether the person's variable `name` is one every agent pane keeps. */
export function keptForAgents(name: string): boolean {
  return AGENT_ENV_KEEP.has(name) || AGENT_ENV_KEEP_PREFIXES.some((p) => name.startsWith(p));
}

/**
 * The environment an agent's pane inherits from the person's `env`: the kept names,
 * and `logins` (the variables its app file names, when its .access lets the person's
 * login reach it). Everything else is left behind; the launch's own variables and
 * pane's are added after this, by the caller.
 */
export function agentEnvironment(env: Readonly<Record<string, string>>, logins: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (keptForAgents(k) || logins.includes(k)) out[k] = v;
  return out;
}
