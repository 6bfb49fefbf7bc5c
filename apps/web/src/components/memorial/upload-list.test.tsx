import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { PickedFile } from './file-checks.ts';
import { UploadList } from './upload-list.tsx';

afterEach(cleanup);

const picked = (over: Partial<PickedFile> = {}): PickedFile => ({
  key: 'k1',
  file: new File([new Uint8Array([1, 2, 3])], 'oma.jpg', { type: 'image/jpeg' }),
  preview: 'blob:http://localhost/preview-1',
  status: 'failed',
  progress: 0,
  error:
    'Deze foto kunnen we niet openen; misschien is het bestand beschadigd. Bewaar de foto op je telefoon of computer opnieuw als JPEG of PNG en probeer het nog eens.',
  ...over,
});

describe('<UploadList>', () => {
  it('shows a quiet placeholder, not a broken image, for a photo the browser cannot show', () => {
    const { container } = render(<UploadList files={[picked()]} />);
    const img = container.querySelector('img')!;
    expect(img.getAttribute('src')).toBe('blob:http://localhost/preview-1');
    fireEvent.error(img);
    expect(container.querySelector('img')).toBeNull();
    expect(screen.getByTestId('preview-unavailable').textContent).toBe('Geen voorbeeld');
    // The reason, and what to do, stay under the file's name.
    expect(screen.getByText('oma.jpg')).toBeTruthy();
    expect(screen.getByText(/probeer het nog eens/)).toBeTruthy();
  });

  it('shows the preview of a photo that loads', () => {
    const { container } = render(<UploadList files={[picked({ status: 'waiting', error: undefined })]} />);
    fireEvent.load(container.querySelector('img')!);
    expect(container.querySelector('img')).not.toBeNull();
    expect(screen.queryByTestId('preview-unavailable')).toBeNull();
  });
});
