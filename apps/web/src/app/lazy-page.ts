import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

type PageModule = { default: ComponentType };
export type LazyPage = LazyExoticComponent<ComponentType> & { preload(): Promise<void> };

/**
 * A route's page as its own chunk (React.lazy) that can also be loaded ahead: main.tsx preloads the page of
 * the current URL before it hydrates prerendered HTML. Once loaded, the lazy component resolves
 * synchronously, so hydration never falls back to the spinner (which would not match the HTML).
 */
export function lazyPage(load: () => Promise<PageModule>): LazyPage {
  let loaded: PageModule | undefined;
  let pending: Promise<PageModule> | undefined;
  const get = () =>
    (pending ??= load().then((m) => {
      loaded = m;
      return m;
    }));
  const page = lazy(() =>
    loaded
      ? ({ then: (resolve: (m: PageModule) => void) => resolve(loaded!) } as unknown as Promise<PageModule>)
      : get(),
  ) as LazyPage;
  page.preload = () => get().then(() => undefined);
  return page;
}
