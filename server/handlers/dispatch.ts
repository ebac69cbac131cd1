// Registers every built-in family's handler table; the dispatch path itself is
// in registry.ts. Later families (agents, awareness) register themselves.
import { clientHandlers } from './client';
import { floatingHandlers } from './floating';
import { namespaceHandlers } from './namespace';
import { paneHandlers } from './pane';
import { ptyHandlers } from './pty';
import { sessionHandlers } from './session';
import { configHandlers } from './config';
import { registerHandlers } from './registry';
import type { HandlerTable } from './types';

export { describeIssues, dispatchInternal, registerHandlers } from './registry';

const tables: HandlerTable[] = [sessionHandlers, paneHandlers, floatingHandlers, ptyHandlers, clientHandlers, namespaceHandlers, configHandlers];
for (const t of tables) registerHandlers(t);
