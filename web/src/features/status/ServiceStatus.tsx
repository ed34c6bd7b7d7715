import { healthResponse, type HealthResponse } from '@peeks/contracts';
import { useEffect, useState } from 'react';

type Status = { state: 'loading' } | { state: 'up'; health: HealthResponse } | { state: 'down' };

/** Reads GET /api/health once and says whether the service and its database answer. */
export function ServiceStatus() {
  const [status, setStatus] = useState<Status>({ state: 'loading' });

  useEffect(() => {
    const controller = new AbortController();
    fetch('/api/health', { signal: controller.signal })
      .then(async (response) => {
        const parsed = healthResponse.safeParse(await response.json());
        setStatus(response.ok && parsed.success ? { state: 'up', health: parsed.data } : { state: 'down' });
      })
      .catch(() => {
        if (!controller.signal.aborted) setStatus({ state: 'down' });
      });
    return () => {
      controller.abort();
    };
  }, []);

  return (
    <p role="status" aria-live="polite">
      {status.state === 'loading' && 'Checking the service…'}
      {status.state === 'up' && `Service is up; database at migration ${status.health.migration ?? 'none'}.`}
      {status.state === 'down' && 'The service is not answering right now.'}
    </p>
  );
}
