import type { Agreement } from '@peeks/contracts';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { useSnapshot } from 'valtio';
import { cached } from '../../lib/cache.ts';
import { session } from '../session/index.ts';
import { agreementKeys, firstPendingAgreement } from './agreements-api.ts';
import { addLaterTexts } from '../../i18n/later-texts.ts';
import { agreementsTexts } from './i18n.ts';

// Its own chunk: the texts come with it, not with the first load.
addLaterTexts(agreementsTexts);

// The dialog (and the HTML sanitiser it shows the text with) loads only for someone with an agreement pending,
// not on every dashboard visit.
const AgreementDialog = lazy(() =>
  import('./AgreementDialog.tsx').then((module) => ({ default: module.AgreementDialog })),
);

/** The agreement the dashboard flow stored for this user (spec §4), with its local flags. */
interface Stored {
  agreement: Agreement | null;
  is_accepted: boolean;
  is_skipped: boolean;
}

const storeOf = (userId: number) => cached<Stored>(`peeks.agreement.${userId}`);
const settled = (stored: Stored) => stored.is_accepted && stored.is_skipped;

/**
 * The dashboard's agreement flow (spec §4), step by step:
 * - a stored agreement not both accepted and skipped opens the modal;
 * - with none stored, the valid agreements not yet agreed are listed and the first is looked up;
 *   already agreed, it is stored as accepted and skipped; otherwise stored as pending and the modal opens;
 * - with no agreements, "accepted and skipped" is stored.
 * The modal cannot be dismissed: the dashboard is usable again once the
 * agreement is accepted, or skipped while agree_by is still ahead.
 */
export function PendingAgreement() {
  const { user } = useSnapshot(session);
  const userId = user?.user_id ?? null;
  const [doneFor, setDoneFor] = useState<number | null>(null);
  const stored = userId === null ? null : storeOf(userId).read();
  // Asked only while nothing is stored for this user; the answer is stored as it comes, so the flow runs once.
  // A failure is not blocking: nothing opens, and the flow runs again on the next visit.
  const fetched = useQuery({
    queryKey: agreementKeys.pending(userId ?? 0),
    enabled: userId !== null && stored === null,
    queryFn: async ({ signal }) => {
      const agreement = await firstPendingAgreement(signal);
      if (userId === null) return null;
      if (agreement === null) storeOf(userId).write({ agreement: null, is_accepted: true, is_skipped: true });
      else if (agreement.agreed_to !== null) storeOf(userId).write({ agreement, is_accepted: true, is_skipped: true });
      else storeOf(userId).write({ agreement, is_accepted: false, is_skipped: false });
      return agreement?.agreed_to === null ? agreement : null;
    },
  });

  if (userId === null || doneFor === userId) return null;
  // What is stored wins: the answer still cached from before an accept must not open the modal again.
  const pending = stored ? (settled(stored) ? null : stored.agreement) : (fetched.data ?? null);
  if (!pending) return null;
  return (
    <Suspense>
      <AgreementDialog
        agreement={pending}
        dismissable={false}
        onDone={(agreement) => {
          storeOf(userId).write({ agreement, is_accepted: true, is_skipped: true });
          setDoneFor(userId);
        }}
      />
    </Suspense>
  );
}
