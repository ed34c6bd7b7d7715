import { errorCodes } from '@peeks/contracts';
import { destinationProblem, type DestinationPolicy } from '@peeks/jobs';
import { refuse } from '../../plugins/error-envelope.ts';

/**
 * Refuses a webhook URL whose host is, or resolves to, any non-public address
 * (SSRF: a merchant must not make the server call its own network). A host
 * that does not resolve is refused too: nothing could be delivered to it.
 * The worker checks again at connect time, since DNS answers can change.
 */
export async function checkDestination(url: string, policy: DestinationPolicy): Promise<void> {
  const problem = await destinationProblem(url, policy);
  if (problem === 'host unresolved') throw refuse(422, errorCodes.webhookHostUnresolved, { field: 'url' });
  if (problem === 'private address') throw refuse(422, errorCodes.webhookPrivateAddress, { field: 'url' });
}
