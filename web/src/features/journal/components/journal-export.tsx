import type { JournalExportFormat } from '@sleepweave/contracts';
import { FileDown, FileText } from 'lucide-react';
import { useId } from 'react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { toast } from '../../../components/ui/toast';
import { failureMessage, isApiRequestError, serverMessage } from '../../../lib/api-client';
import { useLoggedOutRedirect } from '../../../lib/logged-out-redirect';
import { useOneAtATime } from '../../../lib/one-at-a-time';
import { useDownloadJournalExport } from '../api/download-journal-export';
import { useJournalEntries } from '../api/get-journal-entries';

const FAILED = 'Failed to export your journal. Please try again.';

/**
 * Her journal, to take with her (docs/personal-exports.md): every entry, oldest first, as a
 * PDF to read or print, or as Markdown for any notes app. Shown once she has an entry.
 */
export function JournalExport() {
  const titleId = useId();
  const entries = useJournalEntries();
  const loggedOut = useLoggedOutRedirect();
  const download = useDownloadJournalExport({
    onSuccess: (fileName) => toast({ title: 'Export Complete', description: `Your journal was exported. Downloaded ${fileName}` }),
    onError: (error) => {
      if (isApiRequestError(error) && error.status === 401) return loggedOut();
      const refusal = isApiRequestError(error) && error.status === 404 ? serverMessage(error) : undefined;
      toast({ title: 'Export Failed', description: refusal ?? failureMessage(error, FAILED), variant: 'destructive' });
    },
  });
  // a double click downloaded the file twice
  const oneAtATime = useOneAtATime();
  if (!entries.data || entries.data.length === 0) return null;
  const pending: JournalExportFormat | null = download.isPending ? (download.variables ?? null) : null;

  return (
    <Card role="region" aria-labelledby={titleId} className="flex flex-col gap-4 p-5 sm:flex-row sm:items-center sm:justify-between">
      <div className="grid gap-1">
        <h2 id={titleId} className="text-lg font-semibold text-night-950">
          Take your journal with you
        </h2>
        <p className="text-base text-night-700">Every entry you wrote, oldest first.</p>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="outline"
          onClick={() => oneAtATime(() => download.mutateAsync('pdf'))}
          pending={pending === 'pdf'}
          disabled={pending === 'md'}
        >
          {pending === 'pdf' ? null : <FileDown aria-hidden="true" className="size-5" />}
          Export as PDF
        </Button>
        <Button
          variant="outline"
          onClick={() => oneAtATime(() => download.mutateAsync('md'))}
          pending={pending === 'md'}
          disabled={pending === 'pdf'}
        >
          {pending === 'md' ? null : <FileText aria-hidden="true" className="size-5" />}
          Export as Markdown
        </Button>
      </div>
    </Card>
  );
}
