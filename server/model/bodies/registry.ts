// The one place the server chooses by a pane's body kind: every kind of
// BodyKindSchema (kits/protocol/model.ts) maps to its provider here. A new kind
// is a word in that enum, one provider file beside this one and one line below;
// the compiler refuses an enum word without its line.
import { faults } from '../../../kits/protocol/error';
import type { BodyKind } from '../../../kits/protocol/model';
import { agentBody } from './agent';
import type { BodyProvider } from './provider';
import { remoteBody } from './remote';
import { terminalBody } from './terminal';
import { textBody } from './text';
import { widgetsBody } from './widgets';

const PROVIDERS: { readonly [K in BodyKind]: BodyProvider<K> } = {
  terminal: terminalBody,
  agent: agentBody,
  text: textBody,
  widgets: widgetsBody,
  remote: remoteBody,
};

/** The provider of a body kind; a kind with none (a value that skipped the schema) is a typed failure naming it. */
export function bodyOf(kind: BodyKind): BodyProvider {
  const p = Object.hasOwn(PROVIDERS, kind) ? PROVIDERS[kind] : undefined;
  if (!p) throw faults.failed(`no body provider for kind ${JSON.stringify(kind)} (known: ${Object.keys(PROVIDERS).join(', ')})`);
  return p;
}
