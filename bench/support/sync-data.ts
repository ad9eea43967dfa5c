// The sync benchmark's environment: 20 surveys, 10 action classes and 1,000 people with attributes and
// displays, written with the survey store into a database before the server opens it.
import { ChangeFeed } from '../../server/changes.js';
import { openDatabase } from '../../server/db/index.js';
import { DEMO_SEED } from '../../server/surveys/demo.js';
import { applySeed } from '../../server/surveys/seed.js';
import { SurveyStore } from '../../server/surveys/store/index.js';

export const SYNC_ENVIRONMENT_ID = 'clbenchsyncenvironment00';
export const PEOPLE = 1000;
const SURVEYS = 20;

export async function seedSyncEnvironment(url: string): Promise<void> {
  const database = await openDatabase(url);
  const store = new SurveyStore(database, new ChangeFeed());
  const demo = DEMO_SEED.environments[0];
  const surveys = Array.from({ length: SURVEYS }, (_, i) => ({
    ...demo.surveys![i % demo.surveys!.length],
    id: `clbenchsyncsurvey${String(i).padStart(7, '0')}`,
    name: `Survey ${i + 1}`,
  }));
  // The three automatic classes, the demo's three and four more page-URL classes: ten in all.
  const extraActions = ['docs', 'blog', 'careers', 'changelog'].map((page) => ({
    name: `Visited ${page}`,
    type: 'noCode' as const,
    noCodeConfig: { pageUrl: { value: `/${page}`, rule: 'contains' } },
  }));
  await applySeed(
    store,
    {
      environments: [
        {
          ...demo,
          id: SYNC_ENVIRONMENT_ID,
          product: { ...demo.product, id: 'clbenchsyncproduct000000' },
          apiKeys: [],
          actionClasses: [...demo.actionClasses!, ...extraActions],
          surveys,
        },
      ],
    },
    'bench',
  );
  for (let i = 0; i < PEOPLE; i++) {
    const personId = await store.ensurePerson(SYNC_ENVIRONMENT_ID, userIdOf(i));
    await store.updateAttributes(personId, { email: `user${i}@example.com`, plan: i % 3 ? 'free' : 'pro' });
    if (i % 2) await store.createDisplay(SYNC_ENVIRONMENT_ID, surveys[i % SURVEYS].id, personId);
  }
  await database.close();
}

export const userIdOf = (i: number) => `bench-user-${i}`;
