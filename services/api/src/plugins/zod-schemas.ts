import { errorCodes, type ApiErrorItem } from '@peeks/contracts';
import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';
import fp from 'fastify-plugin';
import { serializerCompiler } from 'fastify-type-provider-zod';
import type { z } from 'zod';

/** A request that its route's zod schema refused; each problem already in the envelope's terms. */
export class InvalidInput extends Error {
  readonly statusCode = 400;
  readonly problems: ApiErrorItem[];
  constructor(problems: ApiErrorItem[]) {
    super(problems[0]?.message ?? 'Invalid input');
    this.name = 'InvalidInput';
    this.problems = problems;
  }
}

/**
 * The catalogue code of one zod issue: the code a schema attached to its own
 * rule (4018 for a birth date), 4215 for a missing value, 4002 otherwise.
 */
function codeOf(issue: z.core.$ZodIssue): number {
  if (issue.code === 'custom' && typeof issue.params?.code === 'number') return issue.params.code;
  const missing = issue.input === undefined || issue.input === null || issue.input === '';
  return missing ? errorCodes.requiredField : errorCodes.invalidArguments;
}

/** One problem per field, the first one its schema found: the forms show one message per field too. */
export function problemsOf(issues: readonly z.core.$ZodIssue[]): ApiErrorItem[] {
  const byField = new Map<string, ApiErrorItem>();
  for (const issue of issues) {
    const field = issue.path.map(String).join('.');
    if (!byField.has(field))
      byField.set(field, { code: codeOf(issue), ...(field ? { field } : {}), message: issue.message });
  }
  return [...byField.values()];
}

/**
 * Requests are parsed by the route's zod schema (the same schema the web
 * forms use), and its issues become the envelope's `errors`. The input is
 * reported to the mapping to tell "missing" from "wrong", and is not kept:
 * it may be a password. Responses are encoded by their zod schema.
 */
const validatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema }) =>
  (data) => {
    const result = schema.safeParse(data, { reportInput: true });
    return result.success ? { value: result.data } : { error: new InvalidInput(problemsOf(result.error.issues)) };
  };

export const zodSchemas = fp(
  (app: FastifyInstance) => {
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
  },
  { name: 'zod-schemas' },
);
