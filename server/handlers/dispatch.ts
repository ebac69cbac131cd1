// The built-in families' handler tables, in one list for startServer to register
// on its Dispatcher (registry.ts); agents and awareness add theirs when attached.
import { grantHandlers } from './grants';
import { clientHandlers } from './client';
import { floatingHandlers } from './floating';
import { namespaceHandlers } from './namespace';
import { paneHandlers } from './pane';
import { plumbHandlers } from './plumb';
import { ptyHandlers } from './pty';
import { sessionHandlers } from './session';
import { configHandlers } from './config';
import type { HandlerTable } from './types';

export const builtinHandlers: readonly HandlerTable[] = [sessionHandlers, paneHandlers, floatingHandlers, ptyHandlers, clientHandlers, namespaceHandlers, configHandlers, grantHandlers, plumbHandlers];
