import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../testing/app.ts';
import type * as Routes from './routes.ts';

// A feature that joins the one list, as a new feature would: app.ts is not edited for it.
vi.mock('./routes.ts', async (importOriginal) => {
  const original = await importOriginal<typeof Routes>();
  const added: (typeof original.features)[number] = {
    name: 'added-in-test',
    register: (app) =>
      app.register((feature, _options, done) => {
        feature.get(
          '/api/added-in-test',
          {
            config: {
              access: 'public',
              operation: { operationId: 'getAddedInTest', summary: 'A feature added to the list', tag: 'health' },
            },
          },
          () => ({ response: 'success' }),
        );
        done();
      }),
  };
  return { ...original, apiFeatures: original.featuresPlugin([...original.features, added]) };
});

let subject: TestApp;
beforeAll(async () => {
  subject = await createTestApp();
});
afterAll(() => subject.close());

describe('the one list of features (features/routes.ts)', () => {
  it('serves a feature added to the list, with no edit to app.ts', async () => {
    const answer = await subject.app.inject({ method: 'GET', url: '/api/added-in-test' });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ response: 'success' });
    expect(subject.routes).toContainEqual({ method: 'GET', url: '/api/added-in-test' });
  });

  it('app.ts names no feature: it registers the platform list, the feature list and the web app', () => {
    const source = readFileSync(new URL('../app.ts', import.meta.url), 'utf8');
    expect(source.match(/\b\w+Routes\b/g) ?? []).toEqual([]);
    expect(source.match(/app\.register\(\w+/g)).toEqual([
      'app.register(platform',
      'app.register(apiFeatures',
      'app.register(webApp',
    ]);
  });
});
