// Builds the renderer into dist/renderer/, which the pane server serves over HTTP
// (Chromium host) and Electron loads. Relative base so the same files work anywhere.
import react from '@vitejs/plugin-react';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig(({ command }) => ({
  root: here,
  // A build is always a production build, even when started from a test runner that
  // set NODE_ENV=test (which would otherwise ship React's slow development build).
  ...(command === 'build' ? { define: { 'process.env.NODE_ENV': JSON.stringify('production') } } : {}),
  base: './',
  plugins: [react()],
  build: {
    outDir: path.join(here, '..', 'dist', 'renderer'),
    emptyOutDir: true,
    sourcemap: true,
    // One page, loaded from 127.0.0.1: a few big chunks are fine.
    chunkSizeWarningLimit: 2000,
  },
}));
