import { describe, expect, it } from 'vitest';
import { count, interimOf, qaHeadline, type DataFindings, type Inclusion } from './build.ts';
import { runSummary } from './research-zip.ts';

/** Findings of `participants` participants with these inclusions (the rest of a run does not enter the headline). */
function findings(inclusions: Inclusion[], demoHits = 0): DataFindings {
  return {
    participants: inclusions.map(() => ({}) as DataFindings['participants'][number]),
    phaseMeans: [],
    hits: Array.from({ length: demoHits }, () => ({ rule: 'demo_account' }) as DataFindings['hits'][number]),
    nights: 84,
    nightsFlagged: 2,
    nightsLeftOut: 1,
    inclusion: new Map(inclusions.map((inclusion, i) => [`SW-${i}`, inclusion])),
  };
}
const included: Inclusion = { included: true, reason: '', stillInStudy: false, studyComplete: true };
const short: Inclusion = { included: false, reason: 'too few nights', stillInStudy: false, studyComplete: true };
const inStudy: Inclusion = { included: false, reason: 'still in the study', stillInStudy: true, studyComplete: false };

describe('qaHeadline', () => {
  it('writes counts with thousands separated, as the README and the PDF do (count)', () => {
    expect(qaHeadline({ ...findings([included]), nights: 36_529, nightsFlagged: 4_303, nightsLeftOut: 1_294 })).toMatch(
      /^4,303 of 36,529 nights flagged by a QA rule \(1,294 left out of the means\)/,
    );
    expect(count(36_529)).toBe('36,529');
  });

  it('gives no reason when nobody is left out', () => {
    expect(qaHeadline(findings([included, included]))).toBe(
      '2 of 84 nights flagged by a QA rule (1 left out of the means); 0 of 2 participants not in the primary analysis.',
    );
  });

  it('names the one reason that applies, and counts each when there are several', () => {
    expect(qaHeadline(findings([included, short]))).toBe(
      '2 of 84 nights flagged by a QA rule (1 left out of the means); 1 of 2 participants not in the primary analysis (too few nights in polyester or linen).',
    );
    expect(qaHeadline(findings([included, inStudy]))).toBe(
      '2 of 84 nights flagged by a QA rule (1 left out of the means); 1 of 2 participants not in the primary analysis (1 still in the study).',
    );
    expect(qaHeadline(findings([short, inStudy, short, included]))).toBe(
      '2 of 84 nights flagged by a QA rule (1 left out of the means); 3 of 4 participants not in the primary analysis (1 still in the study, 2 too few nights in polyester or linen).',
    );
  });
});

describe('an interim run', () => {
  it('counts those included while still in their study, and says so in the README and the PDF', () => {
    const interim: Inclusion = { ...included, studyComplete: false };
    const summary = runSummary(findings([included, interim, interim, inStudy, short]), [], 'ok');
    expect(summary).toMatchObject({ participantsIncluded: 3, participantsExcluded: 2, participantsIncludedInStudy: 2 });
    expect(interimOf(summary)).toBe(', 2 of them still in their study (interim)');
    expect(interimOf({ ...summary, participantsIncludedInStudy: 0 })).toBe('');
    // a run from before it was counted
    const { participantsIncludedInStudy: _, ...older } = summary;
    expect(interimOf(older)).toBe('');
  });
});
