import type { ColumnDef } from '@tanstack/react-table';
import { useEffect, useState, type ReactNode, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { currencyCode } from '@peeks/contracts';
import { Button } from '../../ui/Button.tsx';
import { DataTable } from '../../ui/DataTable.tsx';
import { Input, Select } from '../../ui/fields.tsx';
import { Paginator } from '../../ui/Paginator.tsx';
import { Skeleton } from '../../ui/Skeleton.tsx';
import { toast } from '../../ui/toasts.tsx';
import { onLiveMessage } from '../wallet/index.ts';
import { download } from './history-csv.ts';
import { PAGE_SIZE } from './history-api.ts';

/** What the filter form holds: strings, as the controls give them; '' is "all". */
export interface FilterValues {
  type: string;
  currency: string;
  from: string;
  to: string;
  search: string;
}
const NO_FILTER: FilterValues = { type: '', currency: '', from: '', to: '', search: '' };
type FilterErrors = Partial<Record<keyof FilterValues, string>>;

export interface HistoryTabProps<Row, Filter> {
  caption: string;
  /** The contracts' schema the route checks too, so the form says what the server would. */
  schema: z.ZodType<Filter>;
  typeOptions: readonly { value: string; label: string }[];
  load: (filter: Filter, offset: number) => Promise<{ rows: Row[]; total: number }>;
  loadAll: (filter: Filter) => Promise<Row[]>;
  csv: (rows: readonly Row[]) => string;
  fileName: string;
  columns: (open: (row: Row) => void) => ColumnDef<Row>[];
  rowKey: (row: Row) => string;
  details: (row: Row, close: () => void) => ReactNode;
}

/** The last answer, and which request (filter, page, reload) it answers: another key means it is loading. */
interface Answered<Row> {
  key: string;
  failed: boolean;
  rows?: Row[];
  total?: number;
}

/**
 * One tab of /transaction: the filters, the page of rows (15, newest first,
 * the server filtering and paging), the paginator, the export of everything
 * the filters let through, and a row's Details. A commit that touches the
 * user's money (the live feed's `activity`) reloads the page shown.
 */
export function HistoryTab<Row, Filter>(props: HistoryTabProps<Row, Filter>) {
  const { t } = useTranslation();
  const { schema, load } = props;
  const [values, setValues] = useState<FilterValues>(NO_FILTER);
  const [errors, setErrors] = useState<FilterErrors>({});
  const [filter, setFilter] = useState<Filter>(() => schema.parse(NO_FILTER));
  const [page, setPage] = useState(1);
  const [version, setVersion] = useState(0);
  const [answered, setAnswered] = useState<Answered<Row>>({ key: '', failed: false });
  const key = JSON.stringify([filter, page, version]);
  const [open, setOpen] = useState<Row | null>(null);
  const [exporting, setExporting] = useState(false);

  useEffect(
    () =>
      onLiveMessage((message) => {
        if (message.type === 'activity') setVersion((each) => each + 1);
      }),
    [],
  );

  useEffect(() => {
    let current = true;
    load(filter, (page - 1) * PAGE_SIZE).then(
      ({ rows, total }) => {
        if (current) setAnswered({ key, failed: false, rows, total });
      },
      () => {
        // The rows shown before stay, under the failure notice.
        if (current) setAnswered((before) => ({ ...before, key, failed: true }));
      },
    );
    return () => {
      current = false;
    };
  }, [load, filter, page, key]);
  const loading = answered.key !== key;

  const apply = (event: SyntheticEvent) => {
    event.preventDefault();
    const parsed = schema.safeParse(values);
    if (!parsed.success) {
      const found: FilterErrors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as keyof FilterValues | undefined;
        if (field && !(field in found)) found[field] = issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    setFilter(parsed.data);
    setPage(1);
  };
  const clear = () => {
    setValues(NO_FILTER);
    setErrors({});
    setFilter(schema.parse(NO_FILTER));
    setPage(1);
  };
  const exportCsv = async () => {
    setExporting(true);
    try {
      download(props.csv(await props.loadAll(filter)), props.fileName);
      toast(t('history.exported', { file: props.fileName }));
    } catch {
      toast(t('history.export_failed'), 'error');
    } finally {
      setExporting(false);
    }
  };
  const edit = (field: keyof FilterValues) => (event: { target: { value: string } }) => {
    setValues((before) => ({ ...before, [field]: event.target.value }));
  };

  return (
    <div className="history">
      <form className="history-filters" aria-label={t('history.filters.label')} onSubmit={apply} noValidate>
        <Select
          label={t('history.filters.type')}
          value={values.type}
          onChange={edit('type')}
          error={errors.type}
          options={[{ value: '', label: t('history.filters.all_types') }, ...props.typeOptions]}
        />
        <Select
          label={t('history.filters.currency')}
          value={values.currency}
          onChange={edit('currency')}
          error={errors.currency}
          options={[
            { value: '', label: t('history.filters.all_currencies') },
            ...currencyCode.options.map((code) => ({ value: code, label: code })),
          ]}
        />
        <Input
          label={t('history.filters.from')}
          type="date"
          value={values.from}
          onChange={edit('from')}
          error={errors.from}
        />
        <Input label={t('history.filters.to')} type="date" value={values.to} onChange={edit('to')} error={errors.to} />
        <Input
          label={t('history.filters.search')}
          type="search"
          hint={t('history.filters.search_hint')}
          value={values.search}
          onChange={edit('search')}
          error={errors.search}
        />
        <div className="buttons">
          <Button type="submit" variant="primary">
            {t('history.filters.apply')}
          </Button>
          <Button onClick={clear}>{t('history.filters.clear')}</Button>
          <Button
            variant="ghost"
            busy={exporting}
            onClick={() => {
              void exportCsv();
            }}
          >
            {exporting ? t('history.exporting') : t('history.export_csv')}
          </Button>
        </div>
      </form>
      {answered.failed && !loading && (
        <div className="notice" role="alert">
          <p>{t('history.failed')}</p>
          <Button
            onClick={() => {
              setVersion((each) => each + 1);
            }}
          >
            {t('history.retry')}
          </Button>
        </div>
      )}
      {answered.rows === undefined ? (
        loading && <Skeleton lines={6} />
      ) : (
        <div aria-busy={loading}>
          <DataTable
            caption={props.caption}
            columns={props.columns(setOpen)}
            rows={answered.rows}
            rowKey={props.rowKey}
            empty={t('history.no_records')}
          />
          <Paginator
            page={page}
            total={answered.total ?? 0}
            pageSize={PAGE_SIZE}
            onPage={setPage}
            label={props.caption}
          />
        </div>
      )}
      {open !== null &&
        props.details(open, () => {
          setOpen(null);
        })}
    </div>
  );
}
