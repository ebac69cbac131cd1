// The client kit's public face: what a program (window, CLI, FUSE mount, MCP
// server, bench, tests) needs to speak to a pane server. One Connection over any
// Transport; a new transport (ssh stdio, TLS) implements Transport and nothing above changes.
// The one-shot CLI imports connection.ts directly: this file also exports checkResults, which loads zod.

/** One conversation with a server: `hello`, typed `call`/`notify`, `events.on`, `onEvent`, `sendInput`, `onOutput`; zod-free. */
export { Connection, type AnyEventCallback, type CallOptions, type ConnectionOptions, type OutputCallback, type ResultCheck } from './connection';
/** The result check for `new Connection(t, { checkResult: checkResults })`: each reply parsed by its method's schema. */
export { checkResults } from './checkResults';
/** The events-by-name table a Connection carries (`connection.events.on('layout/changed', …)`). */
export { Handler, type EventCallback } from './handler';
/** What a Connection runs over: a WebSocket (renderer/src/net/browserWsTransport.ts), a unix socket (kits/node/socketTransport.ts), or memory. */
export { BaseTransport, type Transport, type WireFrame } from './transport';
/** Two connected in-process transports (embedding, tests). */
export { memoryPair } from './memoryTransport';
/** The one error class: a server's typed error (`code`, `message`, `reason`, `subject`), and a closed connection's. */
export { PaneFault } from '../protocol/fault';
