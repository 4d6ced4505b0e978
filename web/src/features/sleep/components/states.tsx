import { CircleAlert, LoaderCircle } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '../../../components/ui/button';

/** A screen's loading state, in the spec's words ('Loading consent status...'). */
export function LoadingState({ text }: { text: string }) {
  return (
    <div role="status" className="flex min-h-[40vh] flex-col items-center justify-center gap-3 px-6 text-center text-night-700">
      <LoaderCircle aria-hidden="true" className="size-8 motion-safe:animate-spin" />
      <p className="text-lg">{text}</p>
    </div>
  );
}

export function ErrorState({
  title,
  text,
  onRetry,
  retrying,
}: {
  title: string;
  text: ReactNode;
  onRetry: () => void;
  retrying: boolean;
}) {
  return (
    <div role="alert" className="mx-auto flex min-h-[40vh] max-w-md flex-col items-center justify-center gap-4 px-6 text-center">
      <CircleAlert aria-hidden="true" className="size-10 text-rose-700" />
      <h2 className="text-2xl font-semibold text-night-950">{title}</h2>
      <p className="text-base text-night-700">{text}</p>
      <Button onClick={onRetry} pending={retrying}>
        Try again
      </Button>
    </div>
  );
}
