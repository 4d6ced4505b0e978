import { describe, expect, it } from 'vitest';
import { codebookRows } from './columns.ts';

const notesOf = (column: string) => codebookRows().find(([file, name]) => file === 'nights.csv' && name === column)?.[6] ?? '';

describe('the codebook', () => {
  it('says of each answer the form starts at a value that the value may be a night she left as it was', () => {
    expect(notesOf('sleep_quality_1_10')).toContain('The form starts at 7: a 7 may be a night she left as it was.');
    expect(notesOf('dream_recall')).toContain('The form starts at no: a no may be a night she left as it was.');
    expect(notesOf('heat_wave')).toContain('The form starts at no: a no may be a night she left as it was.');
    expect(notesOf('heat_wakeups')).toContain('The form starts at 0: a 0 may be a night she left as it was.');
    // an answer that starts empty, and the ring's figures, are empty when not given
    for (const column of ['restfulness_self', 'sleep_score', 'deep_minutes']) {
      expect(notesOf(column), column).not.toBe('');
      expect(notesOf(column), column).not.toContain('The form starts at');
    }
  });
});
