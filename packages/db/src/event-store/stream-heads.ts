/** A stream's last event: the version and hash the next append chains from. */
export interface StreamHead {
  version: number;
  hash: string;
}

/**
 * The last head this process saw per stream, so that appending to a hot
 * stream needs no read first. Only a hint: an append checks, in the same
 * statement, that the event it chains from exists with that hash, so a stale
 * entry (another process appended, or our transaction rolled back) costs one
 * re-read and never a wrong chain. Least recently used entries go first.
 */
export class StreamHeads {
  readonly #heads = new Map<string, StreamHead>();
  readonly #capacity: number;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  get(streamId: string): StreamHead | undefined {
    const head = this.#heads.get(streamId);
    if (head) {
      this.#heads.delete(streamId);
      this.#heads.set(streamId, head);
    }
    return head;
  }

  set(streamId: string, head: StreamHead): void {
    this.#heads.delete(streamId);
    this.#heads.set(streamId, head);
    if (this.#heads.size > this.#capacity) this.#heads.delete(this.#heads.keys().next().value ?? streamId);
  }
}

export const streamHeads = new StreamHeads(50_000);
