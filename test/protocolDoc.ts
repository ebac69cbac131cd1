// Renders docs/protocol.md from the schemas and the golden fixtures, so the
// document cannot drift from the code (test/docs.test.ts compares them).
import { z } from 'zod';
import { BINARY_HEADER, MAX_BINARY_FRAME, MAX_JSON_FRAME } from '../kits/protocol/envelope';
import { ErrorCodeSchema, stoppedFault } from '../kits/protocol/error';
import { eventSchemas } from '../kits/protocol/events';
import { PROTOCOL_VERSION } from '../kits/protocol/hello';
import { methods } from '../kits/protocol/index';
import { eventFixtures, methodFixtures } from './fixtures/protocol';

type Js = { type?: string | string[]; properties?: Record<string, Js>; required?: string[]; items?: Js; enum?: unknown[]; anyOf?: Js[]; const?: unknown; additionalProperties?: Js | boolean; $ref?: string };

function typeText(s: Js | undefined, depth = 0): string {
  if (!s) return 'any';
  if (s.$ref) return 'LayoutNode';
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.enum) return s.enum.map((e) => JSON.stringify(e)).join(' | ');
  if (s.anyOf) return s.anyOf.map((x) => typeText(x, depth)).join(' | ');
  const t = Array.isArray(s.type) ? s.type.join(' | ') : s.type;
  if (t === 'array') return `${typeText(s.items, depth)}[]`;
  if (t === 'object') {
    if (s.properties && depth < 1) {
      const req = new Set(s.required ?? []);
      return `{ ${Object.entries(s.properties).map(([k, v]) => `${k}${req.has(k) ? '' : '?'}: ${typeText(v, depth + 1)}`).join('; ')} }`;
    }
    if (s.properties) return 'object';
    if (s.additionalProperties && typeof s.additionalProperties === 'object') return `{ [key]: ${typeText(s.additionalProperties, depth + 1)} }`;
    return 'object';
  }
  return t ?? 'any';
}

function fields(schema: z.ZodType, io: 'input' | 'output'): string {
  const js = z.toJSONSchema(schema, { io, unrepresentable: 'any', cycles: 'ref' }) as Js;
  if (!js.properties || Object.keys(js.properties).length === 0) return '(none)';
  const req = new Set(js.required ?? []);
  return Object.entries(js.properties)
    .map(([k, v]) => `\`${k}${req.has(k) ? '' : '?'}\`: ${typeText(v)}`)
    .join(', ');
}

export function renderProtocolDoc(): string {
  const out: string[] = [];
  out.push('# The pane protocol');
  out.push('');
  out.push('<!-- Generated from kits/protocol by test/protocolDoc.ts; `npm run docs` rewrites it, and a test fails when it is stale. -->');
  out.push('');
  out.push(`Protocol version ${PROTOCOL_VERSION}. Every component — the window, the CLI, the namespace, agents, remote servers — speaks it; the transport (unix socket, WebSocket, in-memory) changes nothing above it.`);
  out.push('');
  out.push('## Frames');
  out.push('');
  out.push('- **Request** `{"t":"req","id":N,"method":"family/verb","params":{...}}`. Without `id` it is a note: no reply, but an error still comes back (with `id: null`).');
  out.push('- **Reply** `{"t":"res","id":N,"ok":true,"result":{...}}` or `{"t":"res","id":N,"ok":false,"error":{"code":...,"message":...}}`.');
  out.push('- **Event** `{"t":"evt","event":"family/past-tense","rev":R,"data":{...}}`; `rev` is one counter for the whole server, so a subscriber orders everything it sees.');
  out.push(`- **Binary** \`[kind u8][pane u32 BE][offset f64 BE][bytes]\` (${BINARY_HEADER}-byte header): kind 1 = terminal output starting at stream offset \`offset\`; kind 2 = input for the pane's PTY. Terminal bytes are never JSON-escaped.`);
  out.push(`- On byte streams (unix socket) each frame is \`[u32 BE length][u8 0=JSON,1=binary][payload]\`; on WebSocket, text frames are JSON and binary frames binary.`);
  out.push(`- Limits: JSON frames ≤ ${MAX_JSON_FRAME} bytes, binary ≤ ${MAX_BINARY_FRAME}; larger ones get \`too-large\` (or close a byte stream whose length prefix is absurd).`);
  out.push('');
  out.push('## Handshake and capabilities');
  out.push('');
  out.push('The first request must be `hello` (anything else gets `not-ready`). The server grants capabilities: `read` (queries, events), `write` (mutations, input), `attach` (terminal streams), `admin` (other clients, stopping). Each method below names the one it needs; a missing one gets `denied`. The unix socket is mode 0600 in a 0700 directory, so every local process of the user is trusted; the WebSocket (docs/security.md) requires the launch cookie a one-time launch URL set, or the per-launch secret as the hello `token`.');
  out.push('');
  out.push('## Errors');
  out.push('');
  out.push(`Codes: ${ErrorCodeSchema.options.map((c) => `\`${c}\``).join(', ')}. Every error carries a one-line \`message\` that names the problem (\`pane 42 not found\`, \`invalid params for pane/split: ratio: expected number, received string\`); \`denied\` and \`failed\` also carry \`reason\`.`);
  out.push('');
  out.push(`A server that stops because a client asked it to (\`server/stop\`, \`pane stop\`) sends every other connection one error with \`id: null\` just before it closes it: code \`failed\`, reason \`stopped\`, subject \`server/stop\`, and a message naming who asked (\`${stoppedFault('the person').message}\`) — to the person's and agents' connections; a grant's guest, a joined host's link and a connection before its hello hear only \`${stoppedFault().message}\`. Such a stop is for good: a watcher need not wait to see the server come back. A server that exits on a signal or a crash sends none.`);
  out.push('');
  out.push('## Methods');
  let family = '';
  for (const [name, spec] of Object.entries(methods)) {
    const fam = name.includes('/') ? name.slice(0, name.indexOf('/')) : name;
    if (fam !== family) {
      family = fam;
      out.push('');
      out.push(`### ${fam}`);
    }
    const fx = methodFixtures[name as keyof typeof methodFixtures];
    out.push('');
    out.push(`#### \`${name}\` — needs \`${spec.cap}\``);
    out.push('');
    out.push(spec.doc);
    out.push('');
    out.push(`- params: ${fields(spec.params, 'input')}`);
    out.push(`- result: ${fields(spec.result, 'output')}`);
    out.push(`- example: \`${JSON.stringify(fx.params)}\` → \`${JSON.stringify(fx.result).slice(0, 300)}${JSON.stringify(fx.result).length > 300 ? '…' : ''}\``);
  }
  out.push('');
  out.push('## Events');
  out.push('');
  out.push('`events/subscribe` answers with the whole state at revision R, then sends every event with rev > R, in order, with no gap. The first events may arrive in the same read as the answer: apply the answer before them (`Connection.call` in kits/client takes `inOrder` for this), not after. Families: the part before the slash (`pane`, `layout`, `focus`, `session`, `client`; `pane/output` is family `output`; `keymap/*` and `apps/*` are `config`).');
  for (const [name, schema] of Object.entries(eventSchemas)) {
    out.push('');
    out.push(`- \`${name}\`: ${fields(schema as z.ZodType, 'output')}  `);
    out.push(`  e.g. \`${JSON.stringify(eventFixtures[name as keyof typeof eventFixtures]).slice(0, 200)}\``);
  }
  out.push('');
  return out.join('\n');
}
