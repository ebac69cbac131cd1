// Electron's utilityProcess gives the child `process.parentPort` (postMessage, and
// 'message' events carrying `{ data }`). Preloaded with `node --import` into a child
// forked with an IPC channel, this stands in for it over Node's own channel, so
// `dist/start.mjs --ipc` runs exactly as electron/main.ts runs it.
import { EventEmitter } from 'node:events';

const port = new EventEmitter();
port.postMessage = (m) => process.send(m);
process.on('message', (data) => port.emit('message', { data }));
process.parentPort = port;
