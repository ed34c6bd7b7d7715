import { describe, expect, it } from 'vitest';
import { platformPlugins } from './platform.ts';

describe('the platform plugins (plugins/platform.ts)', () => {
  it('start in an order where every step comes after the steps it needs, each named once', () => {
    const names = platformPlugins.map((plugin) => plugin.name);
    expect(new Set(names).size).toBe(names.length);
    for (const [index, plugin] of platformPlugins.entries())
      for (const need of plugin.needs) {
        expect(names, `${plugin.name} needs ${need}`).toContain(need);
        expect(names.indexOf(need), `${plugin.name} needs ${need} before it`).toBeLessThan(index);
      }
  });
});
