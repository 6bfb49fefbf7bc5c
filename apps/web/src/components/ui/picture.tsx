import { useEffect, useRef, useState } from 'react';
import { ImageOff } from 'lucide-react';
import { imageSrcSet, imageUrl, type ImageAsset } from '../../content/images.ts';
import { cn } from '../../lib/cn.ts';

export interface PictureProps {
  image: ImageAsset;
  /** The `sizes` attribute: how wide the image is shown at each breakpoint. */
  sizes: string;
  /** Above the fold: load at once; everything else loads lazily. */
  priority?: boolean;
  className?: string;
  imgClassName?: string;
  /** Decorative images get an empty alt. */
  decorative?: boolean;
}

/**
 * A responsive illustration (AVIF, WebP, JPEG at three widths) with a spinner until it loaded or failed.
 * The wrapper keeps the aspect ratio so nothing jumps while it loads.
 */
export function Picture({ image, sizes, priority, className, imgClassName, decorative }: PictureProps) {
  const [state, setState] = useState<'loading' | 'loaded' | 'error'>('loading');
  const ref = useRef<HTMLImageElement>(null);

  useEffect(() => {
    // An image from the cache can finish before React attaches onLoad.
    const img = ref.current;
    if (img?.complete) setState(img.naturalWidth > 0 ? 'loaded' : 'error');
  }, []);

  return (
    <div className={cn('relative overflow-hidden bg-secondary', className)} data-state={state}>
      <picture>
        <source type="image/avif" srcSet={imageSrcSet(image, 'avif')} sizes={sizes} />
        <source type="image/webp" srcSet={imageSrcSet(image, 'webp')} sizes={sizes} />
        <img
          ref={ref}
          src={imageUrl(image, 800, 'jpg')}
          srcSet={imageSrcSet(image, 'jpg')}
          sizes={sizes}
          width={image.width}
          height={image.height}
          alt={decorative ? '' : image.alt}
          loading={priority ? 'eager' : 'lazy'}
          decoding="async"
          fetchPriority={priority ? 'high' : undefined}
          draggable={false}
          onLoad={() => setState('loaded')}
          onError={() => setState('error')}
          className={cn(
            'h-full w-full object-cover transition-opacity duration-500',
            state === 'loaded' ? 'opacity-100' : 'opacity-0',
            imgClassName,
          )}
        />
      </picture>
      {state === 'loading' && (
        <div
          className="absolute inset-0 flex items-center justify-center text-muted"
          role="status"
          aria-label="Afbeelding laden"
        >
          <span className="block h-7 w-7 animate-spin rounded-full border-2 border-current border-r-transparent opacity-70" />
        </div>
      )}
      {state === 'error' && (
        <div className="absolute inset-0 flex flex-col items-center justify-center gap-2 text-sm text-muted">
          <ImageOff aria-hidden className="h-6 w-6" />
          <span>Afbeelding niet beschikbaar</span>
        </div>
      )}
    </div>
  );
}
