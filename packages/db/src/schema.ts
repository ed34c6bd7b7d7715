import type { ColumnType, Generated } from 'kysely';

/**
 * The kysely view of the schema that `migrations/` builds. `schemaColumns`
 * below lists the same columns at run time, and a test compares it with the
 * migrated database, so the two cannot drift apart unnoticed.
 */
export interface Database {
  streams: StreamsTable;
  events: EventsTable;
  idempotency_keys: IdempotencyKeysTable;
}

export interface StreamsTable {
  stream_id: string;
  created_at: ColumnType<Date, Date, never>;
}

export interface EventsTable {
  position: Generated<number>;
  stream_id: string;
  stream_version: number;
  type: string;
  data: ColumnType<unknown, string, never>;
  metadata: ColumnType<unknown, string, never>;
  created_at: ColumnType<Date, Date, never>;
  /** `xid8`, kept as its decimal text: compare it in SQL, not in JavaScript. */
  transaction_id: Generated<string>;
  prev_hash: string;
  hash: string;
}

export interface IdempotencyKeysTable {
  scope: string;
  key: string;
  fingerprint: string;
  status_code: number | null;
  response: ColumnType<unknown, string | null, string>;
  created_at: Generated<Date>;
  completed_at: Date | null;
}

type Columns<Table> = readonly (keyof Table & string)[];
type ExactlyAll<Table, List extends Columns<Table>> =
  Exclude<keyof Table, List[number]> extends never ? List : ['missing columns', Exclude<keyof Table, List[number]>];

function columnsOf<Table>() {
  return <const List extends Columns<Table>>(list: ExactlyAll<Table, List>) => list;
}

export const schemaColumns = {
  streams: columnsOf<StreamsTable>()(['stream_id', 'created_at']),
  events: columnsOf<EventsTable>()([
    'position', 'stream_id', 'stream_version', 'type', 'data', 'metadata', 'created_at', 'transaction_id', 'prev_hash', 'hash',
  ]),
  idempotency_keys: columnsOf<IdempotencyKeysTable>()([
    'scope', 'key', 'fingerprint', 'status_code', 'response', 'created_at', 'completed_at',
  ]),
} satisfies { [Table in keyof Database]: Columns<Database[Table]> };
