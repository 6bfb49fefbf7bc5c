import { describe, expect, it } from 'vitest';
import type { MediaItem, Memory } from '@aandenken/contract';
import { buildChosenSlides, buildSlides, MEMORY_SLIDES_MAX, slideDuration } from './slides.ts';

const photo = (id: string, kind: 'image' | 'video' = 'image') => ({ id, kind }) as unknown as MediaItem;
const memory = (id: string, text: string, loves = 0, status = 'published') =>
  ({ id, text, status, lovedBy: { count: loves } }) as unknown as Memory;

describe('the presentation’s slides', () => {
  it('starts with a title, ends with a closing slide, leaves videos out and puts a memory after every three photos', () => {
    const slides = buildSlides(
      [photo('a'), photo('b'), photo('v', 'video'), photo('c'), photo('d')],
      [memory('m1', 'Kort'), memory('m2', 'Ook kort')],
    );
    expect(slides.map((s) => s.key)).toEqual([
      'title',
      'photo-a',
      'photo-b',
      'photo-c',
      'memory-m1',
      'photo-d',
      'memory-m2',
      'closing',
    ]);
  });

  it('chooses short published memories, the most loved first, newest first among equals, at most a few', () => {
    const many = Array.from({ length: 12 }, (_, i) => memory(`n${i}`, 'Tekst', 0));
    const slides = buildSlides(
      [],
      [
        memory('long', 'x'.repeat(400), 9),
        memory('pending', 'Wacht', 9, 'pending'),
        memory('loved', 'Mooi', 3),
        ...many,
      ],
    );
    const chosen = slides.filter((s) => s.kind === 'memory').map((s) => s.key);
    expect(chosen).toHaveLength(MEMORY_SLIDES_MAX);
    expect(chosen[0]).toBe('memory-loved');
    expect(chosen[1]).toBe('memory-n0');
    expect(chosen).not.toContain('memory-long');
    expect(chosen).not.toContain('memory-pending');
  });

  it('gives a memory longer to be read', () => {
    const [, short] = buildSlides([], [memory('m', 'Kort')]);
    const [, long] = buildSlides([], [memory('m', 'x'.repeat(300))]);
    expect(slideDuration(long!)).toBeGreaterThan(slideDuration(short!));
    expect(slideDuration(buildSlides([photo('a')], [])[1]!)).toBe(7_000);
  });

  it('follows the builder’s choice: its order, captions, texts and time, leaving out what this viewer cannot see', () => {
    const slides = buildChosenSlides(
      {
        slides: [
          { kind: 'photo', id: 'b', caption: 'Op het strand' },
          { kind: 'memory', id: 'hidden', caption: null },
          { kind: 'photo', id: 'gone', caption: null },
          { kind: 'memory', id: 'm1', caption: null },
          { kind: 'photo', id: 'a', caption: null },
        ],
        secondsPerSlide: 4,
        titleText: 'Voor opa',
        closingText: 'Dank je wel',
        updatedAt: '2026-01-01T00:00:00.000Z',
      },
      [photo('a'), photo('b')],
      [memory('m1', 'Kort')],
    );
    expect(slides.map((s) => s.key)).toEqual(['title', 'photo-b', 'memory-m1', 'photo-a', 'closing']);
    expect(slides[0]).toMatchObject({ text: 'Voor opa' });
    expect(slides[1]).toMatchObject({ caption: 'Op het strand' });
    expect(slides[4]).toMatchObject({ text: 'Dank je wel' });
    expect(slideDuration(slides[2]!, 4)).toBe(4000);
  });
});
