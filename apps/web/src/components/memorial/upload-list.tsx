import { useId, useRef, useState, type ReactNode } from 'react';
import { AlertCircle, Check, ImageOff, ImagePlus, X } from 'lucide-react';
import { mediaAcceptAttribute, mediaImageAcceptAttribute } from '@aandenken/contract';
import { cn } from '../../lib/cn.ts';
import { formatBytes } from '../../lib/memorials/time.ts';
import type { PickedFile } from './file-checks.ts';

/**
 * A drop zone with a button that opens the file chooser; several files at once. `videos` false: the chooser
 * offers photos only (the server has no ffmpeg).
 */
export function FileDropZone({
  onFiles,
  disabled,
  label,
  hint,
  videos = true,
}: {
  onFiles: (files: FileList) => void;
  disabled?: boolean;
  label: string;
  hint?: ReactNode;
  videos?: boolean;
}) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const hintId = useId();
  return (
    <div
      onDragOver={(e) => {
        if (disabled) return;
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault();
        setOver(false);
        if (!disabled && e.dataTransfer.files.length) onFiles(e.dataTransfer.files);
      }}
      className={cn(
        'flex flex-col items-center gap-2 rounded-2xl border-2 border-dashed px-4 py-6 text-center transition-colors',
        over ? 'border-primary bg-success-soft' : 'border-border bg-background-soft',
        disabled && 'opacity-60',
      )}
    >
      <ImagePlus aria-hidden className="h-7 w-7 text-muted" />
      <button
        type="button"
        disabled={disabled}
        aria-describedby={hint ? hintId : undefined}
        onClick={() => inputRef.current?.click()}
        className="rounded-full font-medium text-primary underline underline-offset-4 disabled:no-underline"
      >
        {label}
      </button>
      {hint && (
        <p id={hintId} className="text-xs text-muted">
          {hint}
        </p>
      )}
      <input
        ref={inputRef}
        type="file"
        multiple
        accept={videos ? mediaAcceptAttribute : mediaImageAcceptAttribute}
        className="sr-only"
        tabIndex={-1}
        aria-hidden
        data-testid="file-input"
        onChange={(e) => {
          if (e.target.files?.length) onFiles(e.target.files);
          e.target.value = '';
        }}
      />
    </div>
  );
}

/**
 * The preview of a chosen photo; a file the browser cannot show (damaged, or not the photo its name says)
 * gets a quiet placeholder instead of a broken image.
 */
function Preview({ src }: { src: string }) {
  const [broken, setBroken] = useState(false);
  if (broken)
    return (
      <span
        data-testid="preview-unavailable"
        className="flex h-full w-full flex-col items-center justify-center gap-1 text-muted"
      >
        <ImageOff aria-hidden className="h-6 w-6" />
        <span className="text-xs">Geen voorbeeld</span>
      </span>
    );
  return <img src={src} alt="" onError={() => setBroken(true)} className="h-full w-full object-cover" />;
}

/** The chosen files with a preview, their upload progress and a way to take one out again. */
export function UploadList({
  files,
  onRemove,
  disabled,
}: {
  files: PickedFile[];
  onRemove?: (key: string) => void;
  disabled?: boolean;
}) {
  if (files.length === 0) return null;
  return (
    <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3" aria-label="Gekozen bestanden">
      {files.map((f) => {
        const percent = Math.round(f.progress * 100);
        return (
          <li key={f.key} className="overflow-hidden rounded-xl border border-border bg-card">
            <div className="relative aspect-[4/3] bg-secondary">
              {f.file.type.startsWith('video/') ? (
                <video
                  src={f.preview}
                  muted
                  playsInline
                  preload="metadata"
                  className="h-full w-full object-cover"
                  aria-hidden
                />
              ) : (
                <Preview src={f.preview} />
              )}
              {f.status === 'done' && (
                <span className="absolute top-2 left-2 flex h-7 w-7 items-center justify-center rounded-full bg-primary text-primary-foreground">
                  <Check aria-hidden className="h-4 w-4" />
                </span>
              )}
              {onRemove && f.status !== 'done' && f.status !== 'uploading' && (
                <button
                  type="button"
                  disabled={disabled}
                  onClick={() => onRemove(f.key)}
                  aria-label={`${f.file.name} weghalen`}
                  className="absolute top-2 right-2 flex h-8 w-8 items-center justify-center rounded-full bg-black/60 text-white hover:bg-black/75"
                >
                  <X aria-hidden className="h-4 w-4" />
                </button>
              )}
            </div>
            <div className="px-3 py-2">
              <p className="truncate text-xs font-medium" title={f.file.name}>
                {f.file.name}
              </p>
              {f.status === 'failed' ? (
                <p className="mt-1 flex items-start gap-1 text-xs text-danger">
                  <AlertCircle aria-hidden className="mt-px h-3.5 w-3.5 shrink-0" />
                  {f.error}
                </p>
              ) : f.status === 'uploading' || f.status === 'done' ? (
                <div className="mt-1.5">
                  <div
                    role="progressbar"
                    aria-label={`Uploaden van ${f.file.name}`}
                    aria-valuemin={0}
                    aria-valuemax={100}
                    aria-valuenow={percent}
                    className="h-1.5 overflow-hidden rounded-full bg-secondary"
                  >
                    <div
                      className="h-full rounded-full bg-primary transition-[width] duration-200"
                      style={{ width: `${percent}%` }}
                    />
                  </div>
                  <p className="mt-1 text-[0.7rem] text-muted">
                    {f.status === 'done' ? 'Geüpload' : `${percent}%`}
                  </p>
                </div>
              ) : (
                <p className="mt-1 text-[0.7rem] text-muted">{formatBytes(f.file.size)}</p>
              )}
            </div>
          </li>
        );
      })}
    </ul>
  );
}
