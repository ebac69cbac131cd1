// Namespace handlers: the ns/* family, each a thin call into the namespace
// service (server/namespace/service.ts), which walks the one table.
import { nsClose, nsList, nsOpen, nsRead, nsStat, nsWrite } from '../namespace/service';
import type { HandlerTable } from './types';

export const namespaceHandlers: HandlerTable = {
  'ns/list': (p, ctx) => nsList(ctx, p.path),
  'ns/stat': (p, ctx) => nsStat(ctx, p.path),
  'ns/open': (p, ctx) => nsOpen(ctx, p.path, p.mode),
  'ns/close': (p, ctx) => nsClose(ctx, p.fid),
  'ns/read': (p, ctx) => nsRead(ctx, p),
  'ns/write': (p, ctx) => nsWrite(ctx, p),
};
