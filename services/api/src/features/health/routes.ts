import { errorCatalogue, errorCodes, healthResponse } from '@peeks/contracts';
import { latestMigration } from '@peeks/db';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApiError } from '../../plugins/error-envelope.ts';

/** GET /api/health: the API is up, its database answers, and at which migration. */
export const healthRoutes: FastifyPluginAsyncZod = (app) => {
  app.get(
    '/api/health',
    {
      config: {
        access: 'public',
        operation: { operationId: 'getHealth', summary: 'Check that the API and its database answer', tag: 'health' },
      },
      schema: { response: { 200: healthResponse } },
    },
    async (request) => {
      let migration: string | null;
      try {
        migration = await latestMigration(app.db);
      } catch (error) {
        request.log.error({ err: error }, 'health check: database did not answer');
        throw new ApiError(503, 'Database is unavailable', [
          { code: errorCodes.unavailable, message: errorCatalogue[errorCodes.unavailable] },
        ]);
      }
      return { response: 'success' as const, database: 'up' as const, migration };
    },
  );
  return Promise.resolve();
};
