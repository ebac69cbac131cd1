// Agents across hosts (issue 26, decision 037): `pane finger ada@HOST` asks the joined
// host's daemon for its agent over the link and names the answer as this server names
// that host (host set to the host file's name, panes HOST:N); `pane finger` with
// hosts lists every joined host's agents beside the local ones, each host waited for
// at most REMOTE_AGENTS_TIMEOUT_MS, a host not heard named with its reason.
import { PaneFault } from '../../kits/protocol/error';
import type { AgentInfo } from '../../kits/protocol/agent';
import type { MethodName } from '../../kits/protocol/index';
import type { HandlerContext } from '../handlers/types';
import { readOnlyFault, type HostLink } from './hostLink';
import type { HostService } from './hostService';

/**
 * Longest `pane finger` waits for one joined host's agents before it lists the rest
 * and names that host as not answering: a finger is interactive, a heartbeat is 2 s,
 * so a live host answers well inside it; a dead one must not hold the listing.
 */
export const REMOTE_AGENTS_TIMEOUT_MS = 3000;

/**
 * Most agents taken from one host's answer (the rest are dropped and the host named
 * as truncated): a remote's answer is untrusted input, and a person's finger lists a
 * screenful of agents per machine, not thousands.
 */
export const MAX_REMOTE_AGENTS = 64;

/** Most panes kept per remote agent (the rest dropped): an agent runs in a few panes. */
export const MAX_REMOTE_AGENT_PANES = 16;

/** An agent reported by host `link`, named as this server names that host: host set, panes HOST:N. */
export function qualifyAgent(a: AgentInfo, link: HostLink): AgentInfo {
  return {
    ...a,
    host: link.name,
    panes: a.panes.slice(0, MAX_REMOTE_AGENT_PANES).map((p) => ({ ...p, id: `${link.name}:${p.pane}` })),
  };
}

/** `ada` or `ada@HOST` split; HOST undefined for a bare name. */
export function splitAgentRef(ref: string): { name: string; host: string | undefined } {
  const at = ref.indexOf('@');
  return at < 0 ? { name: ref, host: undefined } : { name: ref.slice(0, at), host: ref.slice(at + 1) };
}

/**
 * agent/get of NAME@HOST and agent/list with hosts, answered across hosts; undefined
 * for a request this server answers alone. NAME@(this server's host) is NAME here.
 */
export function forwardAgents(hosts: HostService, method: MethodName, params: Record<string, unknown>, ctx: HandlerContext): Promise<unknown> | undefined {
  if (method === 'agent/get') {
    const { name, host } = splitAgentRef(String(params.name));
    if (host === undefined) return undefined;
    if (host === ctx.server.host) {
      params.name = name; // this server's own agent: the local handler answers it
      return undefined;
    }
    const link = hosts.link(host); // an unknown host is refused by name, with the fix
    if (ctx.client.checkAccess !== undefined) {
      throw new PaneFault('denied', `denied: agent/get of ${name}@${host}: an agent sees this server's agents only; other hosts' agents are the person's (issue 26)`, { reason: 'remote agent', subject: `${name}@${host}` });
    }
    return link.call('agent/get', { name }).then((a) => qualifyAgent(a, link), (e: unknown) => hintsThere(e, name, host));
  }
  if ((method === 'agent/mail' || method === 'agent/write') && typeof params.to === 'string' && params.to.includes('@')) {
    const { name, host } = splitAgentRef(params.to);
    if (host === ctx.server.host) {
      params.to = name;
      return undefined;
    }
    const link = hosts.link(host!);
    if (ctx.client.checkAccess !== undefined) {
      throw new PaneFault('denied', `denied: ${method} to ${name}@${host}: an agent reaches this server's agents only; other hosts' agents are the person's (issue 26)`, { reason: 'remote agent', subject: `${name}@${host}` });
    }
    if (link.entry.readOnly) {
      throw readOnlyFault(link, method, `${name}@${host}`);
    }
    if (method === 'agent/mail') return link.call('agent/mail', { ...(params as never as { subject: string; body: string; deliver: boolean }), to: name }).then((r) => ({ ...r, to: `${name}@${host}` }), (e: unknown) => hintsThere(e, name, host!));
    // The remote pane the line was typed into is box's number: named here by the agent, not by a number.
    return link.call('agent/write', { to: name, text: String(params.text) }).then((r) => ({ ...r, to: `${name}@${host}`, pane: null }), (e: unknown) => hintsThere(e, name, host!));
  }
  if (method === 'agent/list' && params.hosts === true) {
    const local = ctx.services.agents;
    if (!local) return undefined;
    const mine = local.list();
    if (ctx.client.checkAccess !== undefined) {
      // Said only where there are other hosts to leave out; '*' stands for all of them.
      const joined = [...hosts.links.values()].some((l) => l.joined);
      return Promise.resolve({ agents: mine, unreached: joined ? [{ host: '*', reason: "an agent sees this server's agents only" }] : [] });
    }
    return listAcross(hosts).then(({ agents, unreached }) => ({ agents: [...mine, ...agents], unreached }));
  }
  return undefined;
}

/** Every joined host's agents, each host waited for at most REMOTE_AGENTS_TIMEOUT_MS; the rest named with why. */
export async function listAcross(hosts: HostService): Promise<{ agents: AgentInfo[]; unreached: { host: string; reason: string }[] }> {
  const agents: AgentInfo[] = [];
  const unreached: { host: string; reason: string }[] = [];
  await Promise.all(
    [...hosts.links.values()].map(async (link) => {
      if (link.state === 'disconnected' || link.state === 'connecting') {
        if (link.joined) unreached.push({ host: link.name, reason: `${link.state}: pane host connect ${link.name}` });
        return;
      }
      if (link.state === 'stale') {
        unreached.push({ host: link.name, reason: 'stale (its heartbeat is late): its agents are left out until it answers' });
        return;
      }
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((r) => {
        timer = setTimeout(() => r('late'), REMOTE_AGENTS_TIMEOUT_MS);
      });
      try {
        const r = await Promise.race([link.call('agent/list', {}), late]);
        if (r === 'late') {
          unreached.push({ host: link.name, reason: `no answer within ${REMOTE_AGENTS_TIMEOUT_MS} ms (REMOTE_AGENTS_TIMEOUT_MS)` });
          return;
        }
        if (r.agents.length > MAX_REMOTE_AGENTS) unreached.push({ host: link.name, reason: `reported ${r.agents.length} agents; the first ${MAX_REMOTE_AGENTS} are shown (MAX_REMOTE_AGENTS)` });
        for (const a of r.agents.slice(0, MAX_REMOTE_AGENTS)) agents.push(qualifyAgent(a, link));
      } catch (e) {
        unreached.push({ host: link.name, reason: e instanceof Error ? e.message : String(e) });
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  agents.sort((a, b) => (a.host ?? '').localeCompare(b.host ?? '') || a.name.localeCompare(b.name));
  return { agents, unreached };
}

/**
 * A remote's refusal about its agent with its fixes said from here: the remote names
 * `pane mail ada` and `pane agent add ada`, which typed here would mail or make a
 * local ada (found walking issue 26); they become `pane mail ada@box` and "on box".
 */
export function hintsThere(e: unknown, name: string, host: string): never {
  if (!(e instanceof PaneFault)) throw e;
  const m = e.message.replaceAll(`(pane mail ${name})`, `(pane mail ${name}@${host})`).replaceAll(`\`pane agent add ${name}\``, `\`pane agent add ${name}\` on ${host}`);
  throw new PaneFault(e.code, m, { ...(e.reason !== undefined ? { reason: e.reason } : {}), ...(e.subject !== undefined ? { subject: e.subject } : {}) });
}
