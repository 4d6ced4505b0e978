import { Download } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button, type ButtonProps } from '../../../components/ui/button';
import { toast } from '../../../components/ui/toast';
import { failureMessage, isApiRequestError, serverMessage } from '../../../lib/api-client';
import { useLoggedOutRedirect } from '../../../lib/logged-out-redirect';
import { type ResearchDownload, useDownloadResearchExport } from '../api/download-research-export';

/**
 * Downloads a research zip, with the research export's toasts (docs/product.md §8): 'Export
 * Complete' naming the file, or 'Export Failed' (the server's words for a 404: none yet, or
 * no longer kept).
 */
export function DownloadButton({
  download,
  children,
  ...props
}: { download: ResearchDownload; children: ReactNode } & Omit<ButtonProps, 'onClick' | 'pending' | 'asChild'>) {
  const loggedOut = useLoggedOutRedirect();
  const mutation = useDownloadResearchExport({
    onSuccess: (fileName) => {
      toast({ title: 'Export Complete', description: `Research data exported successfully. Downloaded ${fileName}` });
    },
    onError: (error) => {
      if (isApiRequestError(error) && error.status === 401) return loggedOut();
      const refusal = isApiRequestError(error) && [403, 404].includes(error.status) ? serverMessage(error) : undefined;
      toast({
        title: 'Export Failed',
        description: refusal ?? failureMessage(error, 'Failed to download the research export. Please try again.'),
        variant: 'destructive',
      });
    },
  });

  return (
    <Button {...props} onClick={() => mutation.mutate(download)} pending={mutation.isPending}>
      {mutation.isPending || props.variant === 'link' ? null : <Download aria-hidden="true" className="size-5" />}
      {children}
    </Button>
  );
}
