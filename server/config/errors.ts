/** A configuration problem, worded as one line that names the key or flag. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}
