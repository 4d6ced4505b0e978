// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiRequestError, fileNameFromContentDisposition, setUnauthorizedHandler } from './api-client';
import { datedFileName, downloadFile, saveFile } from './download';

const zip = (headers: Record<string, string> = {}) =>
  new Response(new Blob(['PK\u0003\u0004'], { type: 'application/zip' }), {
    status: 200,
    headers: { 'content-type': 'application/zip', ...headers },
  });

/** Records the links saveFile clicks instead of letting the test browser follow them. */
function captureClicks() {
  const clicked: { href: string; download: string; attached: boolean }[] = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    clicked.push({ href: this.href, download: this.download, attached: this.isConnected });
  });
  vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:http://localhost/file-1');
  const revoke = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
  return { clicked, revoke };
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  setUnauthorizedHandler(null);
});

describe('fileNameFromContentDisposition', () => {
  it.each([
    ['attachment; filename="sleepweave-research-2026-11-22.zip"', 'sleepweave-research-2026-11-22.zip'],
    ['attachment; filename=sleepweave-research-2026-11-22.zip', 'sleepweave-research-2026-11-22.zip'],
    ['attachment;filename="a \\"quoted\\" name.zip"', 'a "quoted" name.zip'],
    ['attachment; filename="fallback.zip"; filename*=UTF-8\'\'r%C3%A9sum%C3%A9%20export.zip', 'résumé export.zip'],
    ["attachment; filename*=utf-8''plain.zip", 'plain.zip'],
    ['attachment; filename="../../etc/passwd.zip"', 'passwd.zip'],
    ['attachment; filename="C:\\\\temp\\\\x.zip"', 'x.zip'],
  ])('reads %s', (header, name) => {
    expect(fileNameFromContentDisposition(header)).toBe(name);
  });

  it.each([null, '', 'attachment', 'inline; filename=""', 'attachment; filename=".."'])('has no name in %s', (header) => {
    expect(fileNameFromContentDisposition(header)).toBeNull();
  });
});

describe('datedFileName', () => {
  it("dates the name on the browser's clock", () => {
    expect(datedFileName('sleepweave-research-export', 'zip', new Date(2026, 10, 22, 23, 59))).toBe(
      'sleepweave-research-export-2026-11-22.zip',
    );
  });
});

describe('downloadFile', () => {
  it('GETs the file with her cookies and saves it under the Content-Disposition name', async () => {
    const fetchMock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) =>
      zip({ 'content-disposition': 'attachment; filename="sleepweave-research-2026-11-22.zip"' }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const { clicked } = captureClicks();

    await expect(downloadFile('/api/admin/research/latest/download', 'default.zip')).resolves.toBe('sleepweave-research-2026-11-22.zip');

    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/admin/research/latest/download');
    expect(init?.method).toBe('GET');
    expect(init?.credentials).toBe('same-origin');
    expect(init?.body).toBeUndefined();
    expect(clicked).toEqual([{ href: 'blob:http://localhost/file-1', download: 'sleepweave-research-2026-11-22.zip', attached: true }]);
    expect(document.querySelectorAll('a[download]')).toHaveLength(0);
  });

  it('uses the default name when the answer names no file', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => zip()),
    );
    const { clicked } = captureClicks();

    await expect(downloadFile('/api/research/export', 'sleepweave-research-export-2026-11-22.zip')).resolves.toBe(
      'sleepweave-research-export-2026-11-22.zip',
    );
    expect(clicked[0]?.download).toBe('sleepweave-research-export-2026-11-22.zip');
  });

  it('raises an error answer like any call, without saving anything', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ error: 'not_found', message: 'No nights yet.' }), { status: 404 })),
    );
    const { clicked } = captureClicks();

    const error = await downloadFile('/api/research/export', 'x.zip').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiRequestError);
    expect((error as ApiRequestError).body?.message).toBe('No nights yet.');
    expect(clicked).toHaveLength(0);
  });

  it('leaves a 401 to the caller when asked to', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('{}', { status: 401 })),
    );
    const handler = vi.fn();
    setUnauthorizedHandler(handler);

    await downloadFile('/api/research/export', 'x.zip', { redirectOnUnauthorized: false }).catch(() => {});
    expect(handler).not.toHaveBeenCalled();
    await downloadFile('/api/research/export', 'x.zip').catch(() => {});
    expect(handler).toHaveBeenCalledOnce();
  });
});

describe('saveFile', () => {
  it('lets the object URL go once the browser has had time to read it', () => {
    vi.useFakeTimers();
    const { revoke } = captureClicks();
    saveFile(new Blob(['x']), 'x.zip');
    expect(revoke).not.toHaveBeenCalled();
    vi.advanceTimersByTime(40_000);
    expect(revoke).toHaveBeenCalledWith('blob:http://localhost/file-1');
  });
});
