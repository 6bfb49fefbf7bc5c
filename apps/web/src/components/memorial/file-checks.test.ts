import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileProblem, pickFiles } from './file-checks.ts';

const file = (name: string, type: string, size = 1000) =>
  new File([new Uint8Array(Math.min(size, 10))], name, { type });
const sized = (name: string, type: string, size: number) =>
  Object.defineProperty(file(name, type), 'size', { value: size });

beforeAll(() => {
  // jsdom has no object URLs.
  URL.createObjectURL ??= () => 'blob:preview';
});
afterAll(() => {});

describe('fileProblem', () => {
  it('accepts photos and short videos', () => {
    expect(fileProblem(file('a.jpg', 'image/jpeg'))).toBeNull();
    expect(fileProblem(file('a.webm', 'video/webm'))).toBeNull();
  });
  it('explains HEIC, unknown types and sizes in Dutch', () => {
    expect(fileProblem(file('IMG_1.HEIC', ''))).toMatch(/HEIC/);
    expect(fileProblem(file('a.pdf', 'application/pdf'))).toMatch(/niet ondersteund/);
    expect(fileProblem(sized('a.jpg', 'image/jpeg', 21 * 1024 * 1024))).toBe(
      'Deze foto is te groot (maximaal 20 MB).',
    );
    expect(fileProblem(sized('a.mp4', 'video/mp4', 101 * 1024 * 1024))).toBe(
      'Deze video is te groot (maximaal 100 MB).',
    );
  });
  it('without ffmpeg on the server: videos are refused with the server’s words, photos still taken', () => {
    const off =
      'Video’s en muziek uploaden kan nu niet: deze server heeft geen ffmpeg. Foto’s uploaden kan wel.';
    expect(fileProblem(file('a.mp4', 'video/mp4'), false)).toBe(off);
    expect(fileProblem(file('a.jpg', 'image/jpeg'), false)).toBeNull();
    const { picked, problems } = pickFiles(
      [file('a.jpg', 'image/jpeg'), file('b.webm', 'video/webm')],
      0,
      10,
      false,
    );
    expect(picked.map((p) => p.file.name)).toEqual(['a.jpg']);
    expect(problems).toEqual([`b.webm: ${off}`]);
  });
});

describe('pickFiles', () => {
  it('keeps what fits, within the maximum, and says what it left out', () => {
    const { picked, problems } = pickFiles(
      [
        file('a.jpg', 'image/jpeg'),
        file('b.txt', 'text/plain'),
        file('c.png', 'image/png'),
        file('d.png', 'image/png'),
      ],
      8,
      10,
    );
    expect(picked.map((p) => p.file.name)).toEqual(['a.jpg', 'c.png']);
    expect(picked.every((p) => p.status === 'waiting' && p.progress === 0)).toBe(true);
    expect(problems).toEqual([
      expect.stringMatching(/^b\.txt: /),
      'Je kunt maximaal 10 foto’s of video’s toevoegen.',
    ]);
  });
});
