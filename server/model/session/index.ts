// The session model: every change to a session's layout, floats, zoom, focus and
// viewport is one of these operations. Each keeps the invariants (invariants.ts)
// and returns the events to publish (`publish`); handlers only parse and ack.
export { type SessionEvent } from './changes';
export { publish } from './publish';
export { focus, focusPane, focusTarget, isFloating, isTiled, members, zoom } from './focus';
export { close, isNoRoom, MIN_SPLIT_BODY, NO_ROOM, roomySplitBody, resize, setRatio, split, splitAnchor, splitBody, swap, swapTarget } from './tiles';
export { addFloat, defaultFloatRect, float, floatOf, focusFloat, lower, nudgeFloat, raise, setFloating, tile, updateFloat } from './floats';
export { dropSession, makeSession, open, rename, restoredName, restore, setViewport, type SavedArrangement } from './sessions';
export { sessionInvalidity } from './invariants';
export { arrange, type LayoutAsk } from './arrange';
export { ContextBoard, focusInContext, zoomInContext, type ContextView } from './contexts';
