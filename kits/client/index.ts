// The client kit: what any program (CLI, renderer, agent, namespace) uses to
// speak to a pane server.
export * from './connection';
export * from './handler';
export * from './memoryTransport';
export * from './messenger';
export * from './transport';
