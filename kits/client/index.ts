// The client kit's public face: what a program (window, FUSE mount, MCP server,
// tests) needs to speak to a pane server. The CLI's one-shot path keeps its own
// zod-free client (kits/node/cli/wire.ts) for start-up time.

/** One conversation with a server: `hello`, typed `call`/`notify`, `events.on`, `sendInput`, `onOutput`. */
export { Connection, type ConnectionOptions, type OutputCallback } from './connection';
/** The events table a Connection carries (`connection.events.on('layout/changed', …)`). */
export { Handler, type EventCallback } from './handler';
/** What a Connection runs over: a WebSocket (renderer/src/net/wsTransport.ts), a unix socket (kits/node/socketTransport.ts), or memory. */
export { BaseTransport, type Transport, type WireFrame } from './transport';
/** Two connected in-process transports (embedding, tests). */
export { memoryPair } from './memoryTransport';
