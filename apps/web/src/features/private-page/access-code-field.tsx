import type { ClipboardEvent, ChangeEvent } from 'react';
import { useFormContext } from 'react-hook-form';
import { accessCodeInText, formatAccessCode } from '@aandenken/contract';
import { controlClass, FieldShell } from '../../components/form/form.tsx';
import { cn } from '../../lib/cn.ts';

/** Where the caret belongs in `formatted` after `kept` characters that are not a separator. */
export function caretAfter(formatted: string, kept: number): number {
  if (kept === 0) return 0;
  let seen = 0;
  for (let i = 0; i < formatted.length; i++) {
    if (formatted[i] !== ' ' && ++seen === kept) return i + 1;
  }
  return formatted.length;
}

/**
 * The access code, shown grouped as the card prints it ('9330 7666') while it is typed. Spaces, dashes and
 * dots are taken out (the contract's schema does the same before it checks the code), and a code pasted with
 * the text around it ('Code: 9330 7666') lands on its own.
 */
export function AccessCodeField({ name = 'accessCode', label }: { name?: string; label: string }) {
  const { register, setValue, formState } = useFormContext<Record<string, string>>();
  const field = register(name);
  const put = (value: string) =>
    setValue(name, value, { shouldDirty: true, shouldValidate: formState.isSubmitted });

  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.target;
    const caret = input.selectionStart ?? input.value.length;
    const formatted = formatAccessCode(input.value);
    if (formatted !== input.value) {
      const kept = formatAccessCode(input.value.slice(0, caret)).replace(/ /g, '').length;
      input.value = formatted;
      if (document.activeElement === input) {
        const at = caretAfter(formatted, kept);
        input.setSelectionRange(at, at);
      }
    }
    return field.onChange(event);
  };

  const onPaste = (event: ClipboardEvent<HTMLInputElement>) => {
    const code = accessCodeInText(event.clipboardData.getData('text'));
    if (!code) return; // no single code in it: pasted as it is, and grouped by onChange
    event.preventDefault();
    put(formatAccessCode(code));
  };

  return (
    <FieldShell name={name} label={label} required>
      {(aria) => (
        <input
          {...aria}
          {...field}
          onChange={onChange}
          onPaste={onPaste}
          type="text"
          placeholder="1234 5678"
          inputMode="numeric"
          autoComplete="one-time-code"
          spellCheck={false}
          className={cn(controlClass, 'h-12 text-center font-mono text-xl tracking-[0.2em]')}
        />
      )}
    </FieldShell>
  );
}
