// The text body: bytes held by the server, appended to by writes to
// /pane/<n>/body (acme's body); no program runs in it.
import type { BodyProvider } from './provider';

export const textBody: BodyProvider<'text'> = {
  kind: 'text',
  runsProgram: false,
  agent: false,
  standIn: false,
  shellKind: 'text',
  vocabulary: (common) => [...common],
  read: async (io, pane) => io.text(pane),
  write: async (io, pane, data) => io.appendText(pane, data),
};
