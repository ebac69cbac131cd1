// The hello's version and feature agreement, zod-free (the server and the CLI both
// use it): the highest protocol both ends speak, and the features both have. When the
// ranges do not meet, the message names both versions and which end to upgrade.
import { MIN_PROTOCOL_VERSION, PROTOCOL_FEATURES, PROTOCOL_VERSION } from './version';

export interface Offer {
  /** The client's one number (old clients send only this). */
  protocol: number;
  /** The client's [min, max]; absent from a client before ranges. */
  protocols?: readonly [number, number] | undefined;
  features?: readonly string[] | undefined;
  /** The client's pane version, when it says. */
  version?: string | undefined;
}

export interface Us {
  min: number;
  max: number;
  features: readonly string[];
  /** This end's pane version and host, for the message. */
  version: string;
  host: string;
}

export type Agreed = { protocol: number; features: string[] };

/** The agreement, or a message naming both versions and the fix. */
export function negotiate(offer: Offer, us: Us = { min: MIN_PROTOCOL_VERSION, max: PROTOCOL_VERSION, features: PROTOCOL_FEATURES, version: 'unknown', host: 'this host' }): Agreed | string {
  const [cmin, cmax] = offer.protocols ?? [offer.protocol, offer.protocol];
  const top = Math.min(cmax, us.max);
  if (top < Math.max(cmin, us.min) || cmin > cmax) {
    const theirs = `client${offer.version ? ` (pane ${offer.version})` : ''} speaks protocol ${cmin === cmax ? cmin : `${cmin}..${cmax}`}`;
    const ours = `this server (pane ${us.version} on ${us.host}) speaks ${us.min === us.max ? us.min : `${us.min}..${us.max}`}`;
    const fix =
      cmax < us.min
        ? `install pane ${us.version} where the client runs (the same package as here: docs/install.md)`
        : `upgrade pane on ${us.host}: from the client's machine, pane host install NAME (NAME its host file there), or install pane${offer.version ? ` ${offer.version}` : ''} on ${us.host} as you installed it here`;
    return `${theirs}; ${ours}: ${fix}`;
  }
  const mine = new Set(us.features);
  return { protocol: top, features: (offer.features ?? []).filter((f) => mine.has(f)) };
}
