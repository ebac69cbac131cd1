// Vite's ambient types (CSS imports, import.meta.env) for the renderer only.
/// <reference types="vite/client" />
