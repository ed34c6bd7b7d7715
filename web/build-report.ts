import { gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/**
 * The first load's JavaScript budget: what the entry and its static imports
 * weigh, gzipped. 200 KB from issue 7; 180 KB since issue 36 moved the
 * dashboard's layout out of the first load and left the data router out
 * (196 KB then 172.5 KB); 170 KB since the forms' texts left their schemas'
 * modules, so the first load builds only the session's schemas (176.2 KB
 * then 168.7 KB). A heavy import into the shell fails the build.
 */
export const INITIAL_BUDGET_BYTES = 170 * 1024;

interface Chunk {
  fileName: string;
  code: string;
  isEntry: boolean;
  imports: string[];
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1).padStart(7)} KB`;

/**
 * Prints, after `vite build`, the JavaScript the initial route downloads
 * (the entry chunk and every chunk it imports statically) and each chunk
 * loaded later, all gzipped, and fails the build when the initial load is
 * over budget, so a heavy import into the shell is caught when it is made.
 */
export function buildReport(budget = INITIAL_BUDGET_BYTES): Plugin {
  return {
    name: 'peeks-build-report',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = new Map<string, Chunk>();
      for (const output of Object.values(bundle)) if (output.type === 'chunk') chunks.set(output.fileName, output);
      const initial = new Set<string>();
      const visit = (fileName: string) => {
        if (initial.has(fileName)) return;
        initial.add(fileName);
        for (const imported of chunks.get(fileName)?.imports ?? []) visit(imported);
      };
      for (const chunk of chunks.values()) if (chunk.isEntry) visit(chunk.fileName);

      const gzipped = new Map([...chunks].map(([fileName, chunk]) => [fileName, gzipSync(chunk.code).length]));
      const size = (fileName: string) => gzipped.get(fileName) ?? 0;
      const initialBytes = [...initial].reduce((sum, fileName) => sum + size(fileName), 0);
      const later = [...chunks.keys()].filter((fileName) => !initial.has(fileName)).sort((a, b) => size(b) - size(a));

      const lines = [
        '',
        'Build report (JavaScript, gzipped)',
        `initial route: ${kb(initialBytes)} of ${kb(budget).trim()} budget`,
        ...[...initial].map((fileName) => `  ${kb(size(fileName))}  ${fileName}`),
        `later chunks (${later.length}), each loaded on its first visit:`,
        ...later.map((fileName) => `  ${kb(size(fileName))}  ${fileName}`),
        '',
      ];
      console.warn(lines.join('\n'));
      if (initialBytes > budget)
        this.error(
          `the initial route's JavaScript is ${kb(initialBytes).trim()} gzipped, over the ${kb(budget).trim()} budget`,
        );
    },
  };
}
