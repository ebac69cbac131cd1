// A config file's errors (keymap.json, settings.json, an app file) as the window's
// standing notices: one per file, however many fields it gets wrong, led by the file's
// name (a notice is one short line: a full path left nothing else in view) with its
// first error, how many more there are and where the file is.

export interface ConfigError {
  file: string;
  field: string;
  message: string;
}

export interface ConfigNotice {
  key: string;
  text: string;
}

/** The notices for `errors` of one kind; `kept` says what stands instead (" (previous keymap kept)"). */
export function configNotices(kind: 'keymap' | 'settings' | 'apps', errors: readonly ConfigError[], kept: string): ConfigNotice[] {
  const byFile = new Map<string, ConfigError[]>();
  for (const e of errors) byFile.set(e.file, [...(byFile.get(e.file) ?? []), e]);
  return [...byFile].map(([file, es]) => {
    const cut = file.lastIndexOf('/');
    const name = cut < 0 ? file : file.slice(cut + 1);
    const dir = cut < 0 ? '' : ` — in ${file.slice(0, cut) || '/'}`;
    const first = es[0]!;
    const more = es.length > 1 ? ` (and ${es.length - 1} more error${es.length === 2 ? '' : 's'} in this file)` : '';
    return { key: `config:${kind}:${file}`, text: `${name}: ${first.field}: ${first.message}${more}${kept}${dir}` };
  });
}
