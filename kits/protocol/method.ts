// One request's contract: params, result and the capability it needs.
import type { z } from 'zod';

export const CAPABILITIES = ['read', 'write', 'attach', 'admin'] as const;
export type Capability = (typeof CAPABILITIES)[number];

export interface MethodSpec<P extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> {
  params: P;
  result: R;
  /** Checked on every request, as in the runtime contract. */
  cap: Capability;
  doc: string;
}

/** Declares a method with its types kept (no widening to ZodType). */
export function method<P extends z.ZodType, R extends z.ZodType>(spec: MethodSpec<P, R>): MethodSpec<P, R> {
  return spec;
}
