import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState, type ReactNode } from 'react';
import {
  FormProvider,
  useForm,
  useFormContext,
  type DefaultValues,
  type FieldValues,
  type Path,
  type Resolver,
  type UseFormReturn,
} from 'react-hook-form';
import type { z } from 'zod';
import { ApiError } from '../lib/api.ts';
import { LoadingOverlay, ServerErrors } from './feedback.tsx';

/**
 * Forms over react-hook-form with a zod schema from @peeks/contracts, the
 * one the server validates the same request with, so both reject the same
 * input in the same words. The spec's form behaviour (§4 "Forms in
 * general", §8) lives here once:
 * - a field's error shows after it is touched (blurred) or the form is submitted, and follows each edit from then on;
 * - submitting disables the submit button and shows a loading overlay;
 * - a refusal lists the server's texts above the form, one each, and puts field errors under their fields;
 * - any edit clears the server's errors.
 * The fields that go inside a <Form> are in fields.tsx.
 */
export interface SpecForm<Input extends FieldValues, Output> {
  form: UseFormReturn<Input, unknown, Output>;
  serverErrors: readonly string[];
  /** Whether the refusal was about fields ('Please fix the following:' heads it) or not (a wrong password reads alone). */
  serverErrorsAreFields: boolean;
  /** Runs `action` with the parsed values; a refusal becomes server errors instead of a rejection. */
  onSubmit: (action: (values: Output) => Promise<void>) => (event?: React.BaseSyntheticEvent) => Promise<void>;
}

export function useSpecForm<Schema extends z.ZodType<FieldValues, FieldValues>>(
  schema: Schema,
  defaultValues?: DefaultValues<z.input<Schema>>,
): SpecForm<z.input<Schema>, z.output<Schema>> {
  const form = useForm<z.input<Schema>, unknown, z.output<Schema>>({
    // The resolver's overloads cannot see through a generic schema; its input and output are the schema's by construction.
    resolver: zodResolver(schema as z.ZodType<FieldValues, FieldValues>) as unknown as Resolver<
      z.input<Schema>,
      unknown,
      z.output<Schema>
    >,
    mode: 'onTouched',
    ...(defaultValues === undefined ? {} : { defaultValues }),
  });
  const [serverErrors, setServerErrors] = useState<readonly string[]>([]);
  const [serverErrorsAreFields, setServerErrorsAreFields] = useState(false);

  const { subscribe } = form;
  useEffect(() => {
    if (serverErrors.length === 0) return;
    // Any edit clears the server's errors (spec §4); a value set by the form itself (type undefined) does not count.
    return subscribe({
      formState: { values: true },
      callback: ({ type }) => {
        if (type === 'change') setServerErrors([]);
      },
    });
  }, [subscribe, serverErrors]);

  const onSubmit: SpecForm<z.input<Schema>, z.output<Schema>>['onSubmit'] = (action) =>
    form.handleSubmit(async (values) => {
      setServerErrors([]);
      try {
        await action(values);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        for (const each of error.errors) {
          // Under its field too when the form has one by that name; otherwise the list above says it.
          if (each.field !== undefined) {
            form.setError(each.field as Path<z.input<Schema>>, { type: 'server', message: each.text });
          }
        }
        setServerErrorsAreFields(error.errors.some((each) => each.field !== undefined));
        setServerErrors(error.texts);
      }
    });

  return { form, serverErrors, serverErrorsAreFields, onSubmit };
}

interface FormProps<Input extends FieldValues, Output> {
  spec: SpecForm<Input, Output>;
  onSubmit: (values: Output) => Promise<void>;
  children: ReactNode;
  className?: string;
  /** Names the form for assistive technology, usually the id of its heading. */
  labelledBy?: string;
  /** The heading of the server's error list; unless told, 'Please fix the following:' when the refusal is about fields, none otherwise. */
  errorTitle?: string;
}

export function Form<Input extends FieldValues, Output>({
  spec,
  onSubmit,
  children,
  className,
  labelledBy,
  errorTitle,
}: FormProps<Input, Output>) {
  const submitting = spec.form.formState.isSubmitting;
  return (
    <FormProvider {...spec.form}>
      <form
        noValidate
        className={`spec-form ${className ?? ''}`}
        onSubmit={(event) => void spec.onSubmit(onSubmit)(event)}
        aria-labelledby={labelledBy}
        aria-busy={submitting}
      >
        <ServerErrors texts={spec.serverErrors} title={errorTitle ?? (spec.serverErrorsAreFields ? undefined : null)} />
        {children}
        {submitting && <LoadingOverlay />}
      </form>
    </FormProvider>
  );
}

export function SubmitButton({ children, className }: { children: ReactNode; className?: string }) {
  const { formState } = useFormContext();
  return (
    <button type="submit" className={className ?? 'button primary'} disabled={formState.isSubmitting}>
      {children}
    </button>
  );
}
