import { useRef, useState, type ReactNode } from 'react';
import type { z } from 'zod';
import { Input, Select } from '../../ui/fields.tsx';
import { ActionDialog, useFieldErrors } from './ActionDialog.tsx';

/** One typed field of an operator's step: a text input, or a select when it has options. */
export interface StepField<Name extends string> {
  name: Name;
  /** The request's name for it, when not `name`: the API names a refused field so. */
  sentAs?: string;
  label: string;
  /** Says what to type when the label alone may not. */
  hint?: string;
  initial?: string;
  inputMode?: 'decimal' | 'numeric';
  options?: readonly { value: string; label: string }[];
}

/**
 * An operator's step that asks for a few typed values (a reason, a payout
 * reference, what the bank's notice says): the fields become `toRequest`'s
 * request, sent by `act` with ActionDialog's one Idempotency-Key per
 * attempt; `onDone` gets what `act` answered. With `schema` (the route's
 * own, from the contracts) a request it refuses is not sent, and reads as
 * the route would refuse it. A refusal of one of the fields, the schema's or
 * the server's, shows under that field; the alert keeps the rest.
 */
export function FieldsDialog<Name extends string, Request, Answer = void>({
  title,
  submitLabel,
  intro,
  fields,
  toRequest,
  act,
  onDone,
  onClose,
  schema,
  danger = false,
}: {
  title: string;
  submitLabel: string;
  intro?: ReactNode;
  fields: readonly StepField<Name>[];
  toRequest: (values: Record<Name, string>) => Request;
  act: (request: Request, idempotencyKey: string) => Promise<Answer>;
  onDone: (answer: Answer) => void;
  onClose: () => void;
  schema?: z.ZodType;
  danger?: boolean;
}) {
  const [values, setValues] = useState(
    () => Object.fromEntries(fields.map((field) => [field.name, field.initial ?? ''])) as Record<Name, string>,
  );
  const { fieldErrors, place, clear } = useFieldErrors(
    (sentAs) => fields.find((field) => (field.sentAs ?? field.name) === sentAs)?.name,
  );
  const answer = useRef<{ value: Answer } | null>(null);
  const request = toRequest(values);
  return (
    <ActionDialog
      title={title}
      submitLabel={submitLabel}
      danger={danger}
      request={request}
      schema={schema}
      place={place}
      act={async (key) => {
        answer.current = { value: await act(request, key) };
      }}
      onDone={() => {
        if (answer.current) onDone(answer.current.value);
      }}
      onClose={onClose}
    >
      {intro}
      {fields.map((field) => {
        const control = {
          label: field.label,
          value: values[field.name],
          error: fieldErrors[field.name],
          onChange: (event: { target: { value: string } }) => {
            setValues({ ...values, [field.name]: event.target.value });
            clear();
          },
        };
        return field.options ? (
          <Select key={field.name} {...control} options={field.options} />
        ) : (
          <Input key={field.name} {...control} hint={field.hint} inputMode={field.inputMode} required />
        );
      })}
    </ActionDialog>
  );
}
