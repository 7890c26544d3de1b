import { Component, type ReactNode } from 'react';

/**
 * A part of the page whose code could not be fetched (the network went away, the site was
 * redeployed under the open page) or that failed to render says so in its place; the rest of the
 * page stays as it was, instead of the whole page going blank.
 */
export class LoadFailed extends Component<
  { what: string; children: ReactNode },
  { error: Error | null }
> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: unknown): { error: Error } {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <p className="error" role="alert" data-testid="load-failed">
        {this.props.what} could not be shown: {error.message}. Reloading the page tries again.
      </p>
    );
  }
}
