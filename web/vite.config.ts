import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './precompress.ts';

const gateway = process.env.SLEEPWEAVE_GATEWAY_URL ?? 'http://localhost:3000';

export default defineConfig({
  plugins: [react(), tailwindcss(), precompress()],
  resolve: {
    // The contracts package ships TypeScript source (exports ./src/index.ts); point at it
    // directly so Vite transforms and bundles it like our own code instead of treating it
    // as a prebuilt dependency.
    // Exact matches: the package also has ./messages (the few words the app shell needs
    // without zod).
    alias: [
      { find: /^@sleepweave\/contracts$/, replacement: fileURLToPath(new URL('../libs/contracts/src/index.ts', import.meta.url)) },
      {
        find: /^@sleepweave\/contracts\/messages$/,
        replacement: fileURLToPath(new URL('../libs/contracts/src/messages.ts', import.meta.url)),
      },
    ],
  },
  optimizeDeps: {
    exclude: ['@sleepweave/contracts'],
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: gateway, changeOrigin: false },
      '/ws': { target: gateway, ws: true, changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // No source maps in the build: they would be served to anyone (6.9 MB of our source).
    sourcemap: false,
    rolldownOptions: {
      output: {
        // Long-lived vendor chunks: they change less often than the app, so browsers keep them.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router|cookie|set-cookie-parser)[\\/]/ },
            // recharts and its dependencies load with the first chart only (web/src/features/sleep);
            // the small packages it shares with the app go to a chunk of their own.
            { name: 'vendor-shared', test: /node_modules[\\/](clsx|react-is|use-sync-external-store)[\\/]/ },
            {
              name: 'charts',
              test: /node_modules[\\/](recharts|victory-vendor|d3-[a-z-]+|internmap|decimal\.js-light|@reduxjs|redux|redux-thunk|react-redux|reselect|immer|es-toolkit|eventemitter3)[\\/]/,
            },
          ],
        },
      },
    },
  },
});
