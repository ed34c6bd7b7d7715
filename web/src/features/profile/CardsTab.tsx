import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { UseQueryResult } from '@tanstack/react-query';
import { ServerErrors } from '../../ui/feedback.tsx';
import { PageLoader } from '../../ui/PageLoader.tsx';
import { QueryView } from '../../ui/QueryView.tsx';

/**
 * A profile tab that lists what the user saved as cards ('Address n',
 * 'Terminal n'): its title with the add button once there is something, or
 * 'You have 0 …' with the add button under it; then the dialogs the tab opens.
 */
export function CardsTab<Item>({
  headingId,
  title,
  addLabel,
  onAdd,
  empty,
  loaded,
  keyOf,
  card,
  children,
}: {
  headingId: string;
  title: string;
  addLabel: string;
  onAdd: () => void;
  empty: string;
  loaded: UseQueryResult<readonly Item[]>;
  keyOf: (item: Item) => string | number;
  card: (item: Item, index: number) => ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const add = (
    <button type="button" className="button primary" onClick={onAdd}>
      {addLabel}
    </button>
  );
  return (
    <section className="card" aria-labelledby={headingId}>
      <div className="panel-heading">
        <h2 id={headingId}>{title}</h2>
        {loaded.data !== undefined && loaded.data.length > 0 && add}
      </div>
      <QueryView
        query={loaded}
        loading={<PageLoader label={t('profile.loading')} />}
        failed={(texts) => <ServerErrors texts={texts} />}
        isEmpty={(items) => items.length === 0}
        empty={
          <div className="empty-state">
            <p>{empty}</p>
            {add}
          </div>
        }
      >
        {(items) => (
          <ul className="cards">
            {items.map((item, index) => (
              <li key={keyOf(item)} className="card small-card">
                {card(item, index)}
              </li>
            ))}
          </ul>
        )}
      </QueryView>
      {children}
    </section>
  );
}
