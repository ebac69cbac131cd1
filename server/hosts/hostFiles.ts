// Reads ~/.config/pane/hosts/*.json: one host per file, named by the file. Each
// bad file is reported by file and field and skipped; the rest still load (the
// same bounds and reader as app files: server/config/readConfig.ts).
import fs from 'node:fs';
import path from 'node:path';
import { HostFileSchema, type HostFile, type HostHow } from '../../kits/protocol/host';
import { HostNameSchema } from '../../kits/protocol/ids';
import type { ConfigError } from '../../kits/protocol/keymap';
import { MAX_HOSTS } from '../../kits/protocol/limits';
import { readJsonConfig } from '../config/readConfig';

export interface HostEntry extends HostFile {
  name: string;
  file: string;
}

export interface HostFiles {
  hosts: Map<string, HostEntry>;
  errors: ConfigError[];
}

/** Every host file in `dir`, in name order, within MAX_HOSTS; a missing directory is no hosts. */
export function loadHosts(dir: string): HostFiles {
  const hosts = new Map<string, HostEntry>();
  const errors: ConfigError[] = [];
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((n) => n.endsWith('.json')).sort();
  } catch {
    return { hosts, errors };
  }
  if (names.length > MAX_HOSTS) {
    errors.push({ file: dir, field: '(directory)', message: `${names.length} host files, over the ${MAX_HOSTS} pane reads (MAX_HOSTS); only the first ${MAX_HOSTS} by name are read: remove some` });
    names = names.slice(0, MAX_HOSTS);
  }
  for (const base of names) {
    const file = path.join(dir, base);
    const name = base.slice(0, -'.json'.length);
    if (!HostNameSchema.safeParse(name).success) {
      errors.push({ file, field: '(file name)', message: `"${name}" cannot name a host (it is the HOST of HOST:N): letters, digits, ".", "_" or "-", starting with a letter or digit; rename the file` });
      continue;
    }
    const host = readJsonConfig(file, HostFileSchema, errors);
    if (host === null) continue;
    if (host.name !== undefined && host.name !== name) {
      errors.push({ file, field: 'name', message: `"${host.name}" differs from the file's name "${name}", which names the host: remove the field or rename the file` });
      continue;
    }
    hosts.set(name, { ...host, name, file });
  }
  return { hosts, errors };
}

/** How a host is reached, in a few words for `pane host ls`. */
export function describeHow(how: HostHow): string {
  switch (how.via) {
    case 'ssh':
      return `ssh ${how.destination}${how.port !== undefined ? `:${how.port}` : ''}`;
    case 'command':
      return `command ${how.argv.join(' ').slice(0, 80)}`;
    case 'tls':
      return `tls ${how.host}:${how.port}`;
  }
}
