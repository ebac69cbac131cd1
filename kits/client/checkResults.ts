// The result check a long-lived client hands its Connection: each reply's result
// parsed by its method's zod schema. Kept apart from connection.ts so the CLI's
// one-shot path, which trusts results for display, never loads the schemas.
import { PaneFault } from '../protocol/fault';
import { methods } from '../protocol/index';
import type { ResultCheck } from './connection';

/** Parses a result by its method's schema; a malformed one becomes a `failed` PaneFault naming the method. */
export const checkResults: ResultCheck = (method, result) => {
  const r = methods[method].result.safeParse(result);
  if (r.success) return r.data;
  throw new PaneFault('failed', `server sent a malformed ${method} result: ${r.error.issues[0]?.message ?? ''}`);
};
