/** The element the renderer draws in. */
export const CONTAINER_ID = 'formbricks-web-container';

export const addContainer = (): void =>
  document.body.append(Object.assign(document.createElement('div'), { id: CONTAINER_ID }));
export const removeContainer = (): void => document.getElementById(CONTAINER_ID)?.remove();
