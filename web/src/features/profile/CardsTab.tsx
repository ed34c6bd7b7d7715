import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Loaded } from '../../lib/loaded.ts';
import { ServerErrors } from '../../ui/feedback.tsx';
import { PageLoader } from '../../ui/PageLoader.tsx';

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
  loaded: Loaded<readonly Item[]>;
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
        {loaded.status === 'ready' && loaded.value.length > 0 && add}
      </div>
      {loaded.status === 'loading' && <PageLoader label={t('profile.loading')} />}
      {loaded.status === 'failed' && <ServerErrors texts={loaded.errors} />}
      {loaded.status === 'ready' && loaded.value.length === 0 && (
        <div className="empty-state">
          <p>{empty}</p>
          {add}
        </div>
      )}
      {loaded.status === 'ready' && loaded.value.length > 0 && (
        <ul className="cards">
          {loaded.value.map((item, index) => (
            <li key={keyOf(item)} className="card small-card">
              {card(item, index)}
            </li>
          ))}
        </ul>
      )}
      {children}
    </section>
  );
}
