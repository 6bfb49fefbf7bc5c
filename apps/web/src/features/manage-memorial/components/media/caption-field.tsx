import { useRef, useState } from 'react';
import { MEDIA_CAPTION_MAX, type MediaItem } from '@aandenken/contract';
import { controlClass } from '../../../../components/form/form.tsx';
import { cn } from '../../../../lib/cn.ts';
import { toast } from '../../../../lib/toast.ts';
import { useUpdateCaption } from '../../api/media.ts';
import { errorText } from '../section.tsx';

/** The caption, saved when one leaves the field or presses Enter. */
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
  // Remounted (key) when the saved caption changes, so it starts from what the server kept.
  const [value, setValue] = useState(item.caption ?? '');
  const saved = useRef(item.caption ?? '');

  const commit = () => {
    const next = value.trim();
    if (next === saved.current) return;
    update.mutate(
      { id: item.id, caption: next },
      {
        onSuccess: () => toast.success('Het onderschrift is opgeslagen'),
        onError: (e) => toast.error('Het onderschrift kon niet worden opgeslagen', errorText(e)),
      },
    );
  };

  return (
    <label className="block">
      <span className="sr-only">Onderschrift van {label.toLowerCase()}</span>
      <input
        value={value}
        maxLength={MEDIA_CAPTION_MAX}
        placeholder="Onderschrift (niet verplicht)"
        onChange={(e) => setValue(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            commit();
          }
        }}
        className={cn(controlClass, 'h-11 text-sm')}
      />
    </label>
  );
}
