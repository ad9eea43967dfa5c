/** A response's tags (an environment's, by name) and notes, as the console's results API answers them. */

export interface ResponseTag {
  id: string;
  createdAt: string;
  updatedAt: string;
  name: string;
  environmentId: string;
}

export interface ResponseNote {
  id: string;
  createdAt: string;
  updatedAt: string;
  responseId: string;
  user: { name: string };
  text: string;
  isResolved: boolean;
  isEdited: boolean;
}
