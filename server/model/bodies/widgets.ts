// The widgets body: a widget tree drawn by the window (none is drawn yet); no
// program runs in it and its body file is empty and not writable.
import type { BodyProvider } from './provider';

export const widgetsBody: BodyProvider<'widgets'> = {
  kind: 'widgets',
  runsProgram: false,
  agent: false,
  shellKind: 'widgets',
  vocabulary: (common) => [...common],
  read: async () => Buffer.alloc(0),
  write: async (io) => io.refuse('a widget pane has no writable body'),
};
