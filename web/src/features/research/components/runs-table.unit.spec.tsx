// @vitest-environment happy-dom
import { cleanup, screen, within } from '@testing-library/react';
import type { ResearchRun } from '@sleepweave/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../../testing/render';
import { RunsTable } from './runs-table';

afterEach(cleanup);

const run = (id: string, values: Partial<ResearchRun>): ResearchRun => ({
  id,
  trigger: 'schedule',
  status: 'finished',
  requestedAt: '2026-11-22T02:00:00.000Z',
  startedAt: '2026-11-22T02:00:01.000Z',
  finishedAt: '2026-11-22T02:00:13.400Z',
  durationMs: 12_400,
  failure: null,
  fileName: 'sleepweave-research-2026-11-22.zip',
  sizeBytes: 1_258_291,
  downloadable: false,
  fileRemoved: false,
  summary: null,
  ...values,
});

describe('RunsTable', () => {
  it('says why a finished run has no file: removed with a participant who deleted her account, or no longer kept', () => {
    renderWithProviders(
      <RunsTable
        timeZone="UTC"
        runs={[run('0c6a3b8e-1f7d-4a57-9a1e-5b2c3d4e5f11', { fileRemoved: true }), run('0c6a3b8e-1f7d-4a57-9a1e-5b2c3d4e5f12', {})]}
      />,
    );
    const rows = within(screen.getByRole('table')).getAllByRole('row').slice(1);
    expect(rows[0]!.textContent).toContain('Removed: a participant in it deleted her account');
    expect(rows[1]!.textContent).toContain('Not kept');
  });
});
