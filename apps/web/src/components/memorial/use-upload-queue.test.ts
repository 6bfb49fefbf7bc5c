import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api-client.ts';
import type { PickedFile } from './file-checks.ts';
import { useUploadQueue } from './use-upload-queue.ts';

const picked = (name: string): PickedFile => ({
  key: name,
  file: new File(['x'], name, { type: 'image/jpeg' }),
  preview: `blob:${name}`,
  status: 'waiting',
  progress: 0,
});

describe('useUploadQueue', () => {
  const revoked: string[] = [];
  beforeEach(() => {
    revoked.length = 0;
    vi.stubGlobal('URL', { ...URL, revokeObjectURL: (u: string) => revoked.push(u) });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('sends the files one by one with their progress, and keeps a failed one with its reason', async () => {
    const { result } = renderHook(() => useUploadQueue());
    act(() => result.current.add([picked('a.jpg'), picked('b.jpg')]));
    const seen: string[] = [];
    let counts: { done: number; failed: number } | undefined;
    await act(async () => {
      counts = await result.current.run(async (file, onProgress) => {
        seen.push(file.name);
        onProgress({ loaded: 1, total: 2, fraction: 0.5 });
        if (file.name === 'b.jpg') throw new ApiError(415, 'UNSUPPORTED_MEDIA', 'Dit bestandstype kan niet.');
      });
    });
    expect(seen).toEqual(['a.jpg', 'b.jpg']);
    expect(counts).toEqual({ done: 1, failed: 1 });
    expect(result.current.files.map((f) => [f.key, f.status, f.progress, f.error])).toEqual([
      ['a.jpg', 'done', 1, undefined],
      ['b.jpg', 'failed', 0, 'Dit bestandstype kan niet.'],
    ]);
    expect(result.current.busy).toBe(false);

    // A second run sends only what is not uploaded yet; a reason that is not the API's is a general one.
    await act(async () => {
      counts = await result.current.run(async (file) => {
        seen.push(file.name);
        throw new Error('offline');
      });
    });
    expect(seen).toEqual(['a.jpg', 'b.jpg', 'b.jpg']);
    expect(result.current.files[1]!.error).toBe('Uploaden is niet gelukt. Probeer het nog eens.');

    act(() => result.current.removeDone());
    expect(result.current.files.map((f) => f.key)).toEqual(['b.jpg']);
    expect(revoked).toEqual(['blob:a.jpg']);
  });

  it('drops failed files when asked, removes one, and frees every preview when cleared or unmounted', async () => {
    const { result, unmount } = renderHook(() => useUploadQueue());
    act(() => result.current.add([picked('a.jpg')]));
    await act(async () => {
      await result.current.run(() => Promise.reject(new Error('nee')));
    });
    act(() => result.current.add([picked('b.jpg'), picked('c.jpg')], { dropFailed: true }));
    expect(result.current.files.map((f) => f.key)).toEqual(['b.jpg', 'c.jpg']);
    act(() => result.current.remove('b.jpg'));
    expect(result.current.files.map((f) => f.key)).toEqual(['c.jpg']);
    act(() => result.current.add([picked('d.jpg')]));
    unmount();
    expect(revoked).toEqual(['blob:a.jpg', 'blob:b.jpg', 'blob:c.jpg', 'blob:d.jpg']);
  });
});
