import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { featureTags } from '../openapi/route-operation.ts';
import { createTestApp, type TestApp } from '../testing/app.ts';

let subject: TestApp;
beforeAll(async () => {
  subject = await createTestApp();
});
afterAll(() => subject.close());

interface Operation {
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  parameters?: { name?: string; in?: string; $ref?: string }[];
  operationId?: string;
  summary?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  responses: Record<string, { content?: Record<string, { schema: { $ref?: string }; examples?: object }> }>;
}
interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
}
interface JsonSchema {
  description?: string;
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

describe('every operation in the document', () => {
  const document = async () => (await subject.app.inject({ method: 'GET', url: '/api/docs' })).json<OpenApiDocument>();
  const everyOperation = async () =>
    Object.entries((await document()).paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, operation })),
    );

  it('has a summary, a unique operationId and the tag of its feature', async () => {
    const operations = await everyOperation();
    expect(operations.length).toBeGreaterThan(100);
    for (const { name, operation } of operations) {
      expect(operation.summary, name).toMatch(/\S/);
      expect(operation.operationId, name).toMatch(/^[a-z][A-Za-z]+$/);
      expect(operation.tags, name).toHaveLength(1);
      expect(Object.keys(featureTags), name).toContain(operation.tags?.[0]);
    }
    const ids = operations.map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('says its security and answers every refusal and failure in the error envelope', async () => {
    for (const { name, operation } of await everyOperation()) {
      expect(operation.security, name).toBeDefined();
      const statuses = Object.keys(operation.responses);
      expect(statuses, name).toEqual(expect.arrayContaining(['200', '400', '500']));
      if (name.startsWith('POST ') && !name.includes('/api/sandbox/')) {
        expect(operation.security, name).toEqual([{ session: [], csrf: [] }]);
        expect(statuses, name).toContain('403');
      }
      for (const status of statuses.filter((each) => Number(each) >= 400)) {
        const content = operation.responses[status]?.content?.['application/json'];
        expect(content?.schema.$ref, `${name} ${status}`).toBe('#/components/schemas/ErrorEnvelope');
        expect(content?.examples, `${name} ${status}`).toBeDefined();
      }
    }
  });

  it('takes an Idempotency-Key on money routes and says amounts are minor units', async () => {
    const send = (await document()).paths['/api/account/send-fund']?.post;
    expect(send?.parameters).toContainEqual({ $ref: '#/components/parameters/IdempotencyKey' });
    expect(send?.responses['409']).toBeDefined();
    expect(send?.requestBody?.content['application/json']?.schema.properties?.amount?.description).toMatch(
      /minor units/,
    );
    const quote = (await document()).paths['/api/account/get-bitcoin-info']?.post;
    expect(quote?.requestBody?.content['application/json']?.schema.properties?.amount?.description).toMatch(
      /Whole units/,
    );
    expect(send?.requestBody?.content['application/json']).toMatchObject({ example: { amount: 1_250 } });
    const upload = (await document()).paths['/api/user/upload-document']?.post;
    expect(upload?.requestBody?.content['multipart/form-data']?.schema.required).toEqual(
      expect.arrayContaining(['document_type', 'file']),
    );
    const signedIn = (await document()).paths['/api/account/balance']?.get;
    expect(signedIn?.security).toEqual([{ session: [] }]);
    expect(Object.keys(signedIn?.responses ?? {})).toContain('401');
  });
});
