// Builds the renderer into dist/renderer/, which the pane server serves over HTTP
// (Chromium host) and Electron loads. Relative base so the same files work anywhere.
import react from '@vitejs/plugin-react';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type UserConfig } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));

const config: UserConfig = {
  root: here,
  base: './',
  plugins: [react()],
  build: {
    outDir: path.join(here, '..', 'dist', 'renderer'),
    emptyOutDir: true,
    sourcemap: true,
    // One page, loaded from 127.0.0.1: a few big chunks are fine.
    chunkSizeWarningLimit: 2000,
  },
};

export default defineConfig(({ command }) => {
  // A build is always a production build, even when started from a test runner that
  // set NODE_ENV=test: Vite reads NODE_ENV after loading this file, so setting it here
  // makes React's production build and the JSX transform agree (a `define` alone
  // would pair production React with the development JSX transform).
  if (command === 'build') process.env.NODE_ENV = 'production';
  return config;
});
