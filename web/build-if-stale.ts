import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { build } from 'vite';

/**
 * `npm start` runs this first: it builds the web app when there is no build
 * yet or a source file is newer than the last build, so a fresh clone serves
 * the app and a second start does not wait for a build it does not need.
 */
const root = import.meta.dirname;
const built = path.join(root, 'dist', 'index.html');

function newestSource(dir: string): number {
  return Math.max(
    0,
    ...readdirSync(dir, { withFileTypes: true }).map((entry) => {
      const full = path.join(dir, entry.name);
      return entry.isDirectory() ? newestSource(full) : statSync(full).mtimeMs;
    }),
  );
}

const sourcesChanged = () =>
  Math.max(
    newestSource(path.join(root, 'src')),
    newestSource(path.join(root, 'public')),
    statSync(path.join(root, 'index.html')).mtimeMs,
    statSync(path.join(root, 'vite.config.ts')).mtimeMs,
    // The build's own plugins, and the contracts the app bundles.
    statSync(path.join(root, 'build-report.ts')).mtimeMs,
    statSync(path.join(root, 'screen-chunks.ts')).mtimeMs,
    newestSource(path.join(root, '..', 'packages', 'contracts', 'src')),
  ) > statSync(built).mtimeMs;

if (!existsSync(built) || sourcesChanged()) {
  console.warn('Building the web app…');
  // React's production build whatever the caller's NODE_ENV (a test runner sets `test`, which bundles its development build).
  process.env.NODE_ENV = 'production';
  await build({ root, logLevel: 'warn' });
}
