import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ApiError, type UploadProgress } from '../../lib/api-client.ts';
import type { PickedFile } from './file-checks.ts';

/** Uploads one file, reporting its progress. */
export type UploadOne = (file: File, onProgress: (p: UploadProgress) => void) => Promise<unknown>;

export interface UploadQueue {
  files: PickedFile[];
  /** A file is being sent now. */
  busy: boolean;
  /** Adds chosen files; `dropFailed` first takes away the ones that failed before. */
  add: (picked: PickedFile[], options?: { dropFailed?: boolean }) => void;
  /** Takes one file out of the list. */
  remove: (key: string) => void;
  /** Takes the uploaded files out of the list; failed ones stay with their reason. */
  removeDone: () => void;
  /** Empties the list. */
  clear: () => void;
  /**
   * Uploads the given files, or every one not yet uploaded, one after the other; each shows its
   * progress, then 'done' or 'failed' with the API's reason. Resolves with the counts.
   */
  run: (upload: UploadOne, which?: PickedFile[]) => Promise<{ done: number; failed: number }>;
}

/** The chosen files of an upload form (the gallery's, the memory dialog's) and the loop that sends them. */
export function useUploadQueue(): UploadQueue {
  const [files, setFiles] = useState<PickedFile[]>([]);
  // The loop reads the list as it is now, not as it was when it started.
  const filesRef = useRef(files);
  useEffect(() => {
    filesRef.current = files;
  });
  // Object URLs of previews still shown when the form goes away.
  useEffect(() => () => filesRef.current.forEach((f) => URL.revokeObjectURL(f.preview)), []);

  const patch = useCallback(
    (key: string, p: Partial<PickedFile>) =>
      setFiles((list) => list.map((f) => (f.key === key ? { ...f, ...p } : f))),
    [],
  );

  const dropWhere = useCallback((gone: (f: PickedFile) => boolean) => {
    setFiles((list) => {
      list.filter(gone).forEach((f) => URL.revokeObjectURL(f.preview));
      return list.filter((f) => !gone(f));
    });
  }, []);

  const run = useCallback(
    async (upload: UploadOne, which?: PickedFile[]) => {
      let done = 0;
      let failed = 0;
      for (const f of which ?? filesRef.current.filter((x) => x.status !== 'done')) {
        patch(f.key, { status: 'uploading', progress: 0, error: undefined });
        try {
          await upload(f.file, (p) => patch(f.key, { progress: p.fraction }));
          patch(f.key, { status: 'done', progress: 1 });
          done++;
        } catch (error) {
          failed++;
          patch(f.key, {
            status: 'failed',
            progress: 0,
            error:
              error instanceof ApiError ? error.message : 'Uploaden is niet gelukt. Probeer het nog eens.',
          });
        }
      }
      return { done, failed };
    },
    [patch],
  );

  return useMemo(
    () => ({
      files,
      busy: files.some((f) => f.status === 'uploading'),
      add: (picked, options) =>
        setFiles((prev) => {
          if (!options?.dropFailed) return [...prev, ...picked];
          prev.filter((f) => f.status === 'failed').forEach((f) => URL.revokeObjectURL(f.preview));
          return [...prev.filter((f) => f.status !== 'failed'), ...picked];
        }),
      remove: (key) => dropWhere((f) => f.key === key),
      removeDone: () => dropWhere((f) => f.status === 'done'),
      clear: () => dropWhere(() => true),
      run,
    }),
    [files, dropWhere, run],
  );
}
