import type { AdminExportKind } from '@sleepweave/contracts';
import { Download } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { toast } from '../../../components/ui/toast';
import { isApiRequestError } from '../../../lib/api-client';
import { EXPORT_FAILED, useExportAdminData } from '../api/export-admin-data';

const BUTTONS: { kind: AdminExportKind; label: string }[] = [
  { kind: 'users', label: 'Export Users Data' },
  { kind: 'sleep', label: 'Export Sleep Study Data' },
];

/** Export Research Data: the two CSV downloads of the spec; a failure says 'Export failed. Please try again.' */
export function ExportCard() {
  const [failed, setFailed] = useState(false);
  const exporting = useExportAdminData({
    onError: (error) => {
      // a 401 has sent her to sign in already
      if (!(isApiRequestError(error) && error.status === 401)) setFailed(true);
    },
  });
  const start = (kind: AdminExportKind) => {
    setFailed(false);
    exporting.mutate(kind, { onSuccess: (fileName) => toast({ title: 'Export downloaded', description: fileName }) });
  };
  return (
    <Card className="grid gap-4 p-6" role="region" aria-labelledby="export-title">
      <div className="grid gap-1">
        <h2 id="export-title" className="text-xl font-semibold text-night-950">
          Export Research Data
        </h2>
        <p className="max-w-prose text-base text-night-700">
          CSV files that open in Excel. Users data holds personal data (names, e-mails); sleep study data is under research ids only. Each
          file holds everyone (every night), whatever the list below is filtered to. Every export is recorded in the audit trail.
        </p>
      </div>
      <div className="flex flex-wrap gap-3">
        {BUTTONS.map(({ kind, label }) => (
          <Button
            key={kind}
            variant="outline"
            onClick={() => start(kind)}
            pending={exporting.isPending && exporting.variables === kind}
            // the other one only: the pressed button keeps the keyboard's focus (Button's `pending`)
            disabled={exporting.isPending && exporting.variables !== kind}
          >
            {exporting.isPending && exporting.variables === kind ? null : <Download aria-hidden="true" className="size-5" />}
            {label}
          </Button>
        ))}
      </div>
      {failed ? (
        <p role="alert" className="rounded-xl border border-rose-200 bg-rose-50 px-4 py-3 text-base text-rose-900">
          {EXPORT_FAILED}
        </p>
      ) : null}
    </Card>
  );
}
