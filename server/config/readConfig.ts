// Reads one config file within its bound: a regular file of at most
// MAX_CONFIG_FILE_BYTES, opened without blocking (a FIFO or device put where a
// config file goes is reported, never waited on), else a reason naming the bound.
import fs from 'node:fs';
import type { z } from 'zod';
import { fieldOf, type ConfigError } from '../../kits/protocol/keymap';
import { MAX_CONFIG_FILE_BYTES } from '../../kits/protocol/limits';

/** The file's text; or `{ missing }` when it does not exist; or `{ error }` saying why it was not read. */
export function readConfigFile(file: string): string | { missing: true } | { error: string } {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { missing: true };
    return { error: `cannot read: ${(e as Error).message}` };
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) return { error: 'not a regular file; a config file must be one' };
    if (st.size > MAX_CONFIG_FILE_BYTES) return { error: `${st.size} bytes, over the ${MAX_CONFIG_FILE_BYTES}-byte limit for a config file (MAX_CONFIG_FILE_BYTES); make it smaller` };
    // Read at most one byte past the bound: a file growing while read is still refused.
    const buf = Buffer.alloc(Math.min(st.size, MAX_CONFIG_FILE_BYTES) + 1);
    let got = 0;
    for (;;) {
      const n = fs.readSync(fd, buf, got, buf.length - got, null);
      if (n === 0) break;
      got += n;
      if (got === buf.length) break;
    }
    if (got > MAX_CONFIG_FILE_BYTES) return { error: `over the ${MAX_CONFIG_FILE_BYTES}-byte limit for a config file (MAX_CONFIG_FILE_BYTES); make it smaller` };
    return buf.subarray(0, got).toString('utf8');
  } catch (e) {
    return { error: `cannot read: ${(e as Error).message}` };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * A JSON config file read within its bound and checked by `schema`: its data, or null with
 * each problem pushed to `errors` by file and field (the file, its JSON, each schema issue).
 * A missing file is null with no error.
 */
export function readJsonConfig<T>(file: string, schema: z.ZodType<T>, errors: ConfigError[]): T | null {
  const text = readConfigFile(file);
  if (typeof text !== 'string') {
    if ('error' in text) errors.push({ file, field: '(file)', message: text.error });
    return null;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    errors.push({ file, field: '(json)', message: `not valid JSON: ${(e as Error).message}` });
    return null;
  }
  const r = schema.safeParse(json);
  if (!r.success) {
    for (const i of r.error.issues) errors.push({ file, field: fieldOf(i.path), message: i.message });
    return null;
  }
  return r.data;
}
