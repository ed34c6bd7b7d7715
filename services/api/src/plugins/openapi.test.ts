import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/app.ts';

let subject: TestApp;
beforeAll(async () => {
  subject = await createTestApp();
});
afterAll(() => subject.close());

interface OpenApiDocument {
  openapi: string;
  paths: Record<
    string,
    Record<
      string,
      { requestBody?: { content: Record<string, { schema: JsonSchema }> }; parameters?: { name: string; in: string }[] }
    >
  >;
}
interface JsonSchema {
  required?: string[];
  properties?: Record<string, JsonSchema>;
}

describe('GET /api/docs', () => {
  it('describes every identity route from the same zod schemas that validate them', async () => {
    const response = await subject.app.inject({ method: 'GET', url: '/api/docs' });
    expect(response.statusCode).toBe(200);
    const document = response.json<OpenApiDocument>();
    expect(document.openapi).toMatch(/^3\./);
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        '/api/session',
        '/api/login',
        '/api/logout',
        '/api/register/personal',
        '/api/register/business',
        '/api/user/user-lookup',
        '/api/user/perm',
        '/api/user/merchant-lookup',
        '/api/merchant/switch-merchant',
      ]),
    );
    expect(Object.keys(document.paths)).not.toContain('/api/docs');

    const bodyOf = (path: string) => document.paths[path]?.post?.requestBody?.content['application/json']?.schema;
    expect(bodyOf('/api/login')?.required).toEqual(['username', 'password']);
    expect(bodyOf('/api/register/business')?.properties?.address?.required).toContain('postal_code');
    expect(document.paths['/api/user/user-lookup']?.get?.parameters).toEqual([
      expect.objectContaining({ name: 'id', in: 'query' }),
    ]);
  });
});
