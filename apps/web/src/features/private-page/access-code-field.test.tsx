import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { accessCodeFormSchema } from '@aandenken/contract';
import { Form } from '../../components/form/form.tsx';
import { AccessCodeField, caretAfter } from './access-code-field.tsx';

afterEach(cleanup);

function CodeForm({ onSubmit }: { onSubmit: (v: { accessCode: string }) => void }) {
  return (
    <Form schema={accessCodeFormSchema} defaultValues={{ accessCode: '' }} onSubmit={onSubmit}>
      {() => (
        <>
          <AccessCodeField label="Toegangscode" />
          <button type="submit">Ga naar pagina</button>
        </>
      )}
    </Form>
  );
}

const field = () => screen.getByLabelText(/Toegangscode/) as HTMLInputElement;

describe('<AccessCodeField>', () => {
  it('shows the code grouped as the card prints it and sends the eight digits', async () => {
    const onSubmit = vi.fn();
    render(<CodeForm onSubmit={onSubmit} />);
    expect(field().inputMode).toBe('numeric');
    expect(field().autocomplete).toBe('one-time-code');
    for (const [typed, shown] of [
      ['933', '933'],
      ['93307', '9330 7'],
      ['9330-7666', '9330 7666'],
      ['9330.7666', '9330 7666'],
      ['9330 7666', '9330 7666'],
    ]) {
      fireEvent.change(field(), { target: { value: typed } });
      expect(field().value).toBe(shown);
    }
    fireEvent.click(screen.getByRole('button', { name: 'Ga naar pagina' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]![0]).toEqual({ accessCode: '93307666' });
  });

  it('takes the code out of pasted text', async () => {
    const onSubmit = vi.fn();
    render(<CodeForm onSubmit={onSubmit} />);
    fireEvent.paste(field(), { clipboardData: { getData: () => 'Code: 9330 7666\n' } });
    expect(field().value).toBe('9330 7666');
    fireEvent.click(screen.getByRole('button', { name: 'Ga naar pagina' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]![0]).toEqual({ accessCode: '93307666' });
  });

  it('says in Dutch what is wrong, and leaves what is not a code as it was typed', async () => {
    render(<CodeForm onSubmit={vi.fn()} />);
    fireEvent.change(field(), { target: { value: '9330 766x' } });
    expect(field().value).toBe('9330 766x');
    fireEvent.click(screen.getByRole('button', { name: 'Ga naar pagina' }));
    expect(await screen.findByText('De toegangscode bestaat uit 8 cijfers.')).toBeTruthy();
    fireEvent.change(field(), { target: { value: '' } });
    expect(await screen.findByText('Vul de toegangscode in.')).toBeTruthy();
  });

  it('keeps the caret after the same digit when the grouping moves', () => {
    expect(caretAfter('9330 7666', 0)).toBe(0);
    expect(caretAfter('9330 7666', 4)).toBe(4);
    expect(caretAfter('9330 7666', 5)).toBe(6);
    expect(caretAfter('9330 7666', 8)).toBe(9);
  });
});
