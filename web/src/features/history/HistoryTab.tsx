import { keepPreviousData, useQuery, type QueryKey } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useEffect, useId, useRef, useState, type ReactNode, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { currencyCode } from '@peeks/contracts';
import { queryClient } from '../../lib/query.ts';
import { Button } from '../../ui/Button.tsx';
import { DataTable } from '../../ui/DataTable.tsx';
import { Input, Select } from '../../ui/fields.tsx';
import { Paginator } from '../../ui/Paginator.tsx';
import { QueryView } from '../../ui/QueryView.tsx';
import { Skeleton } from '../../ui/Skeleton.tsx';
import { toast } from '../../ui/toasts.tsx';
import { onLiveMessage } from '../wallet/index.ts';
import { download } from './history-csv.ts';
import { historyKeys, PAGE_SIZE } from './history-api.ts';

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
  /** The page's key in the history's query-key factory. */
  queryKey: (filter: Filter, page: number) => QueryKey;
  load: (filter: Filter, offset: number, signal: AbortSignal) => Promise<{ rows: Row[]; total: number }>;
  loadAll: (filter: Filter) => Promise<Row[]>;
  csv: (rows: readonly Row[]) => string;
  fileName: string;
  columns: (open: (row: Row) => void) => ColumnDef<Row>[];
  rowKey: (row: Row) => string;
  details: (row: Row, close: () => void) => ReactNode;
}

/**
 * One tab of /transaction: the filters, the page of rows (15, newest first,
 * the server filtering and paging), the paginator, the export of everything
 * the filters let through, and a row's Details. A commit that touches the
 * user's money (the live feed's `activity`) reads the history again.
 */
export function HistoryTab<Row, Filter>(props: HistoryTabProps<Row, Filter>) {
  const { t } = useTranslation();
  const { schema, load, queryKey } = props;
  const [values, setValues] = useState<FilterValues>(NO_FILTER);
  const [errors, setErrors] = useState<FilterErrors>({});
  const [filter, setFilter] = useState<Filter>(() => schema.parse(NO_FILTER));
  // What the shown rows were filtered by, counted on the phone's Filters button.
  const [applied, setApplied] = useState<FilterValues>(NO_FILTER);
  const [filtersOpen, setFiltersOpen] = useState(false);
  const filtersId = useId();
  const filtersButton = useRef<HTMLButtonElement>(null);
  const active = Object.values(applied).filter((value) => value !== '').length;
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<Row | null>(null);
  const [exporting, setExporting] = useState(false);
  const rows = useQuery({
    queryKey: queryKey(filter, page),
    queryFn: ({ signal }) => load(filter, (page - 1) * PAGE_SIZE, signal),
    // The page shown stays while the next one loads, so the paginator keeps focus.
    placeholderData: keepPreviousData,
  });

  useEffect(
    () =>
      onLiveMessage((message) => {
        if (message.type === 'activity') void queryClient.invalidateQueries({ queryKey: historyKeys.all });
      }),
    [],
  );

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
    setApplied(values);
    setPage(1);
    // On a phone the filters fold away once applied so the rows lead; focus stays with their button.
    const button = filtersButton.current;
    if (button && getComputedStyle(button).display !== 'none') {
      setFiltersOpen(false);
      button.focus();
    }
  };
  const clear = () => {
    setValues(NO_FILTER);
    setErrors({});
    setFilter(schema.parse(NO_FILTER));
    setApplied(NO_FILTER);
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
      {/* On a phone the filters sit behind this button (CSS shows the form always on a wide screen). */}
      <div className="history-toolbar">
        <button
          ref={filtersButton}
          type="button"
          className="button history-filters-toggle"
          aria-expanded={filtersOpen}
          aria-controls={filtersId}
          onClick={() => {
            setFiltersOpen((before) => !before);
          }}
        >
          {t('history.filters.label')}
          {active > 0 && (
            <>
              {' '}
              <span className="filter-count" aria-hidden="true">
                {active}
              </span>
              <span className="visually-hidden">{t('history.filters.active', { count: active })}</span>
            </>
          )}
        </button>
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
      <form
        id={filtersId}
        className={filtersOpen ? 'history-filters open' : 'history-filters'}
        aria-label={t('history.filters.label')}
        onSubmit={apply}
        noValidate
      >
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
            ...currencyCode.options.map((code) => ({ value: code, label: t(`currencies.${code}`) })),
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
        </div>
      </form>
      <QueryView
        query={rows}
        loading={<Skeleton lines={6} />}
        failed={(_texts, retry) => (
          <div className="notice" role="alert">
            <p>{t('history.failed')}</p>
            <Button onClick={retry}>{t('history.retry')}</Button>
          </div>
        )}
      >
        {(answer) => (
          <div aria-busy={rows.isFetching}>
            <DataTable
              caption={props.caption}
              columns={props.columns(setOpen)}
              rows={answer.rows}
              rowKey={props.rowKey}
              empty={t('history.no_records')}
            />
            <Paginator page={page} total={answer.total} pageSize={PAGE_SIZE} onPage={setPage} label={props.caption} />
          </div>
        )}
      </QueryView>
      {open !== null &&
        props.details(open, () => {
          setOpen(null);
        })}
    </div>
  );
}
