import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { hydrateRoot, type Root } from 'react-dom/client';
import { accessCodeFormSchema, candleCreateSchema, contactMessageSchema } from '@aandenken/contract';
import { ApiError } from '../../lib/api-client.ts';
import { Form, FormError, SubmitButton, TextField } from './form.tsx';

afterEach(cleanup);

function AccessCodeForm({ onSubmit }: { onSubmit: (v: { accessCode: string }) => Promise<void> | void }) {
  return (
    <Form schema={accessCodeFormSchema} defaultValues={{ accessCode: '' }} onSubmit={onSubmit}>
      {() => (
        <>
          <TextField name="accessCode" label="Toegangscode" required />
          <FormError />
          <button type="submit">Ga naar pagina</button>
        </>
      )}
    </Form>
  );
}

describe('access code schema', () => {
  it('has the three messages', () => {
    const issue = (v: unknown) => accessCodeFormSchema.safeParse({ accessCode: v }).error?.issues[0]?.message;
    expect(issue('')).toBe('Vul de toegangscode in.');
    expect(issue('1234567')).toBe('De toegangscode bestaat uit 8 cijfers.');
    expect(issue('1234567a')).toBe('De toegangscode bestaat uit 8 cijfers.');
    expect(issue(12345678)).toBe('Vul de toegangscode in als tekst van 8 cijfers.');
    expect(accessCodeFormSchema.safeParse({ accessCode: '12345678' }).success).toBe(true);
  });

  it('contact form messages are Dutch and enforced', () => {
    const r = contactMessageSchema.safeParse({ name: '', email: 'x', subject: '', message: ' ' });
    const byField = Object.fromEntries(r.error!.issues.map((i) => [i.path[0], i.message]));
    expect(byField).toEqual({
      name: 'Naam is verplicht',
      email: 'Voer een geldig e-mailadres in',
      subject: 'Kies een onderwerp',
      message: 'Bericht is verplicht',
    });
  });
});

describe('<Form>', () => {
  it('validates on submit, then re-validates on change, with accessible error wiring', async () => {
    const onSubmit = vi.fn();
    render(<AccessCodeForm onSubmit={onSubmit} />);
    const input = screen.getByLabelText(/Toegangscode/);
    fireEvent.change(input, { target: { value: '12' } });
    expect(screen.queryByText('De toegangscode bestaat uit 8 cijfers.')).toBeNull(); // nothing before the first submit

    fireEvent.click(screen.getByRole('button', { name: 'Ga naar pagina' }));
    const message = await screen.findByText('De toegangscode bestaat uit 8 cijfers.');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-describedby')).toBe(message.id);
    expect(input.getAttribute('aria-required')).toBe('true');
    expect(onSubmit).not.toHaveBeenCalled();

    fireEvent.change(input, { target: { value: '' } });
    await screen.findByText('Vul de toegangscode in.');
    fireEvent.change(input, { target: { value: '12345678' } });
    await waitFor(() => expect(screen.queryByText('Vul de toegangscode in.')).toBeNull());
    expect(input.getAttribute('aria-invalid')).toBe('false');

    fireEvent.click(screen.getByRole('button', { name: 'Ga naar pagina' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]![0]).toEqual({ accessCode: '12345678' });
  });

  it('puts server field errors on their fields and the message in an alert, keeping the input', async () => {
    const onSubmit = vi.fn(async () => {
      throw new ApiError(400, 'VALIDATION_ERROR', 'Controleer de code.', {
        accessCode: 'Deze code is verlopen',
        unknown: 'x',
      });
    });
    render(<AccessCodeForm onSubmit={onSubmit} />);
    const input = screen.getByLabelText(/Toegangscode/) as HTMLInputElement;
    fireEvent.change(input, { target: { value: '12345678' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Ga naar pagina' }));
    });
    expect(await screen.findByText('Deze code is verlopen')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('Controleer de code.');
    expect(input.value).toBe('12345678');
  });
});

describe('<SubmitButton>', () => {
  it('is disabled with its busy label while the form is sent, so nothing is sent twice', async () => {
    let finish = () => {};
    const onSubmit = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    render(
      <Form schema={accessCodeFormSchema} defaultValues={{ accessCode: '12345678' }} onSubmit={onSubmit}>
        {() => (
          <SubmitButton busyLabel="Bezig met openen..." iconAfter={<span data-testid="arrow" />}>
            Ga naar pagina
          </SubmitButton>
        )}
      </Form>,
    );
    const button = screen.getByRole('button', { name: 'Ga naar pagina' });
    expect(screen.getByTestId('arrow')).toBeTruthy();
    fireEvent.click(button);
    const busy = await screen.findByRole('button', { name: 'Bezig met openen...' });
    expect((busy as HTMLButtonElement).disabled).toBe(true);
    expect(busy.getAttribute('aria-busy')).toBe('true');
    expect(screen.queryByTestId('arrow')).toBeNull();
    fireEvent.click(busy);
    expect(onSubmit).toHaveBeenCalledTimes(1);
    await act(async () => finish());
    await waitFor(() =>
      expect((screen.getByRole('button', { name: 'Ga naar pagina' }) as HTMLButtonElement).disabled).toBe(
        false,
      ),
    );
  });
});

describe('a field typed in before the page’s script has taken over', () => {
  const schema = candleCreateSchema;
  function CandleLike({
    editable,
    onSubmit,
  }: {
    editable: boolean;
    onSubmit?: (v: { name: string }) => void;
  }) {
    return (
      <Form schema={schema} onSubmit={(v) => onSubmit?.(v)}>
        {() => (
          <>
            <TextField name="name" label="Je naam" editableBeforeHydration={editable} />
            <button type="submit">Aansteken</button>
          </>
        )}
      </Form>
    );
  }

  it('is read-only in the server’s HTML unless the form reads it when it takes over', () => {
    expect(renderToString(<CandleLike editable={false} />)).toMatch(/<input[^>]*readOnly=""/);
    expect(renderToString(<CandleLike editable />)).not.toMatch(/readonly/i);
  });

  it('keeps what was typed when React hydrates the form, and sends it', async () => {
    const container = document.createElement('div');
    document.body.append(container);
    container.innerHTML = renderToString(<CandleLike editable />);
    const input = container.querySelector('input')!;
    input.value = 'Getypt vóór het script';
    const onSubmit = vi.fn();
    let root: Root | undefined;
    await act(async () => {
      root = hydrateRoot(container, <CandleLike editable onSubmit={onSubmit} />);
    });
    expect(container.querySelector('input')).toBe(input);
    expect(input.value).toBe('Getypt vóór het script');
    fireEvent.click(screen.getByRole('button', { name: 'Aansteken' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalled());
    expect(onSubmit.mock.calls[0]![0]).toMatchObject({ name: 'Getypt vóór het script' });
    act(() => root?.unmount());
    container.remove();
  });
});
