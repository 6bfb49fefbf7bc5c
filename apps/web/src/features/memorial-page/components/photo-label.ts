import type { MediaItem } from '@aandenken/contract';

export function photoLabel(item: MediaItem, index: number, total: number): string {
  const what = item.kind === 'video' ? 'Video' : 'Foto';
  return `${what} ${index + 1} van ${total} bekijken${item.caption ? `: ${item.caption}` : ''}`;
}
