import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvField } from '../../../server/surveys/results.js';
import { dialects } from '../support.js';
import { CLIENT, ENV, startSurveyApp, type SurveyTestApp } from './support.js';

// Answers, user ids, meta and attributes come from anonymous visitors: a cell a spreadsheet would run as a
// formula is written as text.

describe('csvField', () => {
  it.each([
    ['=HYPERLINK("https://evil.example","x")', `"'=HYPERLINK(""https://evil.example"",""x"")"`],
    ['+1+cmd|calc', `"'+1+cmd|calc"`],
    ['-2+3', `"'-2+3"`],
    ['@SUM(A1)', `"'@SUM(A1)"`],
    ['\t=1', `"'\t=1"`],
    ['\r=1', `"'\r=1"`],
    ['plain, with a comma', '"plain, with a comma"'],
    ['a = b', 'a = b'],
  ])('writes %j as %s', (text, cell) => {
    expect(csvField(text)).toBe(cell);
  });

  it('leaves numbers written from number values as they are', () => {
    expect(csvField(-5)).toBe('-5');
    expect(csvField(['=a', 'b'])).toBe(`"'=a; b"`);
  });
});

describe.each(dialects)('the CSV export of hostile answers on %s', (dialect) => {
  let t: SurveyTestApp;
  let surveyId: string;
  beforeAll(async () => {
    t = await startSurveyApp(dialect);
    const created = await t.management('POST', '/surveys', {
      name: 'Hostile answers',
      triggers: ['Hostile action'],
      questions: [
        { id: 'why', type: 'openText', headline: '=1+1', required: false },
        { id: 'score', type: 'nps', headline: 'Score', required: false, lowerLabel: 'No', upperLabel: 'Yes' },
      ],
    });
    expect(created.status).toBe(200);
    surveyId = created.body.data.id;
    await t.request('POST', `${CLIENT}/people/+cmd`, { attributes: { plan: '@SUM(1)' } });
    const response = await t.request('POST', `${CLIENT}/responses`, {
      surveyId,
      userId: '+cmd',
      finished: true,
      data: { why: '=HYPERLINK("https://evil.example")', score: 3 },
      meta: { source: '-source', url: '=url' },
    });
    expect(response.status).toBe(200);
  });
  afterAll(() => t.close());

  it('writes no cell a spreadsheet would run, headers included', async () => {
    const csv = await t.request(
      'GET',
      `/api/v1/namespaces/default/surveys/environments/${ENV}/surveys/${surveyId}/results/export.csv`,
    );
    expect(csv.status).toBe(200);
    const [header, row] = (csv.body as string).trimEnd().split('\r\n');
    expect(header).toContain(`,1. =1+1,`);
    expect(row).toContain(`,"'+cmd",`);
    expect(row).toContain(`,"'-source","'=url",`);
    expect(row).toContain(`,"'=HYPERLINK(""https://evil.example"")",3,`);
    expect(row).toMatch(/,"'@SUM\(1\)"$/);
    // Every cell, quoted or not, starts with something other than a formula character.
    for (const line of [header, row]) {
      for (const cell of line.match(/("([^"]|"")*"|[^,]*)(?=,|$)/g) ?? []) {
        expect(cell.replace(/^"/, '')).not.toMatch(/^[=+\-@\t\r]/);
      }
    }
  });
});
