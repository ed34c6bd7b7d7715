import type { ExpectedVersion } from './types.ts';

/** The stream was not at the version the writer expected; nothing was written. */
export class StreamVersionConflict extends Error {
  readonly streamId: string;
  readonly expectedVersion: ExpectedVersion;
  readonly actualVersion: number | null;

  constructor(streamId: string, expectedVersion: ExpectedVersion, actualVersion: number | null) {
    super(
      `stream ${streamId} is at version ${actualVersion ?? 'unknown (changed concurrently)'}, expected ${expectedVersion}`,
    );
    this.name = 'StreamVersionConflict';
    this.streamId = streamId;
    this.expectedVersion = expectedVersion;
    this.actualVersion = actualVersion;
  }
}

/** An event that cannot be stored as given (not JSON, or text Postgres refuses). */
export class InvalidEvent extends Error {
  constructor(message: string, options?: { cause: unknown }) {
    super(message, options);
    this.name = 'InvalidEvent';
  }
}
