// The version of this shell: served by api/web/__init__.py with the hash of the client's files
// filled in, and cached by the service worker with the rest of the shell.
export const SHELL_VERSION = "__SHELL_VERSION__";
