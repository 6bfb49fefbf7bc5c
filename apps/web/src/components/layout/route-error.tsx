import { Component, type ReactNode } from 'react';
import { Button } from '../ui/button.tsx';

/**
 * Shown instead of a page that cannot load or show (for example: a new version was deployed while the tab was
 * open, or the connection dropped). It sits inside the layout, so the header and footer keep working.
 */
export function RouteError() {
  return (
    <div className="flex flex-col items-center gap-6 px-6 py-20 text-center">
      <title>Er ging iets mis · Aandenken</title>
      <h1 className="text-3xl">Er ging iets mis</h1>
      <p className="max-w-md text-muted">
        Deze pagina kon niet worden getoond. Laad de pagina opnieuw, kies een andere of kom later terug.
      </p>
      <Button onClick={() => window.location.reload()}>Opnieuw laden</Button>
    </div>
  );
}

/**
 * Catches a page that fails to load or render and shows <RouteError>. With `resetKey` (the path), going to
 * another page tries again; without it (around the whole layout) it stays until the page is reloaded.
 */
export class RouteErrorBoundary extends Component<
  { children: ReactNode; resetKey?: string },
  { failed: boolean; key?: string }
> {
  override state = { failed: false, key: this.props.resetKey };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  static getDerivedStateFromProps(props: { resetKey?: string }, state: { key?: string }) {
    return props.resetKey === state.key ? null : { failed: false, key: props.resetKey };
  }
  override render() {
    return this.state.failed ? <RouteError /> : this.props.children;
  }
}
