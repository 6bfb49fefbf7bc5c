import { useEffect, useRef, useState } from 'react';
import { ImageOff } from 'lucide-react';
import type { MediaItem } from '@aandenken/contract';
import { cn } from '../../lib/cn.ts';

export interface MediaImageProps {
  item: Pick<
    MediaItem,
    'kind' | 'url' | 'fallbackUrl' | 'srcSet' | 'width' | 'height' | 'caption' | 'contentType'
  >;
  /** The `sizes` attribute: how wide the image is shown at each breakpoint. */
  sizes: string;
  /** Text alternative; defaults to the caption. Pass '' for a decorative image. */
  alt?: string;
  priority?: boolean;
  className?: string;
  imgClassName?: string;
  /** cover fills the box (cropping); contain shows the whole photo. */
  fit?: 'cover' | 'contain';
  /** Videos: show the player controls (in the viewer) or a still frame (in lists). */
  controls?: boolean;
}

/**
 * A photo or video of a memorial as the API serves it: WebP with a JPEG fallback at every width the
 * server made, a quiet placeholder until it loaded, and a clear note when it failed.
 */
export function MediaImage({
  item,
  sizes,
  alt,
  priority,
  className,
  imgClassName,
  fit = 'cover',
  controls,
}: MediaImageProps) {
  const [state, setState] = useState<'loading' | 'loaded' | 'error'>('loading');
  const ref = useRef<HTMLImageElement>(null);
  const text = alt ?? item.caption ?? 'Foto';

  useEffect(() => {
    const img = ref.current;
    if (img?.complete) setState(img.naturalWidth > 0 ? 'loaded' : 'error');
  }, [item.url]);

  const objectFit = fit === 'cover' ? 'object-cover' : 'object-contain';

  if (item.kind === 'video') {
    return (
      <div className={cn('relative overflow-hidden bg-black', className)}>
        <video
          src={item.url}
          controls={controls}
          muted={!controls}
          playsInline
          preload="metadata"
          aria-label={text || 'Video'}
          className={cn('h-full w-full', objectFit, imgClassName)}
        />
      </div>
    );
  }

  return (
    <div className={cn('relative overflow-hidden bg-secondary', className)} data-state={state}>
      <picture>
        {item.srcSet?.webp && <source type="image/webp" srcSet={item.srcSet.webp} sizes={sizes} />}
        <img
          ref={ref}
          src={item.fallbackUrl ?? item.url}
          srcSet={item.srcSet?.jpeg || undefined}
          sizes={sizes}
          width={item.width ?? undefined}
          height={item.height ?? undefined}
          alt={text}
          loading={priority ? 'eager' : 'lazy'}
          decoding="async"
          fetchPriority={priority ? 'high' : undefined}
          draggable={false}
          onLoad={() => setState('loaded')}
          onError={() => setState('error')}
          className={cn(
            'h-full w-full transition-opacity duration-500',
            objectFit,
            state === 'loaded' ? 'opacity-100' : 'opacity-0',
            imgClassName,
          )}
        />
      </picture>
      {state === 'loading' && (
        <div aria-hidden className="absolute inset-0 animate-pulse bg-secondary motion-reduce:animate-none" />
      )}
      {state === 'error' && (
        <div className="absolute inset-0 flex flex-col items-center justify-center gap-2 p-3 text-center text-sm text-muted">
          <ImageOff aria-hidden className="h-6 w-6" />
          <span>Foto niet beschikbaar</span>
        </div>
      )}
    </div>
  );
}
