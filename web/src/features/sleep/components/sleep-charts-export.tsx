import { exportStart, type SleepExportFormat } from '@sleepweave/contracts';
import { format as formatDate, parseISO } from 'date-fns';
import { FileSpreadsheet, FileText } from 'lucide-react';
import { useId } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { toast } from '../../../components/ui/toast';
import { paths } from '../../../config/paths';
import { isApiRequestError } from '../../../lib/api-client';
import { useLoggedOutRedirect } from '../../../lib/logged-out-redirect';
import { useDownloadSleepExport } from '../api/download-sleep-export';
import { sleepExportFailure } from './sleep-export-failure';

const readable = (date: string) => formatDate(parseISO(date), 'MMM dd, yyyy');

/**
 * The charts page's Export to Excel and Generate PDF Report (docs/product.md §2): the same
 * files as /sleep/export, for the dates the charts show.
 */
export function ChartsExport({ startDate: from, endDate }: { startDate: string; endDate: string }) {
  // her nights shown, or the latest year of them (what one export covers)
  const startDate = exportStart(from, endDate);
  const titleId = useId();
  const loggedOut = useLoggedOutRedirect();
  const download = useDownloadSleepExport({
    onSuccess: (fileName) => toast({ title: 'Export Complete', description: `Your sleep data was exported. Downloaded ${fileName}` }),
    onError: (error) => {
      if (isApiRequestError(error) && error.status === 401) return loggedOut();
      toast({ title: 'Export Failed', description: sleepExportFailure(error), variant: 'destructive' });
    },
  });
  const pending: SleepExportFormat | null = download.isPending ? (download.variables?.format ?? null) : null;
  const start = (format: SleepExportFormat) => download.mutate({ startDate, endDate, format });

  return (
    <Card role="region" aria-labelledby={titleId} className="flex flex-col gap-4 p-5 sm:flex-row sm:items-center sm:justify-between">
      <div className="grid gap-1">
        <h2 id={titleId} className="text-lg font-semibold text-night-950">
          Take these charts with you
        </h2>
        <p className="text-base text-night-700">
          {startDate === endDate ? readable(startDate) : `${readable(startDate)} – ${readable(endDate)}`}, with every night&apos;s data.{' '}
          <Link to={paths.sleep.export} className="text-night-700 underline underline-offset-4 hover:text-night-900">
            Choose other dates
          </Link>
        </p>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" onClick={() => start('xlsx')} pending={pending === 'xlsx'} disabled={pending === 'pdf'}>
          {pending === 'xlsx' ? null : <FileSpreadsheet aria-hidden="true" className="size-5" />}
          Export to Excel
        </Button>
        <Button variant="outline" onClick={() => start('pdf')} pending={pending === 'pdf'} disabled={pending === 'xlsx'}>
          {pending === 'pdf' ? null : <FileText aria-hidden="true" className="size-5" />}
          Generate PDF Report
        </Button>
      </div>
    </Card>
  );
}
