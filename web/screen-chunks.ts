import path from 'node:path';
import type { Plugin } from 'vite';

/** Where the build writes the map, in Vite's own .vite folder; the server reads it (services/api plugins/web-app.ts). */
const SCREEN_CHUNKS_FILE = '.vite/screen-chunks.json';

/** What one lazily loaded module needs beyond the first load: its scripts (its chunk first) and stylesheets. */
interface ScreenChunks {
  js: string[];
  css: string[];
}

interface Chunk {
  fileName: string;
  isEntry: boolean;
  imports: string[];
  moduleIds: string[];
  viteMetadata?: { importedCss: Set<string> };
}

/**
 * Writes into the build each lazily imported module of src/ (a
 * screen, a layout, a feature's index) with the files it needs that the
 * first load does not already bring: its chunk, the chunks that chunk
 * imports, and their stylesheets. Vite's manifest names a chunk only by its
 * first module, and the bundler puts some lazy modules inside a shared
 * chunk (the pending agreement, the wallet's index), so a module's chunk
 * is looked up here, where the bundle says which modules each chunk holds.
 * The server lists a page's files in it as `modulepreload` links, so the
 * browser fetches them beside the main script rather than after it has run.
 */
export function screenChunks(): Plugin {
  let root = '';
  return {
    name: 'peeks-screen-chunks',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    generateBundle(_options, bundle) {
      const chunks = new Map<string, Chunk>();
      for (const output of Object.values(bundle)) if (output.type === 'chunk') chunks.set(output.fileName, output);
      const closure = (fileName: string, into = new Set<string>()) => {
        if (into.has(fileName)) return into;
        into.add(fileName);
        for (const imported of chunks.get(fileName)?.imports ?? []) closure(imported, into);
        return into;
      };
      const initial = new Set<string>();
      for (const chunk of chunks.values()) if (chunk.isEntry) closure(chunk.fileName, initial);
      const initialCss = new Set(
        [...initial].flatMap((file) => [...(chunks.get(file)?.viteMetadata?.importedCss ?? [])]),
      );

      const screens: Record<string, ScreenChunks> = {};
      for (const chunk of chunks.values()) {
        if (initial.has(chunk.fileName)) continue;
        const js = [...closure(chunk.fileName)].filter((file) => !initial.has(file));
        const css = [...new Set(js.flatMap((file) => [...(chunks.get(file)?.viteMetadata?.importedCss ?? [])]))].filter(
          (file) => !initialCss.has(file),
        );
        for (const id of chunk.moduleIds) {
          const lazy = (this.getModuleInfo(id)?.dynamicImporters.length ?? 0) > 0;
          const source = path.relative(root, id);
          if (lazy && source.startsWith(`src${path.sep}`)) screens[source.split(path.sep).join('/')] = { js, css };
        }
      }
      this.emitFile({ type: 'asset', fileName: SCREEN_CHUNKS_FILE, source: JSON.stringify(screens, null, 2) });
    },
  };
}
