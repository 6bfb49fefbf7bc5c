import { useId, type ReactNode } from 'react';
import {
  FormProvider,
  useForm,
  useFormContext,
  useFormState,
  type DefaultValues,
  type FieldValues,
  type Path,
  type UseFormReturn,
} from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type * as z from 'zod/mini';
import { AlertCircle } from 'lucide-react';
import { ApiError } from '../../lib/api-client.ts';
import { Button, type ButtonProps } from '../ui/button.tsx';
import { Spinner } from '../ui/spinner.tsx';
import { cn } from '../../lib/cn.ts';
import { useHydrated } from '../../lib/use-hydrated.ts';

export type AnySchema = z.ZodMiniType<FieldValues, FieldValues>;
export type FormApi<S extends AnySchema> = UseFormReturn<z.input<S>, unknown, z.output<S>>;

export interface FormProps<S extends AnySchema> {
  schema: S;
  defaultValues?: DefaultValues<z.input<S>>;
  /** May throw: an ApiError's field errors land on the fields, its message above the submit button. */
  onSubmit: (values: z.output<S>, form: FormApi<S>) => Promise<void> | void;
  children: (form: FormApi<S>) => ReactNode;
  className?: string;
  id?: string;
  /** Where the browser sends the form before the script runs (the page itself when not given). */
  action?: string;
  'aria-label'?: string;
  'aria-labelledby'?: string;
}

const ROOT_ERROR = 'root.server' as const;

/** Puts an API error on the form: field messages on their fields, the general message at the form. */
export function applyServerError<T extends FieldValues>(
  form: UseFormReturn<T, unknown, unknown>,
  error: unknown,
): void {
  if (error instanceof ApiError) {
    const names = Object.keys(form.getValues());
    let focused = false;
    for (const [field, message] of Object.entries(error.fields ?? {})) {
      if (!names.includes(field)) continue;
      form.setError(field as Path<T>, { type: 'server', message }, { shouldFocus: !focused });
      focused = true;
    }
    form.setError(ROOT_ERROR, { type: 'server', message: error.message });
    return;
  }
  form.setError(ROOT_ERROR, { type: 'server', message: 'Er ging iets mis. Probeer het opnieuw.' });
}

/**
 * The one form pattern: react-hook-form with the contract's zod schema. Validates on submit, then
 * re-validates on every change. The browser's own validation is off so our Dutch messages show.
 */
export function Form<S extends AnySchema>({
  schema,
  defaultValues,
  onSubmit,
  children,
  className,
  ...aria
}: FormProps<S>) {
  const form = useForm<z.input<S>, unknown, z.output<S>>({
    resolver: zodResolver(schema),
    defaultValues,
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });

  const submit = form.handleSubmit(async (values) => {
    form.clearErrors(ROOT_ERROR);
    try {
      await onSubmit(values, form);
    } catch (error) {
      applyServerError(form, error);
    }
  });

  return (
    <FormProvider {...form}>
      {/* method="post": sent before the script runs, nothing typed lands in the address (site/plugin.ts). */}
      <form method="post" noValidate onSubmit={submit} className={className} {...aria}>
        {children(form)}
      </form>
    </FormProvider>
  );
}

/** The general error of the last submit (network trouble, server refusal). */
export function FormError({ className }: { className?: string }) {
  const { formState } = useFormContext();
  const message = (formState.errors.root as Record<string, { message?: string }> | undefined)?.server
    ?.message;
  if (!message) return null;
  return (
    <div
      role="alert"
      className={cn(
        'flex items-start gap-3 rounded-xl border border-danger/40 bg-danger-soft px-4 py-3 text-sm text-danger',
        className,
      )}
    >
      <AlertCircle aria-hidden className="mt-0.5 h-4 w-4 shrink-0" />
      <p>{message}</p>
    </div>
  );
}

interface FieldShellProps {
  name: string;
  label: string;
  /** A fixed id for the control (a link elsewhere on the page focuses it); a generated one otherwise. */
  id?: string;
  /**
   * The form takes what is in its fields when its script takes over (no default value for it, so the
   * form library reads the field instead of resetting it): usable at once, before the script arrives.
   */
  editableBeforeHydration?: boolean;
  required?: boolean;
  hint?: ReactNode;
  className?: string;
  children: (props: {
    id: string;
    'aria-invalid': boolean;
    'aria-describedby'?: string;
    'aria-required'?: boolean;
    readOnly?: boolean;
  }) => ReactNode;
}

/** Label, control, hint and error message, wired together for assistive technology. */
export function FieldShell({
  name,
  label,
  id: fixedId,
  editableBeforeHydration,
  required,
  hint,
  className,
  children,
}: FieldShellProps) {
  const generatedId = useId();
  const id = fixedId ?? generatedId;
  const { getFieldState, formState } = useFormContext();
  const { error } = getFieldState(name, formState);
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error?.message ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  // What is typed before the page's script has taken over would be reset when it does: wait for it.
  const hydrated = useHydrated();
  return (
    <div className={cn('flex flex-col gap-1.5', className)}>
      <label htmlFor={id} className="text-sm font-medium text-foreground">
        {label}
        {required && (
          <span aria-hidden className="ml-0.5 text-accent">
            *
          </span>
        )}
      </label>
      {hint && (
        <p id={hintId} className="text-sm text-muted">
          {hint}
        </p>
      )}
      {children({
        id,
        'aria-invalid': !!error,
        'aria-describedby': describedBy,
        'aria-required': required || undefined,
        readOnly: (!hydrated && !editableBeforeHydration) || undefined,
      })}
      {error?.message && (
        <p id={errorId} className="flex items-center gap-1.5 text-sm font-medium text-danger">
          <AlertCircle aria-hidden className="h-4 w-4 shrink-0" />
          {error.message}
        </p>
      )}
    </div>
  );
}

export const controlClass =
  'w-full rounded-xl border border-input bg-card px-4 py-2.5 text-base text-foreground shadow-sm transition-colors placeholder:text-muted/70 hover:border-muted/60 focus-visible:border-ring focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring aria-[invalid=true]:border-danger';

type InputProps = Omit<React.InputHTMLAttributes<HTMLInputElement>, 'name' | 'id'>;

type ShellOptions = Pick<FieldShellProps, 'id' | 'editableBeforeHydration'>;

export function TextField({
  name,
  label,
  required,
  hint,
  className,
  id,
  editableBeforeHydration,
  ...input
}: { name: string; label: string; required?: boolean; hint?: ReactNode; className?: string } & ShellOptions &
  InputProps) {
  const { register } = useFormContext();
  return (
    <FieldShell
      name={name}
      label={label}
      id={id}
      editableBeforeHydration={editableBeforeHydration}
      required={required}
      hint={hint}
      className={className}
    >
      {(aria) => <input {...aria} {...input} {...register(name)} className={cn(controlClass, 'h-12')} />}
    </FieldShell>
  );
}

export function TextareaField({
  name,
  label,
  required,
  hint,
  className,
  rows = 5,
  id,
  editableBeforeHydration,
  ...textarea
}: { name: string; label: string; required?: boolean; hint?: ReactNode; className?: string } & ShellOptions &
  Omit<React.TextareaHTMLAttributes<HTMLTextAreaElement>, 'name' | 'id'>) {
  const { register } = useFormContext();
  return (
    <FieldShell
      name={name}
      label={label}
      id={id}
      editableBeforeHydration={editableBeforeHydration}
      required={required}
      hint={hint}
      className={className}
    >
      {(aria) => (
        <textarea
          {...aria}
          rows={rows}
          {...textarea}
          {...register(name)}
          className={cn(controlClass, 'min-h-28 resize-y leading-relaxed')}
        />
      )}
    </FieldShell>
  );
}

export function SelectField({
  name,
  label,
  required,
  hint,
  className,
  placeholder,
  options,
}: {
  name: string;
  label: string;
  required?: boolean;
  hint?: ReactNode;
  className?: string;
  placeholder: string;
  options: readonly { value: string; label: string }[];
}) {
  const { register } = useFormContext();
  return (
    <FieldShell name={name} label={label} required={required} hint={hint} className={className}>
      {({ readOnly, ...aria }) => (
        <div className="relative">
          <select
            {...aria}
            disabled={readOnly}
            {...register(name)}
            className={cn(controlClass, 'h-12 cursor-pointer appearance-none pr-10')}
          >
            <option value="">{placeholder}</option>
            {options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
          <svg
            aria-hidden
            viewBox="0 0 20 20"
            className="pointer-events-none absolute top-1/2 right-4 h-4 w-4 -translate-y-1/2 text-muted"
            fill="currentColor"
          >
            <path d="M5.3 7.3a1 1 0 0 1 1.4 0L10 10.6l3.3-3.3a1 1 0 1 1 1.4 1.4l-4 4a1 1 0 0 1-1.4 0l-4-4a1 1 0 0 1 0-1.4Z" />
          </svg>
        </div>
      )}
    </FieldShell>
  );
}

interface SubmitButtonProps extends Omit<ButtonProps, 'type' | 'children'> {
  children: ReactNode;
  /** Shown instead of the label while the form is sent, e.g. 'Versturen...'. Without it the label stays. */
  busyLabel?: ReactNode;
  /** An icon before the label (replaced by the spinner while sending). */
  icon?: ReactNode;
  /** An icon after the label (hidden while sending). */
  iconAfter?: ReactNode;
}

/** The form's submit button: disabled with a spinner while the form is sent, so nothing is sent twice. */
export function SubmitButton({
  children,
  busyLabel,
  icon,
  iconAfter,
  disabled,
  size,
  ...props
}: SubmitButtonProps) {
  const { isSubmitting } = useFormState();
  // Until the page's script has taken over the server's HTML, a tap would send the form the browser's own way
  // and lose what was typed: the button waits for hydration (a moment; at once on pages rendered here).
  const hydrated = useHydrated();
  const ring = size === 'lg' ? 'h-5 w-5 [&>span]:h-5 [&>span]:w-5' : 'h-4 w-4 [&>span]:h-4 [&>span]:w-4';
  return (
    <Button
      type="submit"
      size={size}
      disabled={isSubmitting || disabled || !hydrated}
      aria-busy={isSubmitting}
      {...props}
    >
      {isSubmitting ? (
        <>
          <Spinner className={ring} />
          {busyLabel ?? children}
        </>
      ) : (
        <>
          {icon}
          {children}
          {iconAfter}
        </>
      )}
    </Button>
  );
}
