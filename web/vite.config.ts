import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { buildReport } from './build-report.ts';

export default defineConfig({
  plugins: [react(), buildReport()],
  server: {
    // `npm run dev -w @peeks/web` talks to the API started by `npm start`.
    proxy: { '/api': { target: 'http://localhost:3000', ws: true } },
  },
  build: { outDir: 'dist', emptyOutDir: true },
});
