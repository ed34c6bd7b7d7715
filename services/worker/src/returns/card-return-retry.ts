import { retryStalledCardReturns, type CardReturnDeps } from '@peeks/card-processor';
import type { PgBoss } from 'pg-boss';
import { CARD_RETURN_RETRY_QUEUE } from '@peeks/jobs';
import { workEach } from '../job.ts';

/** Every minute, the stalled card returns are finished (see retryStalledCardReturns). */
export async function runCardReturnRetry(boss: PgBoss, deps: CardReturnDeps): Promise<void> {
  await boss.schedule(CARD_RETURN_RETRY_QUEUE.name, '* * * * *', {}, { tz: 'UTC' });
  await workEach(boss, CARD_RETURN_RETRY_QUEUE.name, async () => {
    const outcome = await retryStalledCardReturns(deps);
    if (outcome.finished + outcome.failed + outcome.flagged + outcome.stillPending > 0)
      deps.log.info(outcome, 'stalled card returns');
  });
}
