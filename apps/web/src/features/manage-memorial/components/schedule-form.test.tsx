import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import * as z from 'zod/mini';
import { ApiError } from '../../../lib/api-client.ts';
import { TextField } from '../../../components/form/form.tsx';
import { ScheduleForm } from './schedule-form.tsx';

afterEach(cleanup);

const schema = z.object({ date: z.string(), startTime: z.string(), title: z.string() });

function renderForm(onSave: (v: z.infer<typeof schema>) => Promise<void>, onDone = vi.fn()) {
  render(
    <ScheduleForm
      schema={schema}
      defaultValues={{ date: '', startTime: '20:00', title: '' }}
      label="Kaarsjesmoment plannen"
      startTimeHint="Nederlandse tijd."
      onSave={onSave}
      onDone={onDone}
    >
      <TextField name="title" label="Aanleiding" />
    </ScheduleForm>,
  );
  return onDone;
}

describe('<ScheduleForm>', () => {
  it('has the date and start time before the tab’s own fields, and closes once saved', async () => {
    const onSave = vi.fn(async () => {});
    const onDone = renderForm(onSave);
    const form = screen.getByRole('form', { name: 'Kaarsjesmoment plannen' });
    const labels = [...form.querySelectorAll('label')].map((l) => l.textContent);
    expect(labels).toEqual(['Datum*', 'Begintijd*', 'Aanleiding']);
    expect(screen.getByLabelText(/Begintijd/).getAttribute('aria-describedby')).toBeTruthy();
    fireEvent.change(screen.getByLabelText(/Datum/), { target: { value: '2026-12-24' } });
    fireEvent.click(screen.getByRole('button', { name: 'Opslaan' }));
    await waitFor(() => expect(onDone).toHaveBeenCalledOnce());
    expect(onSave).toHaveBeenCalledWith({ date: '2026-12-24', startTime: '20:00', title: '' });
  });

  it('shows the server’s messages on the date and time, and stays open', async () => {
    const onDone = renderForm(async () => {
      throw new ApiError(400, 'VALIDATION_ERROR', 'Controleer de velden.', {
        date: 'Kies een datum',
        startTime: 'Kies een begintijd',
      });
    });
    fireEvent.click(screen.getByRole('button', { name: 'Opslaan' }));
    expect(await screen.findByText('Kies een datum')).toBeTruthy();
    expect(screen.getByText('Kies een begintijd')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('Controleer de velden.');
    expect(screen.getByLabelText(/Datum/).getAttribute('aria-invalid')).toBe('true');
    expect(onDone).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Annuleren' }));
    expect(onDone).toHaveBeenCalledOnce();
  });
});
