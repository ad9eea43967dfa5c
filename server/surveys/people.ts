import * as v from 'valibot';
import { badRequest } from './errors.js';
import { environmentOfPath, environmentParams, syncParams } from './client-environment.js';
import {
  MAX_ACTION_NAME_LENGTH,
  MAX_ATTRIBUTES_PER_PERSON,
  MAX_ATTRIBUTE_KEY_LENGTH,
  MAX_ATTRIBUTE_VALUE_LENGTH,
  MAX_CLIENT_ACTION_CLASSES,
  type SurveyStore,
} from './store/index.js';
import { route } from '../route-definitions.js';
import { plainObject, userIdString } from './validation.js';

const actionBody = v.object({
  userId: userIdString,
  name: v.pipe(
    v.string('must be a string'),
    v.minLength(1, 'must not be empty'),
    v.maxLength(MAX_ACTION_NAME_LENGTH, `must be at most ${MAX_ACTION_NAME_LENGTH} characters`),
  ),
});
const personCreateBody = v.object({ userId: userIdString });
const attributeName = v.pipe(
  v.string(),
  v.minLength(1, 'attribute names must not be empty'),
  v.maxLength(MAX_ATTRIBUTE_KEY_LENGTH, `attribute names must be at most ${MAX_ATTRIBUTE_KEY_LENGTH} characters`),
);
const attributeValue = v.pipe(
  v.union([v.string(), v.number()], 'must be a string or a number'),
  v.check(
    (value) => String(value).length <= MAX_ATTRIBUTE_VALUE_LENGTH,
    `attribute values must be at most ${MAX_ATTRIBUTE_VALUE_LENGTH} characters`,
  ),
);
/** A person's attributes as clients send them: names to strings or numbers, within the bounds of the store. */
export const attributesRecord = plainObject(
  v.pipe(
    v.record(attributeName, attributeValue),
    v.check(
      (attributes) => Object.keys(attributes).length <= MAX_ATTRIBUTES_PER_PERSON,
      `at most ${MAX_ATTRIBUTES_PER_PERSON} attributes may be set at once`,
    ),
  ),
  'must be an object',
);
const attributesBody = v.object({ attributes: attributesRecord });

/** Formbricks 1.6 client API: what the widget tells about a person (who they are, what they did, their attributes). */
export function peopleRoutes(store: SurveyStore) {
  const environment = environmentOfPath(store);
  return [
    route({
      method: 'POST',
      url: '/:environmentId/actions',
      params: environmentParams,
      load: environment,
      body: actionBody,
      handler: async ({ loaded: environment, body }) => {
        const personId = await store.ensurePerson(environment.id, body.userId);
        const automatic = body.name === 'Exit Intent (Desktop)' || body.name === '50% Scroll';
        const type = automatic ? 'automatic' : 'code';
        const actionClassId = await store.clientActionClass(environment.id, body.name, type);
        if (actionClassId === undefined)
          throw badRequest(
            `this environment holds ${MAX_CLIENT_ACTION_CLASSES} action classes created by clients already`,
          );
        await store.recordAction(environment.id, personId, actionClassId);
        return { data: {} };
      },
    }),
    route({
      method: 'POST',
      url: '/:environmentId/people',
      params: environmentParams,
      load: environment,
      body: personCreateBody,
      handler: async ({ loaded: environment, body }) => {
        await store.ensurePerson(environment.id, body.userId);
        return { data: { userId: body.userId } };
      },
    }),
    route({
      method: 'POST',
      url: '/:environmentId/people/:userId',
      params: syncParams,
      load: environment,
      body: attributesBody,
      handler: async ({ params: { userId }, loaded: environment, body }) => {
        const personId = await store.ensurePerson(environment.id, userId);
        const attributes = Object.fromEntries(
          Object.entries(body.attributes).map(([key, value]) => [key, String(value)]),
        );
        const changed = await store.updateAttributes(personId, attributes);
        return {
          data: changed
            ? { changed: true, message: 'The person was successfully updated.' }
            : { changed: false, message: 'No updates were necessary; the person is already up to date.' },
        };
      },
    }),
  ];
}
