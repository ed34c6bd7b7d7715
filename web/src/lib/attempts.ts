/**
 * One Idempotency-Key per attempt the user makes at a money-moving call.
 * Sending the same request again before the server settled the last one
 * (no answer, or a 5xx) is the same attempt and keeps its key, so the
 * server answers it with the first outcome instead of moving money twice;
 * a different request, or any after a settled answer, is a new attempt.
 */
export function attemptKeys(newKey: () => string = () => crypto.randomUUID()) {
  let last: { request: string; key: string; settled: boolean } | null = null;
  return {
    keyFor(request: unknown): string {
      const text = JSON.stringify(request);
      if (last?.request !== text || last.settled) last = { request: text, key: newKey(), settled: false };
      return last.key;
    },
    /** The server answered the last attempt for good: success, or a refusal (an HTTP status below 500). */
    settled(status: number) {
      if (last && status > 0 && status < 500) last.settled = true;
    },
  };
}
