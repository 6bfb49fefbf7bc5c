import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { QueryState } from './query-state.tsx';

afterEach(cleanup);

const base = { data: undefined, isPending: false, isError: false, error: null, refetch: vi.fn() };

describe('<QueryState>', () => {
  it('shows the skeleton while loading, and never the content', () => {
    const children = vi.fn(() => <p>Inhoud</p>);
    render(
      <QueryState query={{ ...base, isPending: true }} skeleton={<p>Laden</p>} error="Fout.">
        {children}
      </QueryState>,
    );
    expect(screen.getByText('Laden')).toBeTruthy();
    expect(children).not.toHaveBeenCalled();
  });

  it('says that loading failed, with the reason and a way to try again, instead of an empty list', () => {
    const refetch = vi.fn();
    render(
      <QueryState
        query={{ ...base, isError: true, error: new Error('Geen verbinding.'), refetch }}
        skeleton={null}
        error="De foto’s konden niet worden geladen."
      >
        {() => <p>Nog geen foto’s</p>}
      </QueryState>,
    );
    expect(screen.getByRole('alert').textContent).toContain(
      'De foto’s konden niet worden geladen. Geen verbinding.',
    );
    expect(screen.queryByText('Nog geen foto’s')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Opnieuw proberen' }));
    expect(refetch).toHaveBeenCalledTimes(1);
  });

  it('renders the content with the data once it is there', () => {
    render(
      <QueryState query={{ ...base, data: { html: '<p>x</p>' } }} skeleton={null} error="Fout.">
        {(data) => <p>{data.html}</p>}
      </QueryState>,
    );
    expect(screen.getByText('<p>x</p>')).toBeTruthy();
  });
});
