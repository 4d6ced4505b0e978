import type { ThreadDetail } from '@sleepweave/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { loadEarlierMessages, threadQueryKey } from '../api/get-thread';

/**
 * Above the messages when the thread has earlier ones than the 500 it opened with (`?before=`).
 * `onAllLoaded`: the last of them is in, and this button goes (with the focus, if it had it).
 */
export function EarlierMessages({ threadId, onAllLoaded }: { threadId: string; onAllLoaded: () => void }) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<'idle' | 'loading' | 'error'>('idle');
  const load = () => {
    setState('loading');
    loadEarlierMessages(queryClient, threadId).then(
      () => {
        setState('idle');
        if (queryClient.getQueryData<ThreadDetail>(threadQueryKey(threadId))?.before === null) onAllLoaded();
      },
      () => setState('error'),
    );
  };
  return (
    <div className="mb-4 flex flex-col items-center gap-1">
      <Button variant="outline" onClick={load} pending={state === 'loading'}>
        {state === 'loading' ? 'Loading earlier messages...' : 'Load earlier messages'}
      </Button>
      {state === 'error' ? (
        <p role="alert" className="text-sm text-rose-700">
          Earlier messages could not be loaded. Please try again.
        </p>
      ) : null}
    </div>
  );
}
