import type { PersonSummary } from '@peeks/contracts';
import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FieldShell } from '../../ui/fields.tsx';
import { operationsApi } from './operations-api.ts';
import { operationsKeys } from './use-load.ts';

/** Fewer letters match too many people to be worth a suggestion list. */
const SHORTEST_SEARCH = 2;
const MOST_SUGGESTIONS = 6;

/**
 * A person picked by username or e-mail: what is typed looks people up
 * (the console's people search) and lists them under the field; picking
 * one names them in the form's `name` field as their user id.
 */
export function PersonPicker({
  name,
  label,
  picked,
  onPick,
}: {
  name: string;
  label: string;
  picked: PersonSummary | null;
  onPick: (person: PersonSummary | null) => void;
}) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  const search = useDeferredValue(typed.trim());
  const looking = picked === null && search.length >= SHORTEST_SEARCH;
  const found = useQuery({
    queryKey: [...operationsKeys.all, 'people', search],
    queryFn: () => operationsApi.people(search),
    enabled: looking,
  });
  const people = (found.data?.people ?? []).slice(0, MOST_SUGGESTIONS);
  return (
    <FieldShell name={name} label={label} hint={picked ? null : t('operations.corrections.person_hint')}>
      {({ inputId, describedBy, invalid }) => (
        <div className="person-picker">
          <input
            id={inputId}
            aria-describedby={describedBy}
            aria-invalid={invalid}
            autoComplete="off"
            value={picked ? picked.username : typed}
            onChange={(event) => {
              setTyped(event.target.value);
              if (picked) onPick(null);
            }}
          />
          {picked && (
            <p className="person-picked" role="status">
              {t('operations.corrections.picked', { username: picked.username, email: picked.email })}
            </p>
          )}
          {looking && found.data && (
            <ul className="person-suggestions" aria-label={t('operations.corrections.suggestions')}>
              {people.length === 0 ? (
                <li className="help">{t('operations.corrections.nobody')}</li>
              ) : (
                people.map((person) => (
                  <li key={person.user_id}>
                    <button
                      type="button"
                      className="button"
                      onClick={() => {
                        setTyped(person.username);
                        onPick(person);
                      }}
                    >
                      <strong>{person.username}</strong> <span>{person.email}</span>
                    </button>
                  </li>
                ))
              )}
            </ul>
          )}
        </div>
      )}
    </FieldShell>
  );
}
