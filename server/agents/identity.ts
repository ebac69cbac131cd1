// Who a request speaks for. One rule, used by the agent and awareness families:
// an agent's own connection acts only for itself; a person names the agent.
import { faults } from '../../kits/protocol/error';
import type { Services } from '../services';
import { deny } from './accessCheck';

/** The agent a connection acts as (its hello token named one), or null for the human. */
export function agentOfUser(services: Services, user: string): string | null {
  return services.agents?.agentCaller(user) ?? null;
}

/** What the request does, for its messages: `act` reads "may <act> only for itself". */
export interface ActFor {
  /** The method, for the agent's log and the agent/denied event. */
  method: string;
  /** A verb phrase: "record prompts", "set a .plan", "read mail". */
  act: string;
  /** The params field that names the agent ("agent", "name"). */
  field: string;
}

/**
 * The agent a request speaks for: the calling agent itself (asking for another is
 * refused, logged and published like every refusal), else the agent a person named.
 * A person who names none gets a bad-request naming the field.
 */
export function actingAgent(services: Services, user: string, asked: string | undefined, what: ActFor): string {
  const me = agentOfUser(services, user);
  if (me !== null) {
    if (asked !== undefined && asked !== me) {
      deny(services.agents!, me, what.method, `${what.act} for ${asked}: an agent may ${what.act} only for itself`);
    }
    return me;
  }
  if (asked === undefined) throw faults.badRequest(`name the agent to ${what.act} for (${what.field})`, what.field);
  return asked;
}
