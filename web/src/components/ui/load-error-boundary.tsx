import { Component, type ReactNode } from 'react';
import { cn } from '../../lib/utils';
import { Button } from './button';

/**
 * Around a part of a screen whose code loads when first shown (React.lazy): if its chunk
 * cannot be fetched (offline, or an old page after a deploy), that part says so with a
 * Reload button, and the rest of the screen keeps working. Without it the error would reach
 * the route's error screen and take the whole page.
 */
export class LoadErrorBoundary extends Component<{ what: string; className?: string; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div role="alert" className={cn('flex flex-col items-center gap-4 py-6 text-center', this.props.className)}>
        <p className="text-lg text-night-700">The {this.props.what} could not load. Please reload the page to try again.</p>
        <Button onClick={() => window.location.reload()}>Reload</Button>
      </div>
    );
  }
}
