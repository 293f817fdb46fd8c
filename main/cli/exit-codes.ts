import type { ErrorCode } from '../../shared/model/errors.js';

/** The CLI's exit codes are a contract: 0 ok, 2 usage or XPath error, 3 provider unavailable, 4 timeout/cancelled. */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;
export const EXIT_PROVIDER = 3;
export const EXIT_TIMEOUT = 4;

export function exitCodeFor(code: ErrorCode): number {
  switch (code) {
    case 'usage':
    case 'xpath-syntax':
    case 'xpath-type':
    case 'xpath-evaluation':
    case 'invalid-input':
      return EXIT_USAGE;
    case 'provider-unavailable':
    case 'accessibility-disabled':
    case 'not-responding':
      return EXIT_PROVIDER;
    case 'timeout':
    case 'cancelled':
      return EXIT_TIMEOUT;
    default:
      return EXIT_FAILURE;
  }
}

/** Thrown by a command whose exit status is not an error's (`virtual-desktop` passes on its command's status). */
export class CommandExit extends Error {
  constructor(readonly status: number) {
    super(`exit ${status}`);
    this.name = 'CommandExit';
  }
}
