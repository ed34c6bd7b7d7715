import { tokenizerMessage } from '@peeks/contracts';
import { useEffect, useId, useRef, useState } from 'react';
import { useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useFieldError } from '../../ui/fields.tsx';
import type { CardForm } from './payment-methods-api.ts';

const TOKEN = 'type_specific.token';
const EXPIRY = 'type_specific.card_expiry';

interface Card {
  brand: string;
  mask: string;
  month: string;
  year: string;
}

/**
 * The card number, expiry and CVV, typed in the card processor's own page
 * in an iframe (spec §5 "from a hosted tokenizing field"), so this page never
 * sees them. The page posts back a token with the expiry, which become the
 * form's `type_specific`; its refusals show here too. Only a message from
 * that iframe, from the tokenizer's origin, is believed.
 */
export function CardEntry({ tokenizerUrl }: { tokenizerUrl: string }) {
  const { t } = useTranslation();
  const { setValue, setError } = useFormContext<CardForm>();
  const frame = useRef<HTMLIFrameElement>(null);
  const [card, setCard] = useState<Card | null>(null);
  const hintId = useId();
  const errorId = useId();
  const error = [useFieldError(TOKEN), useFieldError(`${EXPIRY}.month`), useFieldError(`${EXPIRY}.year`)].find(
    (each) => each !== undefined,
  );
  const origin = new URL(tokenizerUrl, window.location.href).origin;

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== origin || event.source !== frame.current?.contentWindow) return;
      const message = tokenizerMessage.safeParse(event.data);
      if (!message.success) return;
      const set = { shouldValidate: true, shouldTouch: true, shouldDirty: true } as const;
      if (message.data.type === 'card-token-error') {
        setCard(null);
        setValue(TOKEN, '', { shouldDirty: true });
        setError(TOKEN, {
          type: 'server',
          // One line each (the field's error shows them as lines), each once.
          message: [...new Set(message.data.errors.map((each) => each.message))].join('\n'),
        });
        return;
      }
      const { token, brand, mask, expiry_month: month, expiry_year: year } = message.data;
      setValue(EXPIRY, { month, year }, set);
      setValue(TOKEN, token, set);
      setCard({ brand, mask, month, year });
    };
    window.addEventListener('message', onMessage);
    return () => {
      window.removeEventListener('message', onMessage);
    };
  }, [origin, setValue, setError]);

  return (
    <fieldset className="card-entry">
      <legend>{t('payment_methods.card')}</legend>
      <p id={hintId} className="field-hint">
        {t('payment_methods.card_hint')}
      </p>
      <iframe
        ref={frame}
        className="card-frame"
        title={t('payment_methods.card_details')}
        src={tokenizerUrl}
        aria-describedby={`${hintId} ${errorId}`}
      />
      {card && !error && (
        <p className="card-ready" role="status">
          {t('payment_methods.card_ready', {
            brand: card.brand.toUpperCase(),
            mask: card.mask,
            expiry: `${card.month}/${card.year}`,
          })}
        </p>
      )}
      <p id={errorId} className="field-error" role="alert">
        {error?.split('\n').map((line) => (
          <span key={line} className="error-line">
            {line}
          </span>
        ))}
      </p>
    </fieldset>
  );
}
