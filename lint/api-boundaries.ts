import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * The API's features meet through their front doors: code outside
 * `services/api/src/features/<name>/` (another feature, a plugin, app.ts,
 * the test support) imports that feature only through its `index.ts`, and
 * test support through its `testing.ts` or `testing/` folder too (which
 * production code never imports: lint/boundaries.ts). lint/boundaries.ts
 * adds these zones to its own, whose import-x/no-cycle covers the API, so a
 * cycle between two features' front doors is reported as well. A function
 * of the checkout's root, so lint/api-boundaries.test.ts applies the same
 * rule to a tree of its own.
 */
export function apiFeatureZones(root: string) {
  const src = path.join(root, 'services', 'api', 'src');
  const featureFolder = path.join(src, 'features');
  if (!existsSync(featureFolder)) return [];
  const inFeatures = readdirSync(featureFolder, { withFileTypes: true });
  // Everything in services/api/src but the feature's own folder: the rest of src, the other features, the tests beside them.
  const outside = (feature: string) => [
    ...readdirSync(src)
      .filter((name) => name !== 'features')
      .map((name) => path.join(src, name)),
    ...inFeatures.filter((entry) => entry.name !== feature).map((entry) => path.join(featureFolder, entry.name)),
  ];
  return inFeatures
    .filter((entry) => entry.isDirectory())
    .map(({ name: feature }) => {
      const own = path.join(featureFolder, feature);
      return {
        target: outside(feature),
        from: path.join(own, '**'),
        // Globs, as import-x wants beside a glob `from`.
        except: [path.join(own, '{index,testing}.ts'), path.join(own, 'testing', '**')],
        message: `Import features/${feature} only through its front door, features/${feature}/index.ts (test support also through its testing.ts): export what is needed there, or move it to the feature that owns it.`,
      };
    });
}
