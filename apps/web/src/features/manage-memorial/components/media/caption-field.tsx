import { useState } from 'react';
import { MEDIA_CAPTION_MAX, type MediaItem } from '@aandenken/contract';
import { controlClass } from '../../../../components/form/form.tsx';
import { useAutosave } from '../../../../lib/autosave.ts';
import { cn } from '../../../../lib/cn.ts';
import { toast } from '../../../../lib/toast.ts';
import { useUpdateCaption } from '../../api/media.ts';
import { errorText } from '../section.tsx';

const statusText = {
  idle: '',
  waiting: '',
  saving: 'Opslaan…',
  saved: 'Opgeslagen',
  error: 'Niet opgeslagen',
};

/** The caption, saved while typing (a moment after the last key), on leaving the field and on Enter. */
export function CaptionField({
  memorialId,
  item,
  label,
}: {
  memorialId: string;
  item: MediaItem;
  label: string;
}) {
  const update = useUpdateCaption(memorialId);
  const [value, setValue] = useState(item.caption ?? '');
  const { status, flush } = useAutosave(value.trim(), item.caption ?? '', (caption) =>
    update.mutateAsync({ id: item.id, caption }).catch((e: unknown) => {
      toast.error('Het onderschrift kon niet worden opgeslagen', errorText(e));
      throw e;
    }),
  );

  return (
    <div className="relative">
      <label className="block">
        <span className="sr-only">Onderschrift van {label.toLowerCase()}</span>
        <input
          value={value}
          maxLength={MEDIA_CAPTION_MAX}
          placeholder="Onderschrift (niet verplicht)"
          onChange={(e) => setValue(e.target.value)}
          onBlur={flush}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              flush();
            }
          }}
          className={cn(controlClass, 'h-11 pr-28 text-sm')}
        />
      </label>
      <span
        aria-live="polite"
        className={cn(
          'pointer-events-none absolute top-1/2 right-4 -translate-y-1/2 text-xs',
          status === 'error' ? 'text-danger' : 'text-muted',
        )}
      >
        {statusText[status]}
      </span>
    </div>
  );
}
