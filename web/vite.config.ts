import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';
import { buildReport } from './build-report.ts';
import { screenChunks } from './screen-chunks.ts';

export default defineConfig({
  plugins: [
    react(),
    buildReport(),
    // Which files each lazy screen needs, for the server's modulepreload links.
    screenChunks(),
    // Brotli and gzip copies of every text file beside it, made once here; the server picks one per request.
    compression({
      include: /\.(html|css|js|mjs|json|svg|ico|txt|webmanifest)$/,
      algorithms: ['brotliCompress', 'gzip'],
      logLevel: 'silent',
    }),
  ],
  server: {
    // `npm run dev -w @peeks/web` talks to the API started by `npm start`.
    proxy: { '/api': { target: 'http://localhost:3000', ws: true } },
  },
  build: { outDir: 'dist', emptyOutDir: true },
});
