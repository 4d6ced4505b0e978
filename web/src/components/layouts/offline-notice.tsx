import { onlineManager, useIsMutating } from '@tanstack/react-query';
import { WifiOff } from 'lucide-react';
import { useSyncExternalStore } from 'react';
import { useLeavePrompt } from '../../lib/use-leave-prompt';

export const OFFLINE_NOTICE = 'You are offline. What you save now is sent once you are back online: keep this page open until then.';

/** "1 save is waiting to be sent." */
export const waitingSaves = (count: number) => `${count} ${count === 1 ? 'save is' : 'saves are'} waiting to be sent.`;

const subscribe = (onChange: () => void) => onlineManager.subscribe(onChange);
const isOnline = () => onlineManager.isOnline();

/**
 * While the browser is offline, a save waits (TanStack Query pauses it and sends it once
 * the browser is back online): said here, under the nav bar, with how many wait; and a page
 * left or reloaded while a save is waiting or on its way asks first (the browser's own
 * question), as what she saved would be lost with it. Before, a save offline showed
 * "Saving..." for as long as she was offline, without a word, and closing the tab lost it.
 */
export function OfflineNotice() {
  const online = useSyncExternalStore(subscribe, isOnline);
  const saving = useIsMutating();

  useLeavePrompt(saving > 0);

  if (online) return null;
  return (
    <div role="status" className="border-b border-amber-300 bg-amber-50 text-amber-950">
      <p className="mx-auto flex max-w-7xl items-start gap-3 px-4 py-3 text-base sm:px-6">
        <WifiOff aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
        <span>
          {OFFLINE_NOTICE}
          {saving > 0 ? ` ${waitingSaves(saving)}` : ''}
        </span>
      </p>
    </div>
  );
}
