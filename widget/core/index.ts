/**
 * The survey loader: the public API of @formbricks/js 1.6 (spec: shared/spec/widget.md).
 * Every call goes through the command queue; nothing throws into the host page.
 */
export const VERSION = '1.6.5';

const formbricks = {
  VERSION,
};

export default formbricks;
