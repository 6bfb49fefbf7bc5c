import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import * as z from 'zod/mini';
import { Form, FormError, TextareaField, TextField } from '../components/form/form.tsx';
import { useConfirmDiscard } from '../components/ui/discard-dialog.tsx';
import { Dialog } from '../components/ui/dialog.tsx';
import { clearAllDrafts, draftKey, FormDraft, readDraft, writeDraft } from './drafts.tsx';

afterEach(cleanup);
beforeEach(() => localStorage.clear());

const schema = z.object({ yearLabel: z.string(), text: z.string() });
const key = draftKey('m-1', 'memory');

function MemoryForm({ onSubmit = () => {} }: { onSubmit?: () => Promise<void> | void }) {
  return (
    <Form schema={schema} defaultValues={{ yearLabel: '', text: '' }} onSubmit={onSubmit}>
      {() => (
        <>
          <FormDraft storageKey={key}>{(d) => d.restored && <p>Concept hersteld</p>}</FormDraft>
          <TextField name="yearLabel" label="Jaar" />
          <TextareaField name="text" label="Je herinnering" />
          <FormError />
          <button type="submit">Delen</button>
        </>
      )}
    </Form>
  );
}

describe('useFormDraft', () => {
  it('keeps what is typed per page and puts it back when the form mounts again', async () => {
    const first = render(<MemoryForm />);
    fireEvent.change(screen.getByLabelText('Je herinnering'), { target: { value: 'De zomer in Zeeland' } });
    await waitFor(() => expect(readDraft(key)).toEqual({ yearLabel: '', text: 'De zomer in Zeeland' }));
    // Only under this page's own key.
    expect(readDraft(draftKey('m-2', 'memory'))).toBeNull();
    first.unmount();

    render(<MemoryForm />);
    await waitFor(() =>
      expect(screen.getByLabelText('Je herinnering')).toHaveProperty('value', 'De zomer in Zeeland'),
    );
    expect(screen.getByText('Concept hersteld')).toBeTruthy();
  });

  it('lets go of the draft when the text is back to what it was', async () => {
    render(<MemoryForm />);
    const text = screen.getByLabelText('Je herinnering');
    fireEvent.change(text, { target: { value: 'x' } });
    await waitFor(() => expect(readDraft(key)).not.toBeNull());
    fireEvent.change(text, { target: { value: '' } });
    await waitFor(() => expect(readDraft(key)).toBeNull());
  });

  it('clears the draft after a successful save, and keeps it when saving fails', async () => {
    let fail = true;
    render(
      <MemoryForm
        onSubmit={() => {
          if (fail) throw new Error('netwerk');
        }}
      />,
    );
    fireEvent.change(screen.getByLabelText('Je herinnering'), { target: { value: 'Opa op de fiets' } });
    fireEvent.click(screen.getByRole('button', { name: 'Delen' }));
    await waitFor(() => expect(screen.getByRole('alert')).toBeTruthy());
    expect(readDraft(key)).toEqual({ yearLabel: '', text: 'Opa op de fiets' });

    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Delen' }));
    await waitFor(() => expect(readDraft(key)).toBeNull());
    // Nothing written back afterwards: the saved text is the form's new starting point.
    expect(localStorage.length).toBe(0);
  });

  it('clearAllDrafts removes every draft and nothing else', () => {
    writeDraft(key, { text: 'a' });
    writeDraft(draftKey('m-2', 'biography'), { html: '<p>b</p>' });
    localStorage.setItem('aandenken:theme', 'dark');
    clearAllDrafts();
    expect(readDraft(key)).toBeNull();
    expect(readDraft(draftKey('m-2', 'biography'))).toBeNull();
    expect(localStorage.getItem('aandenken:theme')).toBe('dark');
  });
});

function DialogWithForm() {
  const [open, setOpen] = useState(true);
  const [dirty, setDirty] = useState(false);
  const guard = useConfirmDiscard(dirty, {
    onKeep: () => setOpen(false),
    onDiscard: () => {
      localStorage.removeItem(key);
      setOpen(false);
    },
  });
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Openen
      </button>
      <Dialog
        open={open}
        onOpenChange={(o) => (o ? setOpen(true) : guard.requestClose())}
        title="Deel een herinnering"
      >
        <Form schema={schema} defaultValues={{ yearLabel: '', text: '' }} onSubmit={() => {}}>
          {() => (
            <>
              <FormDraft storageKey={key} onDirtyChange={setDirty} />
              <TextareaField name="text" label="Je herinnering" />
            </>
          )}
        </Form>
        {guard.dialog}
      </Dialog>
    </>
  );
}

describe('useConfirmDiscard', () => {
  const escape = (el: Element) => fireEvent.keyDown(el, { key: 'Escape' });

  it('closes an untouched dialog at once', async () => {
    render(<DialogWithForm />);
    escape(screen.getByLabelText('Je herinnering'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('asks before closing a dialog with text; going on keeps the text', async () => {
    render(<DialogWithForm />);
    const text = screen.getByLabelText('Je herinnering');
    text.focus();
    fireEvent.change(text, { target: { value: 'Het lachen van oma' } });
    escape(text);
    const ask = await screen.findByRole('alertdialog', { name: 'Wil je stoppen met schrijven?' });
    // The dialog and its text stay behind the question.
    expect(screen.getByLabelText('Je herinnering')).toHaveProperty('value', 'Het lachen van oma');
    // Focus starts on the safe choice.
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Doorgaan met schrijven' })),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Doorgaan met schrijven' }));
    await waitFor(() => expect(ask.isConnected).toBe(false));
    expect(screen.getByLabelText('Je herinnering')).toHaveProperty('value', 'Het lachen van oma');
    // Back in the text, where the next Escape asks again.
    expect(document.activeElement).toBe(text);
    escape(text);
    await screen.findByRole('alertdialog', { name: 'Wil je stoppen met schrijven?' });
    // While asked, closing again means going on writing.
    escape(screen.getByRole('button', { name: 'Doorgaan met schrijven' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it('keeps the draft for later, or throws it away', async () => {
    render(<DialogWithForm />);
    fireEvent.change(screen.getByLabelText('Je herinnering'), { target: { value: 'Later verder' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sluiten' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Bewaren voor later' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(readDraft(key)).toEqual({ yearLabel: '', text: 'Later verder' });

    fireEvent.click(screen.getByRole('button', { name: 'Openen' }));
    const text = await screen.findByLabelText('Je herinnering');
    await waitFor(() => expect(text).toHaveProperty('value', 'Later verder'));
    escape(text);
    fireEvent.click(await screen.findByRole('button', { name: 'Weggooien' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(readDraft(key)).toBeNull();
  });
});
