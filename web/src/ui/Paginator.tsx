import { useTranslation } from 'react-i18next';

/** At most this many page numbers are shown at once (spec §9). */
const PAGE_NUMBERS_SHOWN = 5;

/** The page numbers to offer around `page` (1-based), a window of at most five. */
export function pageWindow(page: number, pages: number): number[] {
  const first = Math.max(1, Math.min(page - Math.floor(PAGE_NUMBERS_SHOWN / 2), pages - PAGE_NUMBERS_SHOWN + 1));
  const last = Math.min(pages, first + PAGE_NUMBERS_SHOWN - 1);
  return Array.from({ length: last - first + 1 }, (_, index) => first + index);
}

export interface PaginatorProps {
  /** 1-based. */
  page: number;
  total: number;
  pageSize: number;
  onPage: (page: number) => void;
  label: string;
}

/** Offset paging for lists: previous, up to five page numbers, next. Nothing is shown for a single page. */
export function Paginator({ page, total, pageSize, onPage, label }: PaginatorProps) {
  const { t } = useTranslation();
  const pages = Math.ceil(total / pageSize);
  if (pages <= 1) return null;
  return (
    <nav className="paginator" aria-label={label}>
      <button
        type="button"
        className="link-button"
        disabled={page <= 1}
        onClick={() => {
          onPage(page - 1);
        }}
      >
        {t('paginator.previous')}
      </button>
      {pageWindow(page, pages).map((number) => (
        <button
          key={number}
          type="button"
          className="link-button"
          aria-current={number === page ? 'page' : undefined}
          aria-label={t('paginator.page', { number })}
          onClick={() => {
            onPage(number);
          }}
        >
          {number}
        </button>
      ))}
      <button
        type="button"
        className="link-button"
        disabled={page >= pages}
        onClick={() => {
          onPage(page + 1);
        }}
      >
        {t('paginator.next')}
      </button>
    </nav>
  );
}
