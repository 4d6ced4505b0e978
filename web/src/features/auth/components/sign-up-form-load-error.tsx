import { Component, type ReactNode } from 'react';
import { Button } from '../../../components/ui/button';

/** The sign-up form's chunk did not load (offline, or an old page after a deploy): said in its tab, sign-in still works. */
export class SignUpFormLoadError extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div role="alert" className="flex flex-col items-center gap-4 py-6 text-center">
        <p className="text-lg text-night-700">The sign-up form could not load. Please reload the page to try again.</p>
        <Button onClick={() => window.location.reload()}>Reload</Button>
      </div>
    );
  }
}
