import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { Memory } from '@aandenken/contract';
import { linkTokenFromHash } from './api/consume-link.ts';
import { MemoryCard } from './components/memory-card.tsx';
import { stepIndex } from './components/photo-viewer.tsx';
import { photoLabel } from './components/photo-label.ts';

const memory = (patch: Partial<Memory> = {}): Memory => ({
  id: '6a0c7a52-5d3e-4c1b-9a57-0e3f4b8d2a99',
  memorialId: '6a0c7a52-5d3e-4c1b-9a57-0e3f4b8d2a01',
  yearLabel: 'Zomer 1975',
  text: 'Regel een\nRegel twee',
  status: 'published',
  membersOnly: false,
  author: { kind: 'guest', name: 'Tante Riet', isYou: false },
  media: [],
  lovedBy: { count: 2, byMe: false, initials: ['MV', 'JB'] },
  canEdit: false,
  canDelete: false,
  publishedAt: '2024-01-01T00:00:00.000Z',
  createdAt: '2024-01-01T00:00:00.000Z',
  updatedAt: '2024-01-01T00:00:00.000Z',
  ...patch,
});

afterEach(cleanup);

describe('memory card', () => {
  it('shows year, text, author and the hearts as a toggle for members and guests', () => {
    const onToggleLove = vi.fn();
    render(<MemoryCard memory={memory()} canLove onToggleLove={onToggleLove} onOpenPhoto={() => {}} />);
    expect(screen.getByRole('article', { name: 'Zomer 1975' })).toBeTruthy();
    expect(screen.getByText(/Regel een/).textContent).toBe('Regel een\nRegel twee');
    expect(screen.getByText('Tante Riet')).toBeTruthy();
    expect(screen.getByRole('list', { name: 'Mooi gevonden door 2 mensen' })).toBeTruthy();
    const heart = screen.getByRole('button', { name: 'Vind ik mooi, 2 hartjes' });
    expect(heart.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(heart);
    expect(onToggleLove).toHaveBeenCalledWith(expect.objectContaining({ id: memory().id }));
  });

  it('shows the count without a button to visitors, and marks a members-only memory', () => {
    render(
      <MemoryCard
        memory={memory({ membersOnly: true, lovedBy: { count: 1, byMe: false, initials: ['AB'] } })}
        canLove={false}
        onToggleLove={() => {}}
        onOpenPhoto={() => {}}
      />,
    );
    expect(screen.queryByRole('button', { name: /Vind ik mooi/ })).toBeNull();
    expect(screen.getByText('Alleen voor leden')).toBeTruthy();
    expect(screen.getByRole('list', { name: 'Mooi gevonden door 1 persoon' })).toBeTruthy();
  });
});

describe('viewer and links', () => {
  it('wraps around at both ends', () => {
    expect(stepIndex(0, -1, 4)).toBe(3);
    expect(stepIndex(3, 1, 4)).toBe(0);
    expect(stepIndex(1, 1, 4)).toBe(2);
  });
  it('labels photos for screen readers', () => {
    expect(photoLabel({ kind: 'image', caption: 'Op het strand' } as never, 0, 3)).toBe(
      'Foto 1 van 3 bekijken: Op het strand',
    );
    expect(photoLabel({ kind: 'video', caption: null } as never, 2, 3)).toBe('Video 3 van 3 bekijken');
  });
  it('reads the one-time link of an access mail from the fragment only', () => {
    expect(linkTokenFromHash('#gasttoken=abcdefghijklmnop_-12')).toBe('abcdefghijklmnop_-12');
    expect(linkTokenFromHash('#gasttoken=short')).toBeNull();
    expect(linkTokenFromHash('#code=12345678')).toBeNull();
    expect(linkTokenFromHash('')).toBeNull();
  });
});
