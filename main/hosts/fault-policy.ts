/**
 * The process-level policy of a host (browser host, Electron utility process): a fault that escaped every handler
 * (an unhandled rejection, an uncaught exception) is logged with its stack and the host keeps serving its other
 * clients. Each request is already answered inside a try (dispatcher.ts); this is the net below it, so one bad
 * message or one library bug cannot end a session that may be driving a desktop.
 */
export interface FaultPolicy {
  /** Faults seen since installed. */
  readonly faults: number;
  uninstall(): void;
}

export function installFaultPolicy(
  log: (message: string) => void = (message) => process.stderr.write(`platynui-inspector: ${message}\n`),
): FaultPolicy {
  let faults = 0;
  const describe = (error: unknown) => (error instanceof Error ? (error.stack ?? error.message) : String(error));
  const onRejection = (reason: unknown) => {
    faults++;
    log(`unhandled rejection (the host keeps serving): ${describe(reason)}`);
  };
  const onException = (error: Error) => {
    faults++;
    log(`uncaught exception (the host keeps serving): ${describe(error)}`);
  };
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  return {
    get faults() {
      return faults;
    },
    uninstall() {
      process.off('unhandledRejection', onRejection);
      process.off('uncaughtException', onException);
    },
  };
}
