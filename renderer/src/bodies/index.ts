// The window's body registrations: one line per kind it draws. A new kind is its
// component file beside this one and one line here; text and widgets bodies are
// not drawn yet and get the placeholder that names them.
import { BodyRegistry } from './registry';
import { TerminalBody } from './TerminalBody';

export const bodies = new BodyRegistry({
  terminal: TerminalBody,
  // An agent's body is the terminal its program runs in.
  agent: TerminalBody,
  // A joined host's pane tiled here: the server streams it under the stand-in's number (server/hosts/standIns.ts).
  remote: TerminalBody,
});
