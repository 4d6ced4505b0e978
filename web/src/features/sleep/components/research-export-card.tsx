import { Download, FileArchive } from 'lucide-react';
import { useId } from 'react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { toast } from '../../../components/ui/toast';
import { failureMessage, isApiRequestError, serverMessage } from '../../../lib/api-client';
import { useLoggedOutRedirect } from '../../../lib/logged-out-redirect';
import { useOneAtATime } from '../../../lib/one-at-a-time';
import { useDownloadResearchExport } from '../api/download-research-export';

const FAILED = 'Failed to generate research export. Please try again.';

/**
 * What to say when the export failed: the server's words when it refuses for a reason she
 * can act on (403: no consent; 404: no nights yet), as the thread limit does in Community;
 * otherwise the spec's sentence (or "temporarily unavailable").
 */
function exportFailure(error: unknown): string {
  const refusal = isApiRequestError(error) && (error.status === 403 || error.status === 404) ? serverMessage(error) : undefined;
  return refusal ?? failureMessage(error, FAILED);
}

/** docs/product.md §2 and §7: the Research Export card of the sleep dashboard. */
export function ResearchExportCard() {
  const titleId = useId();
  const loggedOut = useLoggedOutRedirect();
  const once = useOneAtATime();
  const download = useDownloadResearchExport({
    onSuccess: (fileName) => {
      toast({ title: 'Export Complete', description: `Research data exported successfully. Downloaded ${fileName}` });
    },
    onError: (error) => {
      // docs/product.md §8: toast 'Unauthorized', then sign in after 0.5 s.
      if (isApiRequestError(error) && error.status === 401) return loggedOut();
      toast({ title: 'Export Failed', description: exportFailure(error), variant: 'destructive' });
    },
  });

  return (
    <Card role="region" aria-labelledby={titleId} className="flex flex-col gap-4 p-6 sm:flex-row sm:items-center sm:justify-between">
      <div className="flex items-start gap-4">
        <span className="grid size-12 shrink-0 place-items-center rounded-2xl bg-night-100 text-night-700">
          <FileArchive aria-hidden="true" className="size-6" />
        </span>
        <div className="grid gap-1">
          <h2 id={titleId} className="text-xl font-semibold text-night-950">
            Research Export
          </h2>
          <p className="text-base text-night-700">
            {/* in her words: "QA reports" and "Cohen's d" told a newcomer nothing, above her nights at every visit */}
            Your own study data, as the researchers receive it: a zip of spreadsheet files with your nights and your three phases side by
            side. You don&apos;t need it to take part. The study compares the fabrics across all participants, not from one person&apos;s
            nights.
          </p>
        </div>
      </div>
      <Button className="shrink-0" onClick={() => once(() => download.mutateAsync())} pending={download.isPending}>
        {download.isPending ? null : <Download aria-hidden="true" className="size-5" />}
        Download Research Export
      </Button>
    </Card>
  );
}
