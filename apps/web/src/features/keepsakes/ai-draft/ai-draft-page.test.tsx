import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import type { AiDraftInfo, Memorial } from '@aandenken/contract';
import { stripSourceTags } from './api.ts';
import { DraftScreen, Highlighted } from './ai-draft-page.tsx';

afterEach(cleanup);

const memorial = { id: '6a0c7a52-5d3e-4c1b-9a57-0e3f4b8d2a01', firstName: 'Gerrit' } as Memorial;
const info = (patch: Partial<AiDraftInfo>): AiDraftInfo => ({
  memorialId: memorial.id,
  enabled: true,
  planAllows: true,
  endpointHost: 'llm.example.nl',
  model: 'm',
  answers: [],
  memories: [],
  hasBiography: false,
  ...patch,
});

describe('the AI draft screen', () => {
  it('says it is Premium on a Basis page, and that AI is off when the server has no endpoint', () => {
    render(
      <MemoryRouter>
        <DraftScreen memorial={memorial} info={info({ planAllows: false, enabled: false })} />
      </MemoryRouter>,
    );
    expect(screen.getByRole('heading', { name: 'Dit hoort bij Premium' })).toBeTruthy();
    expect(screen.getByText(/Ook staat AI op deze server/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Kies Premium' }).getAttribute('href')).toBe(
      `/page/payment/${memorial.id}`,
    );
    cleanup();
    render(
      <MemoryRouter>
        <DraftScreen memorial={memorial} info={info({ enabled: false, endpointHost: null })} />
      </MemoryRouter>,
    );
    expect(screen.getByRole('heading', { name: 'AI staat uit' })).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('marks the flagged words and hides source tags while the text streams in', () => {
    render(
      <p>
        <Highlighted
          text="Op 14 juni 1962 trouwde hij met Marie."
          flagged={['1962', '14 juni 1962', 'Marie']}
        />
      </p>,
    );
    expect([...document.querySelectorAll('mark')].map((m) => m.textContent)).toEqual([
      '14 juni 1962 (niet in de bronnen)',
      'Marie (niet in de bronnen)',
    ]);
    expect(stripSourceTags('Hij zong. [A:bezig-hobby] [M:2]\n\nEn [A:we')).toBe('Hij zong.  \n\nEn ');
  });
});
