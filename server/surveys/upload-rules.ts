import type { TSurvey } from '../../domain/surveys/types.js';

/**
 * What an upload may be. A file is served back from the server's own origin, so a type a browser would
 * run (HTML, SVG, JavaScript, XML) must never be stored as such; and a survey's file question says
 * which extensions it takes, which the server holds to as the widget does.
 */

/** Types that a browser only displays or downloads; anything else is served as application/octet-stream. */
const INERT_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/bmp',
  'application/pdf',
  'text/plain',
  'text/csv',
  'application/msword',
  'application/vnd.ms-excel',
  'application/vnd.ms-powerpoint',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.oasis.opendocument.text',
  'application/vnd.oasis.opendocument.spreadsheet',
  'application/vnd.oasis.opendocument.presentation',
  'application/zip',
  'audio/mpeg',
  'video/mp4',
  'video/webm',
]);

/** Extensions and types a browser runs when served from our origin: refused outright. */
const EXECUTABLE_EXTENSIONS = new Set([
  'html',
  'htm',
  'xhtml',
  'shtml',
  'svg',
  'svgz',
  'js',
  'mjs',
  'xml',
  'xsl',
  'wasm',
]);
const EXECUTABLE_TYPE = /html|javascript|ecmascript|svg|xml|wasm/i;

const mediaType = (fileType: string) => fileType.split(';')[0].trim().toLowerCase();

/** The type a stored upload is served with. */
export const servedType = (fileType: string) =>
  INERT_TYPES.has(mediaType(fileType)) ? mediaType(fileType) : 'application/octet-stream';

/** The file name's extension, lower case ('' when it has none). */
export function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 ? fileName.slice(dot + 1).toLowerCase() : '';
}

/**
 * Why the file may not be uploaded to the survey, or undefined when it may: an executable type or
 * extension; or, against the list the request names and against the survey's file questions (a
 * question with no list takes any file), neither its extension nor its type's subtype is listed. The
 * subtype counts as the widget checks it that way (`text/plain` is listed as `plain`).
 */
export function uploadRefusal(
  survey: Pick<TSurvey, 'questions'>,
  file: { fileName: string; fileType: string },
  requested?: string[],
): string | undefined {
  const extension = extensionOf(file.fileName);
  const type = mediaType(file.fileType);
  if (EXECUTABLE_EXTENSIONS.has(extension) || EXECUTABLE_TYPE.test(type)) {
    return `files of type ${file.fileType}${extension ? ` (.${extension})` : ''} cannot be uploaded`;
  }
  const names = new Set([extension, type.slice(type.lastIndexOf('/') + 1)].filter(Boolean));
  const takes = (allowed: readonly string[] | undefined) =>
    !allowed?.length || allowed.some((candidate) => names.has(candidate.toLowerCase().replace(/^\./, '')));
  const shown = extension ? `.${extension}` : file.fileType;
  if (!takes(requested)) return `${shown} is not one of the allowed file extensions`;
  const questions = survey.questions.filter((question) => question.type === 'fileUpload');
  if (questions.length === 0) return 'the survey has no file upload question';
  if (!questions.some((question) => takes(question.allowedFileExtensions))) {
    return `${shown} is not one of the survey's allowed file extensions`;
  }
  return undefined;
}
