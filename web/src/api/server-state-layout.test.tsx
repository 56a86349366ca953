import { useQuery } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import { Link, MemoryRouter, Route, Routes } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { ServerStateLayout } from './server-state-layout';

let fetches = 0;

/** A signed-in screen stand-in: one query that stays fresh once fetched, and links around. */
function Screen({ name }: { name: string }) {
  const { data } = useQuery({ queryKey: ['count'], queryFn: () => ++fetches, staleTime: Infinity });
  return (
    <main>
      <p>{data === undefined ? 'loading' : `${name} fetch ${data}`}</p>
      <Link to="/a">a</Link>
      <Link to="/b">b</Link>
      <Link to="/">out</Link>
    </main>
  );
}

describe('ServerStateLayout', () => {
  it('shares its cache between the screens inside it and drops it when the user leaves them', async () => {
    fetches = 0;
    render(
      <MemoryRouter initialEntries={['/a']}>
        <Routes>
          <Route element={<ServerStateLayout />}>
            <Route path="/a" element={<Screen name="a" />} />
            <Route path="/b" element={<Screen name="b" />} />
          </Route>
          <Route path="/" element={<Link to="/a">back</Link>} />
        </Routes>
      </MemoryRouter>,
    );
    await screen.findByText('a fetch 1');
    fireEvent.click(screen.getByRole('link', { name: 'b' }));
    expect(await screen.findByText('b fetch 1')).toBeTruthy();

    // Signed out (or the account deleted): the app goes to /, outside the layout.
    fireEvent.click(screen.getByRole('link', { name: 'out' }));
    fireEvent.click(await screen.findByRole('link', { name: 'back' }));
    expect(await screen.findByText('a fetch 2')).toBeTruthy();
  });
});
