import type { MediaItem, Memory, PresentationSettings } from '@aandenken/contract';

export type Slide =
  | { kind: 'title'; key: string; text?: string | null }
  | { kind: 'photo'; key: string; item: MediaItem; caption?: string | null }
  | { kind: 'memory'; key: string; memory: Memory }
  | { kind: 'closing'; key: string; text?: string | null };

/** Memories shown as text slides: short enough to read from a distance. */
export const MEMORY_SLIDE_MAX_CHARS = 320;
export const MEMORY_SLIDES_MAX = 8;
/** A memory after every this many photos. */
const PHOTOS_PER_MEMORY = 3;

/**
 * The presentation's slides: a title, the photos in the gallery's order with the most loved short memories
 * in between (newest first among equals), and a closing slide. Videos are left out.
 */
export function buildSlides(gallery: MediaItem[], memories: Memory[]): Slide[] {
  const photos = gallery.filter((m) => m.kind === 'image');
  const chosen = memories
    .filter((m) => m.status === 'published' && m.text.trim() && m.text.length <= MEMORY_SLIDE_MAX_CHARS)
    .map((m, i) => ({ m, i }))
    .sort((a, b) => b.m.lovedBy.count - a.m.lovedBy.count || a.i - b.i)
    .slice(0, MEMORY_SLIDES_MAX)
    .map(({ m }) => m);

  const slides: Slide[] = [{ kind: 'title', key: 'title' }];
  let next = 0;
  photos.forEach((item, i) => {
    slides.push({ kind: 'photo', key: `photo-${item.id}`, item });
    if ((i + 1) % PHOTOS_PER_MEMORY === 0 && next < chosen.length) {
      const memory = chosen[next++]!;
      slides.push({ kind: 'memory', key: `memory-${memory.id}`, memory });
    }
  });
  for (; next < chosen.length; next++) {
    const memory = chosen[next]!;
    slides.push({ kind: 'memory', key: `memory-${memory.id}`, memory });
  }
  slides.push({ kind: 'closing', key: 'closing' });
  return slides;
}

/**
 * The slides the family chose (Premium builder): their order, their captions, their title and closing text.
 * What this viewer cannot see (a members-only memory) or what was removed since is left out.
 */
export function buildChosenSlides(
  settings: PresentationSettings,
  gallery: MediaItem[],
  memories: Memory[],
): Slide[] {
  const photos = new Map(gallery.filter((m) => m.kind === 'image').map((m) => [m.id, m]));
  const shown = new Map(memories.filter((m) => m.status === 'published').map((m) => [m.id, m]));
  const slides: Slide[] = [{ kind: 'title', key: 'title', text: settings.titleText }];
  for (const s of settings.slides) {
    if (s.kind === 'photo') {
      const item = photos.get(s.id);
      if (item) slides.push({ kind: 'photo', key: `photo-${item.id}`, item, caption: s.caption });
    } else {
      const memory = shown.get(s.id);
      if (memory) slides.push({ kind: 'memory', key: `memory-${memory.id}`, memory });
    }
  }
  slides.push({ kind: 'closing', key: 'closing', text: settings.closingText });
  return slides;
}

/** How long a slide stays, in ms: longer for a memory to read; the builder's time when one was chosen. */
export function slideDuration(slide: Slide, secondsPerSlide?: number): number {
  if (secondsPerSlide) return secondsPerSlide * 1000;
  if (slide.kind === 'memory') return Math.min(16_000, 7_000 + slide.memory.text.length * 30);
  if (slide.kind === 'photo') return 7_000;
  return 6_000;
}
