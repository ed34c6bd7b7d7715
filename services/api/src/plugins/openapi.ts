import swagger from '@fastify/swagger';
import { errorCatalogue, errorCodes, errorEnvelope, type ErrorCode } from '@peeks/contracts';
import type { FastifyInstance, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { describedRoutes, featureTags, routeKey, type RouteOperation } from '../openapi/route-operation.ts';
import { SESSION_COOKIE } from './sessions.ts';

type Json = Record<string, unknown>;
interface Operation extends Json {
  parameters?: Json[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Json; example?: unknown }> };
  responses: Record<string, Json>;
}
export interface OpenApiDocument extends Json {
  paths: Record<string, Record<string, Operation>>;
  components: Json & { schemas?: Record<string, Json> };
}

/** What the route itself says about who may call it, for its security and its refusals. */
interface RouteFacts {
  access: 'signed-in' | 'public' | 'processor';
  csrf: boolean;
  throttled: boolean;
  takesInput: boolean;
}

const CHANGES_STATE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const refusal = (code: ErrorCode, field?: string) => ({
  response: 'error',
  message: errorCatalogue[code],
  errors: [{ code, ...(field === undefined ? {} : { field }), message: errorCatalogue[code] }],
});

/** The refusal most typical of a 422 in each feature: the example a client sees first. */
const businessRuleExample: Partial<Record<RouteOperation['tag'], ErrorCode>> = {
  recovery: errorCodes.recoveryCodeInvalid,
  profile: errorCodes.currentPasswordWrong,
  credentials: errorCodes.pinWrong,
  webhooks: errorCodes.webhookPrivateAddress,
  'card-processor': errorCodes.chargeRefused,
};

/** Each status an operation can answer, with the envelope's example for it. */
function errorResponses(facts: RouteOperation, route: RouteFacts, method: string): Record<string, Json> {
  const responses: Record<string, { description: string; examples: Record<string, Json> }> = {};
  const add = (status: number, description: string, examples: Record<string, Json>) => {
    const known = responses[status];
    if (known) {
      known.description = `${known.description}; ${description}`;
      Object.assign(known.examples, examples);
    } else responses[status] = { description, examples };
  };
  const extra = new Set<number>(facts.errors ?? []);
  const changesState = CHANGES_STATE.has(method);
  // Any route: a control character anywhere in the query is refused before the route runs.
  add(400, 'Invalid input: one error per field, in the spec’s words', {
    invalid: refusal(errorCodes.requiredField, 'amount'),
    ...(facts.idempotent ? { badKey: refusal(errorCodes.invalidFormat, 'Idempotency-Key') } : {}),
  });
  if (route.access === 'signed-in') add(401, 'Not signed in', { notSignedIn: refusal(errorCodes.notSignedIn) });
  if (extra.has(401)) add(401, 'Wrong username or password', { wrongCredentials: refusal(errorCodes.loginFailed) });
  if (route.access === 'processor')
    add(401, 'The processor credential is missing or wrong', {
      credential: refusal(errorCodes.processorCredentialRefused),
    });
  if (route.csrf && changesState)
    add(403, 'The `X-CSRF-Token` header is missing or is not the session’s', { csrf: refusal(errorCodes.csrfRefused) });
  if (extra.has(403))
    add(403, 'Not allowed to the caller’s role or merchant', {
      notAllowed: refusal(facts.tag === 'operations' ? errorCodes.financeOperatorOnly : errorCodes.notAuthorized),
    });
  if (extra.has(404))
    add(404, 'Not found, including records that belong to someone else', { notFound: refusal(errorCodes.notFound) });
  if (extra.has(409) || facts.idempotent)
    add(409, facts.idempotent ? 'Conflict: this `Idempotency-Key` was used for another request' : 'Conflict', {
      conflict: refusal(facts.idempotent ? errorCodes.idempotencyKeyReused : errorCodes.conflict),
    });
  if (changesState && route.takesInput) {
    add(413, 'The body is over 1 MiB', { tooLarge: refusal(errorCodes.payloadTooLarge) });
    add(415, 'A content type the route does not take', { contentType: refusal(errorCodes.unsupportedMediaType) });
  }
  if (extra.has(422))
    add(422, 'Refused by a business rule', {
      rule: refusal(
        businessRuleExample[facts.tag] ??
          (facts.idempotent ? errorCodes.insufficientFunds : errorCodes.invalidArguments),
      ),
    });
  if (route.throttled)
    add(429, 'Too many attempts: try again after `Retry-After` seconds', {
      throttled: refusal(errorCodes.tooManyRequests),
    });
  add(500, 'Unexpected failure; nothing is said of it but this', { internal: refusal(errorCodes.internal) });
  if (extra.has(503))
    add(503, 'Busy or a dependency did not answer: nothing was done; retry (with the same key) after `Retry-After`', {
      busy: refusal(errorCodes.ledgerBusy),
    });
  return Object.fromEntries(
    Object.entries(responses).map(([status, { description, examples }]) => [
      status,
      {
        description,
        content: {
          'application/json': {
            schema: { $ref: '#/components/schemas/ErrorEnvelope' },
            examples: Object.fromEntries(Object.entries(examples).map(([name, value]) => [name, { value }])),
          },
        },
      },
    ]),
  );
}

const MINOR_UNITS =
  'Integer amount in minor units of its currency: cents for USD and CAD, hundredths of a coin for CON, whole impressions for IMP, satoshis for bitcoin.';
const COIN_UNITS = 'Integer number of coins in hundredths (CON minor units: 100 is one coin).';
const SATOSHIS = 'Integer amount of bitcoin in satoshis.';
const MONEY_NAME =
  /amount|balance|available|withdrawable|reserved|total|held|price|fee|coins|coin_amt|coin_estimate|bitcoin|cents|sats|pending|settled|returned|sales|returns|^net$/i;
/** Integers named like money that count something else. */
const NOT_MONEY = /^events_/;

/** Every integer money field says it is minor units (unless its schema already says what it is). */
function describeAmounts(schema: unknown, name = ''): void {
  if (Array.isArray(schema)) {
    for (const each of schema) describeAmounts(each, name);
    return;
  }
  if (typeof schema !== 'object' || schema === null) return;
  const node = schema as Json;
  if (node.type === 'integer' && MONEY_NAME.test(name) && !NOT_MONEY.test(name) && node.description === undefined)
    node.description = /coin/i.test(name) ? COIN_UNITS : /sats|bitcoin/i.test(name) ? SATOSHIS : MINOR_UNITS;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'examples' || key === 'example') continue;
    if (key === 'properties' && typeof value === 'object' && value !== null)
      for (const [property, child] of Object.entries(value)) describeAmounts(child, property);
    else describeAmounts(value, ['items', 'anyOf', 'oneOf', 'allOf', 'additionalProperties'].includes(key) ? name : '');
  }
}

/** A multipart/form-data body: the form's text fields (the same zod schema that checks them) and its `file`. */
function multipartBody(fields: z.ZodType): NonNullable<Operation['requestBody']> {
  const schema = z.toJSONSchema(fields, { target: 'openapi-3.0', io: 'input', unrepresentable: 'any' }) as Json & {
    properties?: Json;
    required?: string[];
  };
  return {
    required: true,
    content: {
      'multipart/form-data': {
        schema: {
          ...schema,
          properties: { ...schema.properties, file: { type: 'string', format: 'binary' } },
          required: [...(schema.required ?? []), 'file'],
        },
      },
    },
  };
}

/** A fastify path (`/a/:id`) as OpenAPI writes it (`/a/{id}`), and back. */
const fastifyPath = (openApiPath: string) => openApiPath.replace(/\{([^}]+)\}/g, ':$1');

const hasInput = (schema: RouteOptions['schema']) =>
  schema !== undefined &&
  (schema.body !== undefined || schema.querystring !== undefined || schema.params !== undefined);

/**
 * The OpenAPI document at GET /api/docs, generated from the routes' zod
 * schemas: the same ones that validate requests and the web app's forms.
 * What the schemas cannot say comes from each route's own config: who may
 * call it, CSRF, rate limit, and its `operation` (operationId, summary, tag,
 * the refusals its handler gives; see openapi/route-operation.ts). Register
 * before the routes it should describe: a route added later without its
 * `operation` stops the app from starting.
 */
export const openApi = fp(
  async (app: FastifyInstance) => {
    const routeFacts = new Map<string, RouteFacts & { operation?: RouteOperation }>();
    app.addHook('onRoute', describedRoutes());
    await app.register(swagger, {
      openapi: {
        openapi: '3.0.3',
        info: {
          title: 'Peeks Wallet API',
          version: '1.0.0',
          description: [
            'Every answer is JSON: `{"response":"success", …}` or the error envelope `{"response":"error", message, errors:[{code, field?, message}]}`; codes come from the catalogue in `packages/contracts/src/error-codes.ts`.',
            'Sign in with `POST /api/login`; the session is an HttpOnly cookie. Every state-changing request carries the session’s CSRF token (from `GET /api/session`) in `X-CSRF-Token`.',
            'Amounts are integers in minor units of their currency (cents; hundredths of a coin for CON), except the deposit forms’ whole-dollar amounts, which say so.',
            'Money-moving requests accept an `Idempotency-Key`: the same key and request answer the first result again and move nothing twice.',
          ].join('\n\n'),
          license: { name: 'Proprietary', url: 'https://peeks-wallet.example/terms' },
        },
        servers: [{ url: '/', description: 'This server' }],
        tags: Object.entries(featureTags).map(([name, description]) => ({ name, description })),
        components: {
          securitySchemes: {
            session: {
              type: 'apiKey',
              in: 'cookie',
              name: SESSION_COOKIE,
              description: 'The session cookie set by `GET /api/session` and `POST /api/login`.',
            },
            csrf: {
              type: 'apiKey',
              in: 'header',
              name: 'X-CSRF-Token',
              description: 'The session’s CSRF token (`csrfToken` of `GET /api/session`), on every POST.',
            },
            processor: {
              type: 'http',
              scheme: 'bearer',
              description: 'The platform’s credential for the sandbox card processor (`CARD_PROCESSOR_SECRET`).',
            },
          },
          parameters: {
            IdempotencyKey: {
              name: 'Idempotency-Key',
              in: 'header',
              required: false,
              description:
                'One key per attempt: a retry with the same key and request answers the first result and moves nothing again; the same key with another request is 409 (40901).',
              schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
              example: 'send-2f9c1d7e-5b1a-4c1e-9d2b-7a6f3e0c8b41',
            },
          },
        },
      },
      transform: (input) => {
        const { route } = input;
        const declared = route.config?.access;
        const facts: RouteFacts = {
          access: declared === 'public' ? 'public' : declared === 'processor' ? 'processor' : 'signed-in',
          csrf: route.config?.csrf !== false,
          throttled: route.config?.rateLimit !== undefined && route.config.rateLimit !== false,
          takesInput: hasInput(route.schema) || route.url.includes(':'),
        };
        const { operation } = route.config ?? {};
        for (const method of [route.method].flat())
          routeFacts.set(routeKey(method, route.url), operation === undefined ? facts : { ...facts, operation });
        return jsonSchemaTransform(input);
      },
      transformObject: (documentObject) => {
        if (!('openapiObject' in documentObject)) throw new Error('the API is described in OpenAPI 3 only');
        const document = documentObject.openapiObject as OpenApiDocument;
        document.components.schemas = {
          ...document.components.schemas,
          ErrorEnvelope: z.toJSONSchema(errorEnvelope, { target: 'openapi-3.0' }),
        };
        for (const [path, methods] of Object.entries(document.paths)) {
          for (const [method, operation] of Object.entries(methods)) {
            const key = routeKey(method.toUpperCase(), fastifyPath(path));
            const route = routeFacts.get(key);
            const facts = route?.operation;
            if (!facts) throw new Error(`${key} does not describe itself in config.operation`);
            const changesState = CHANGES_STATE.has(method.toUpperCase());
            operation.operationId = facts.operationId;
            operation.summary = facts.summary;
            if (facts.description !== undefined) operation.description = facts.description;
            operation.tags = [facts.tag];
            operation.security =
              route.access === 'processor'
                ? [{ processor: [] }]
                : route.csrf && changesState
                  ? [{ session: [], csrf: [] }]
                  : route.access === 'signed-in'
                    ? [{ session: [] }]
                    : [];
            if (facts.idempotent)
              operation.parameters = [
                ...(operation.parameters ?? []),
                { $ref: '#/components/parameters/IdempotencyKey' },
              ];
            for (const response of Object.values(operation.responses))
              if (response.description === 'Default Response') response.description = 'Done';
            const done = operation.responses['200'];
            if (facts.produces !== undefined && done)
              done.content = {
                [facts.produces]: {
                  schema: { type: 'string', ...(facts.produces === 'image/*' ? { format: 'binary' } : {}) },
                },
              };
            const json = operation.requestBody?.content?.['application/json'];
            if (facts.example !== undefined && json) json.example = facts.example;
            if (facts.form !== undefined) operation.requestBody = multipartBody(facts.form);
            Object.assign(operation.responses, errorResponses(facts, route, method.toUpperCase()));
            describeAmounts(operation.requestBody);
            describeAmounts(operation.parameters);
            describeAmounts(operation.responses);
          }
        }
        return document;
      },
    });
    app.get('/api/docs', { schema: { hide: true }, config: { access: 'public' } }, () => app.swagger());
  },
  { name: 'openapi' },
);
