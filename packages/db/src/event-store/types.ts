/** A JSON object: what an event's data and metadata are, and all they may be. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** An event as a command decides it, before the store gives it a place. */
export interface NewEvent<Type extends string = string, Data extends JsonObject = JsonObject> {
  type: Type;
  data: Data;
}

/** Who and what caused an append; stored with every event of that append. */
export interface EventMetadata {
  actor: string | null;
  requestId: string | null;
  idempotencyKey: string | null;
  /** fingerprintRequest() of the request that carried `idempotencyKey`: a retry with another request is told apart. */
  requestFingerprint: string | null;
  clientIp: string | null;
}

export interface StoredEvent<Type extends string = string, Data extends JsonObject = JsonObject> {
  /** Global position: unique and increasing in insertion order, but not commit order. */
  position: number;
  streamId: string;
  streamVersion: number;
  type: Type;
  data: Data;
  metadata: EventMetadata;
  createdAt: Date;
  /** The writing transaction's id (`xid8`) as decimal text. */
  transactionId: string;
  prevHash: string;
  hash: string;
}

/**
 * What the stream must look like for an append to go through: a version
 * number (0 = the stream must not exist yet), or `'any'`.
 */
export type ExpectedVersion = number | 'any';

/**
 * Where a global reader has got to. Events are read in (transaction id,
 * position) order, which, unlike position alone, is an order in which no
 * event can later appear behind the checkpoint.
 */
export interface GlobalCheckpoint {
  transactionId: string;
  position: number;
}

export const START_OF_LOG: GlobalCheckpoint = { transactionId: '0', position: 0 };
